import { ROLES, type TLoginBackoff } from '@aiedu/contracts';
import type { Config } from '../../config.js';
import type { RequestShield } from '../../platform/shield.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import * as repo from './auth.repository.js';
import * as backoff from './login-backoff.repository.js';
import { isCustomerSingle, isVerifyCodeRequired } from '../system/system-config.service.js';
import { consumeCaptcha, consumeImageCode } from './captcha.service.js';
import { startSession, type Requester, type SessionDeps } from './session.service.js';

export interface LoginDeps extends SessionDeps {
  config: Config;
  shield: RequestShield;
}

export interface LoginInput {
  custcode: string;
  identifier: string;
  password: string;
  captchaId?: string | undefined;
  /** The legacy form's image code: its id and the digits typed. */
  acid?: string | undefined;
  verifycode?: string | undefined;
}

/**
 * Attempts count per account, so typos of one child never lock out a classmate: under the account's id when the
 * identifier names one (see the repository's attemptKey), else under this key of what was typed.
 */
function typedKey(custcode: string, identifier: string) {
  return `${custcode.toLowerCase()}\n${identifier.toLowerCase()}`;
}

function windowStart(deps: LoginDeps) {
  return new Date(deps.now().getTime() - deps.config.loginFailureWindowMinutes * 60_000);
}

/**
 * Where a sign-in with this customer code looks for the account. A one-customer deployment's page sends the one
 * customer's code (or none) while learners who signed up by phone are in the public space, so there the public
 * space is looked in after the customer.
 */
async function signInSpace(deps: LoginDeps, custcode: string): Promise<repo.SignInSpace> {
  if (await isCustomerSingle(deps.db, deps.config)) return 'single';
  return custcode ? 'customer' : 'public';
}

/**
 * Whether the attempts of this account (in the window, those being judged included) or the failures of this
 * address, or the platform switch, call for the slider captcha. The account counts attempts still being judged, so
 * that parallel sign-ins cannot all guess before the first failure is written; the address counts only completed
 * failures: a class of 40 signing in together behind one school address must not be put behind the captcha by its
 * own sign-ins in flight.
 */
async function captchaDue(deps: LoginDeps, failures: { account: number; address: number }) {
  return (
    (await isVerifyCodeRequired(deps.db, deps.config)) ||
    failures.account >= deps.config.captchaAfterAccountFailures ||
    failures.address >= deps.config.captchaAfterAddressFailures
  );
}

/** Whether the next sign-in of this identifier needs the captcha: the counts the sign-in itself would judge by. */
export async function isCaptchaRequired(deps: LoginDeps, custcode: string, identifier: string, ip: string) {
  const failures = await repo.attemptState(deps.db, {
    space: await signInSpace(deps, custcode),
    custcode,
    identifier,
    typedKey: typedKey(custcode, identifier),
    ip,
    since: windowStart(deps),
  });
  return captchaDue(deps, failures);
}

/** A hash to verify against when the account does not exist, so both refusals take the same time. */
let decoyHash: Promise<string> | undefined;

/**
 * The backoff once an account's own attempts need the captcha: each attempt judged from then on holds the next one
 * for 1 s, then 2 s, 4 s … at most a minute, so a solved captcha is worth one guess per delay however many are
 * sent. The hold never outlasts a minute, so the owner is never shut out, and a right password clears it.
 */
export const LOGIN_BACKOFF = { firstMs: 1000, maxMs: 60_000 } as const;

/** How long the attempt after this one waits, given the attempts counted before this one. */
function backoffMs(deps: LoginDeps, attemptsBefore: number) {
  const doublings = attemptsBefore - deps.config.captchaAfterAccountFailures;
  return Math.min(LOGIN_BACKOFF.maxMs, LOGIN_BACKOFF.firstMs * 2 ** doublings);
}

/** `1101` with the whole seconds until the account's next attempt is judged. */
async function tooManyAttempts(deps: LoginDeps, accountKey: string, now: Date) {
  const until = await backoff.heldUntil(deps.db, accountKey, now);
  const retryAfter = Math.max(1, Math.ceil(((until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  return new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter } satisfies TLoginBackoff);
}

export async function login(deps: LoginDeps, input: LoginInput, requester: Requester) {
  const now = deps.now();
  // One statement: the account, and this attempt counted with those before it.
  const { accountKey, failures, found } = await repo.loginState(deps.db, {
    space: await signInSpace(deps, input.custcode),
    custcode: input.custcode,
    identifier: input.identifier,
    typedKey: typedKey(input.custcode, input.identifier),
    ip: requester.ip,
    now,
    since: windowStart(deps),
  });
  const sentCaptcha = Boolean(input.captchaId || input.acid || input.verifycode);
  // The hold this attempt places, when the account's attempts are past the captcha threshold and it brings one.
  let hold: Date | undefined;
  const giveBack = async () => {
    await repo.withdrawAttempt(deps.db, accountKey);
    if (hold) await backoff.liftHold(deps.db, accountKey, hold);
  };
  if (failures.account >= deps.config.captchaAfterAccountFailures) {
    const until = new Date(now.getTime() + backoffMs(deps, failures.account));
    const judged = sentCaptcha
      ? await backoff.holdAttempts(deps.db, accountKey, now, until)
      : !(await backoff.heldUntil(deps.db, accountKey, now));
    if (!judged) {
      await repo.withdrawAttempt(deps.db, accountKey);
      throw await tooManyAttempts(deps, accountKey, now);
    }
    if (sentCaptcha) hold = until;
  }
  if (await captchaDue(deps, failures)) {
    const passed =
      (await consumeCaptcha(deps.db, input.captchaId, now)) ||
      (await consumeImageCode(deps.db, input.acid, input.verifycode, now));
    if (!passed) {
      await giveBack();
      // A captcha sent and not passed counts toward the address's request shield, like a wrong password.
      if (sentCaptcha) await deps.shield.record(requester.ip, 'loginFailure');
      throw new AppError('CAPTCHA_REQUIRED');
    }
  }
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  const matches = await verifyPassword(found?.user.passwordHash ?? (await decoyHash), input.password);
  if (!found || !matches) {
    await repo.recordLoginFailure(deps.db, accountKey, requester.ip, deps.now());
    await deps.shield.record(requester.ip, 'loginFailure');
    throw new AppError('WRONG_CREDENTIALS');
  }
  if (!found.active) {
    await giveBack();
    throw new AppError('ACCOUNT_DISABLED');
  }
  const { user } = found;
  return signedIn(user, await startSession(deps, user, requester, { accountKey, verifiedHash: user.passwordHash }));
}

/** The answer of every sign-in (password, code, single sign-on): who signed in, with the token pair. */
export function signedIn(
  user: { id: string; roles: string[]; mustChangePassword: boolean; schoolId: string | null },
  pair: { token: string; refreshToken: string },
) {
  return {
    id: user.id,
    roles: user.roles,
    ...pair,
    mustChangePassword: user.mustChangePassword,
    isSuper: user.roles.includes(ROLES.super),
    schoolId: user.schoolId,
  };
}
