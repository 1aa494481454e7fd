import { createHash, randomBytes } from 'node:crypto';
import { ROLES } from '@aiedu/contracts';
import * as oidc from 'openid-client';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword } from '../../platform/passwords.js';
import { assertQuota } from '../institution/quota.service.js';
import * as repo from './auth.repository.js';
import { signedIn } from './login.service.js';
import { sessionDeps, startSession, type Requester } from './session.service.js';
import * as sso from './sso.repository.js';

type Provider = sso.Provider;
type Claims = oidc.IDToken & Partial<oidc.UserInfoResponse>;

/** How long a started sign-in may take at the provider. */
export const STATE_TTL_MS = 10 * 60_000;
const discovered = new Map<string, Promise<oidc.Configuration>>();

function isLoopback(url: string) {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

/** The provider's OpenID configuration, discovered once per process (plain HTTP only on loopback). */
function configurationOf(provider: Provider): Promise<oidc.Configuration> {
  const key = `${provider.id}:${provider.issuer}:${provider.clientId}`;
  let config = discovered.get(key);
  if (!config) {
    const options = isLoopback(provider.issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined;
    config = oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, options);
    config.catch(() => discovered.delete(key));
    discovered.set(key, config);
  }
  return config;
}

/**
 * Where the provider sends the browser back: the third-party sign-in page, with the step and type in its path
 * (`/user/sign/login/<type>`). A path, not a query, because the token request must repeat it without a query.
 */
export function redirectUriOf(ctx: AppContext, type: string) {
  return `${ctx.config.publicUrl}/user/sign/login/${encodeURIComponent(type)}`;
}

async function findProvider(ctx: AppContext, custcode: string, type: string): Promise<Provider> {
  const customer = custcode ? await repo.findCustomerByCode(ctx.db, custcode) : undefined;
  if (custcode && !customer) throw new AppError('LOGIN_FAILED');
  const provider = await sso.findEnabledProvider(ctx.db, customer?.id ?? null, type);
  if (!provider) throw new AppError('LOGIN_FAILED');
  return provider;
}

function present(ctx: AppContext, p: Provider) {
  return {
    id: p.id,
    customerId: p.customerId,
    type: p.type,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    scopes: p.scopes,
    autoCreate: p.autoCreate,
    schoolId: p.schoolId,
    enabled: p.enabled,
    redirectUri: redirectUriOf(ctx, p.type),
  };
}

/** The caller's customer's providers (a super administrator: all of them), with the redirect address to register. */
export async function listProviders(ctx: AppContext, customerId: string | null) {
  return (await sso.listProviders(ctx.db, customerId)).map((p) => present(ctx, p));
}

export async function addProvider(
  ctx: AppContext,
  customerId: string | null,
  input: Omit<sso.NewProvider, 'customerId'>,
) {
  // New accounts join a school of the provider's own customer (the public space has none).
  if (input.schoolId && !(customerId && (await sso.isSchoolOf(ctx.db, input.schoolId, customerId)))) {
    throw new AppError('BAD_REQUEST', { field: 'schoolId' });
  }
  return present(ctx, await sso.insertProvider(ctx.db, { ...input, customerId }));
}

export async function removeProvider(ctx: AppContext, customerId: string | null, id: string) {
  if (!(await sso.deleteProvider(ctx.db, id, customerId))) throw new AppError('NOT_FOUND');
}

/**
 * What the browser that started a sign-in keeps (in a cookie) to finish it: the hash of the sign-in's state. A
 * callback link carries only the state, so one sent to another browser (someone else's sign-in, passed on to sign
 * a victim in as its owner) comes without it and is refused.
 */
export function browserBinding(state: string) {
  return createHash('sha256').update(`sso-browser:${state}`).digest('base64url');
}

/**
 * Starts a sign-in at the customer's provider: answers the address to send the browser to, and the binding the
 * browser must keep to finish it.
 */
export async function startSso(ctx: AppContext, input: { custcode: string; type: string; targetUrl: string }) {
  const provider = await findProvider(ctx, input.custcode, input.type);
  const config = await configurationOf(provider).catch(() => {
    throw new AppError('CONNECT_TIMEOUT');
  });
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const redirectUri = redirectUriOf(ctx, provider.type);
  const now = ctx.now();
  await sso.insertState(
    ctx.db,
    {
      state,
      providerId: provider.id,
      nonce,
      codeVerifier,
      redirectUri,
      targetUrl: input.targetUrl.startsWith('/') && !input.targetUrl.startsWith('//') ? input.targetUrl : '',
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    },
    now,
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, binding: browserBinding(state) };
}

/**
 * Finishes a sign-in with the query the provider sent back, in the browser that started it (`binding`, see
 * `browserBinding`): exchanges the code (PKCE, state and nonce checked), then signs in the linked account, creating
 * one on the first visit when the provider allows it.
 */
export async function finishSso(
  ctx: AppContext,
  query: Record<string, string>,
  binding: string | undefined,
  requester: Requester,
) {
  if (!query.state || !query.code) throw new AppError('LOGIN_FAILED');
  // Checked before the state is taken: a link opened elsewhere leaves the sign-in to the browser that started it.
  if (binding !== browserBinding(query.state)) throw new AppError('LOGIN_FAILED');
  const pending = await sso.takeState(ctx.db, query.state);
  if (!pending || pending.expiresAt <= ctx.now()) throw new AppError('LINK_EXPIRED');
  const provider = await sso.findProviderById(ctx.db, pending.providerId);
  if (!provider?.enabled) throw new AppError('LOGIN_FAILED');
  const callback = new URL(pending.redirectUri);
  for (const name of ['code', 'state', 'iss', 'session_state']) {
    if (query[name]) callback.searchParams.set(name, query[name]);
  }
  let claims: Claims;
  try {
    const config = await configurationOf(provider);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    const idToken = tokens.claims();
    if (!idToken?.sub) throw new AppError('LOGIN_FAILED');
    // Profile claims usually come from the UserInfo endpoint rather than the ID token.
    const profile = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub).catch(() => ({}));
    claims = { ...profile, ...idToken };
  } catch {
    throw new AppError('LOGIN_FAILED');
  }
  const user = await linkedUser(ctx, provider, claims);
  if (!(await repo.isAccountActive(ctx.db, user.id))) throw new AppError('ACCOUNT_DISABLED');
  const pair = await startSession(sessionDeps(ctx), user, requester);
  const customer = provider.customerId ? await repo.findCustomerById(ctx.db, provider.customerId) : undefined;
  return { ...signedIn(user, pair), custcode: customer?.code ?? '', targetUrl: pending.targetUrl };
}

async function linkedUser(ctx: AppContext, provider: Provider, claims: Claims) {
  const linkedId = await sso.findLinkedUserId(ctx.db, provider.id, claims.sub);
  if (linkedId) return (await repo.findUserById(ctx.db, linkedId))!;
  if (!provider.autoCreate) throw new AppError('LOGIN_FAILED');
  const base = usernameFrom(claims);
  const name = typeof claims.name === 'string' ? claims.name.slice(0, 20) : '';
  // The account gets a random password nobody knows: it signs in through the provider (or resets by code).
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  // The provider's name for the user, or, when taken, that name with a random suffix (five tries).
  const usernames = Array.from({ length: 5 }, (_, attempt) =>
    attempt === 0 ? base : `${base.slice(0, 24)}_${randomBytes(2).toString('hex')}`,
  );
  // A new student of the provider's customer, within its student quota (and those of the customers above it), on
  // the roster of the provider's school when it has one.
  const user = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (provider.customerId) await assertQuota(db, provider.customerId, 'student');
    const created = await sso.createLinkedUser(
      db,
      {
        customerId: provider.customerId,
        schoolId: provider.customerId ? provider.schoolId : null,
        passwordHash,
        roles: [ROLES.student],
        realName: name,
      },
      usernames,
      { providerId: provider.id, subject: claims.sub },
    );
    if (created?.customerId && created.schoolId) {
      await sso.addToRoster(db, { userId: created.id, customerId: created.customerId, schoolId: created.schoolId });
    }
    return created;
  });
  if (!user) throw new AppError('LOGIN_FAILED');
  return user;
}

function usernameFrom(claims: Claims): string {
  const preferred = typeof claims.preferred_username === 'string' ? claims.preferred_username : '';
  const cleaned = preferred.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 30);
  return cleaned.length >= 3 ? cleaned : `sso_${createHash('sha256').update(claims.sub).digest('hex').slice(0, 12)}`;
}
