import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, decodeJwt, errors, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

/** Who is calling, from a verified access token. `customerId` is null in the public space. */
export interface AuthContext {
  userId: string;
  customerId: string | null;
  roles: string[];
  /** The sign-in (refresh-token family) this access token belongs to. */
  sessionId: string;
  /** An administrator set the password: only the password change may be called until it is replaced. */
  mustChangePassword: boolean;
}

/** Checked tokens kept (about 0.5 KB each): one per signed-in person of a large school. */
const VERIFIED_TOKENS = 10_000;

/** The `typ` of tickets, which access tokens (`JWT`) never carry. */
const TICKET_TYPE = 'ticket+jwt';

export class AccessTokens {
  /**
   * The HMAC key, imported once: given the secret's bytes, jose imports a key for every token it signs or verifies,
   * which costs as much as the signature itself on every authenticated request.
   */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens whose signature was checked, with their caller and expiry: a client sends the same token with every
   * request for up to its lifetime, and its signature, checked once, stays valid; only the time is read again.
   * Keyed by the whole token, so a token changed in any character is checked afresh.
   */
  private readonly verified = new LRUCache<string, { auth: AuthContext; exp: number }>({ max: VERIFIED_TOKENS });

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => Date,
  ) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /**
   * A token for `auth` that lives at least its whole lifetime: `exp` is a whole second, rounded up, so a token signed
   * late in a second does not lose most of that second (with a 2-second lifetime, half of it).
   */
  async sign(auth: AuthContext): Promise<string> {
    const now = this.now().getTime() / 1000;
    return new SignJWT({ cid: auth.customerId, roles: auth.roles, sid: auth.sessionId, mcp: auth.mustChangePassword })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(auth.userId)
      .setIssuedAt(Math.floor(now))
      .setExpirationTime(Math.ceil(now + this.ttlSeconds))
      .sign(await this.key);
  }

  /** The caller of a valid, unexpired token; null for anything else (expired, altered, not a token). */
  async verify(token: string): Promise<AuthContext | null> {
    const checked = this.verified.get(token);
    if (checked) return checked.exp > this.nowSeconds() ? checked.auth : null;
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        typ: 'JWT',
        currentDate: this.now(),
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        !Array.isArray(payload.roles) ||
        typeof payload.exp !== 'number'
      ) {
        return null;
      }
      const auth: AuthContext = Object.freeze({
        userId: payload.sub,
        customerId: typeof payload.cid === 'string' ? payload.cid : null,
        roles: Object.freeze(payload.roles.map(String)) as string[],
        sessionId: payload.sid,
        mustChangePassword: payload.mcp === true,
      });
      this.verified.set(token, { auth, exp: payload.exp });
      return auth;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  /**
   * A ticket for one purpose (a download the browser starts by following a link, which carries no header): it names
   * its caller and purpose, lives `seconds`, and is never taken as an access token, nor one as a ticket.
   */
  async ticket(purpose: string, auth: AuthContext, seconds: number): Promise<string> {
    const now = this.now().getTime() / 1000;
    return new SignJWT({ sid: auth.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: TICKET_TYPE })
      .setSubject(auth.userId)
      .setAudience(purpose)
      .setIssuedAt(Math.floor(now))
      .setExpirationTime(Math.ceil(now + seconds))
      .sign(await this.key);
  }

  /** The caller a valid, unexpired ticket for `purpose` names; null for anything else. */
  async verifyTicket(purpose: string, ticket: string): Promise<{ userId: string } | null> {
    try {
      const { payload } = await jwtVerify(ticket, await this.key, {
        algorithms: ['HS256'],
        typ: TICKET_TYPE,
        audience: purpose,
        currentDate: this.now(),
      });
      return typeof payload.sub === 'string' ? { userId: payload.sub } : null;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  /** The clock as jose reads it against `exp`: whole seconds, a token expiring at this second already expired. */
  private nowSeconds() {
    return Math.floor(this.now().getTime() / 1000);
  }
}

/** When an access token `verify` accepted expires (ms since the epoch). */
export function accessTokenExpiry(token: string): number {
  return (decodeJwt(token).exp ?? 0) * 1000;
}

/** An opaque refresh token (256 random bits) and the hash that is stored in its place. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
