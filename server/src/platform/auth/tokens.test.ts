import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens, type AuthContext } from './tokens.js';

const SECRET = 'a-secret-of-the-tests-that-is-long-enough-for-hs256';
const caller: AuthContext = {
  userId: '0190a000-0000-7000-8000-000000000001',
  customerId: '0190a000-0000-7000-8000-000000000002',
  roles: ['ROLE_STUDENT'],
  sessionId: '0190a000-0000-7000-8000-000000000003',
  mustChangePassword: false,
};

function clock(start: string) {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('access tokens', () => {
  it('answers the caller of a token it signed, the second time too', async () => {
    const time = clock('2026-11-23T08:00:00Z');
    const tokens = new AccessTokens(SECRET, 1800, time.now);
    const token = await tokens.sign(caller);
    expect(await tokens.verify(token)).toEqual(caller);
    expect(await tokens.verify(token)).toEqual(caller);
  });

  it('refuses a token once its lifetime is over, even after it was checked while valid', async () => {
    const time = clock('2026-11-23T08:00:00.250Z');
    const tokens = new AccessTokens(SECRET, 1800, time.now);
    const token = await tokens.sign(caller);
    expect(await tokens.verify(token)).not.toBeNull();
    time.advance(1_799_000);
    expect(await tokens.verify(token)).not.toBeNull();
    // Its whole lifetime: at 08:30:00.250 it is still valid; its exp is the next whole second, 08:30:01.
    time.advance(1_000);
    expect(await tokens.verify(token)).not.toBeNull();
    time.advance(750);
    expect(await tokens.verify(token)).toBeNull();
    // A fresh instance, which has not seen the token, agrees.
    expect(await new AccessTokens(SECRET, 1800, time.now).verify(token)).toBeNull();
  });

  it('gives a token signed late in a second its whole lifetime, however short', async () => {
    const time = clock('2026-11-23T08:00:00.990Z');
    const tokens = new AccessTokens(SECRET, 2, time.now);
    const token = await tokens.sign(caller);
    time.advance(1_990);
    expect(await tokens.verify(token)).not.toBeNull();
    expect(await new AccessTokens(SECRET, 2, time.now).verify(token)).not.toBeNull();
    time.advance(20);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token changed in any character after the same token was accepted', async () => {
    const tokens = new AccessTokens(SECRET, 1800, clock('2026-11-23T08:00:00Z').now);
    const token = await tokens.sign(caller);
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const raised = Buffer.from(JSON.stringify({ ...claims, roles: ['ROLE_SUPER'] })).toString('base64url');
    expect(await tokens.verify(`${header}.${raised}.${signature}`)).toBeNull();
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
  });

  it('refuses a token signed with another secret, and anything that is not a token', async () => {
    const time = clock('2026-11-23T08:00:00Z');
    const tokens = new AccessTokens(SECRET, 1800, time.now);
    const other = await new AccessTokens(`${SECRET}-other`, 1800, time.now).sign(caller);
    expect(await tokens.verify(other)).toBeNull();
    expect(await tokens.verify('not-a-token')).toBeNull();
    const unsigned = await new SignJWT({ sid: caller.sessionId, roles: caller.roles })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(caller.userId)
      .setExpirationTime('30m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(unsigned)).toBeNull();
  });

  it('hands out a caller no request can change for the next one', async () => {
    const tokens = new AccessTokens(SECRET, 1800, clock('2026-11-23T08:00:00Z').now);
    const token = await tokens.sign(caller);
    const first = await tokens.verify(token);
    expect(() => first!.roles.push('ROLE_SUPER')).toThrow(TypeError);
    expect((await tokens.verify(token))!.roles).toEqual(['ROLE_STUDENT']);
  });
});
