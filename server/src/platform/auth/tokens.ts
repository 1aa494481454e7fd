import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

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

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => Date,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(auth: AuthContext): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ cid: auth.customerId, roles: auth.roles, sid: auth.sessionId, mcp: auth.mustChangePassword })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(auth.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.key);
  }

  /** The caller of a valid, unexpired token; null for anything else (expired, altered, not a token). */
  async verify(token: string): Promise<AuthContext | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !Array.isArray(payload.roles)) {
        return null;
      }
      return {
        userId: payload.sub,
        customerId: typeof payload.cid === 'string' ? payload.cid : null,
        roles: payload.roles.map(String),
        sessionId: payload.sid,
        mustChangePassword: payload.mcp === true,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}

/** An opaque refresh token (256 random bits) and the hash that is stored in its place. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
