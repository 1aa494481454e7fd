import { ROLES } from '@aiedu/contracts';
import type { Config } from '../../config.js';
import type { RequestShield } from '../../platform/shield.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import * as repo from './auth.repository.js';
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

export async function login(deps: LoginDeps, input: LoginInput, requester: Requester) {
  // One statement: the account, and this attempt counted with those before it.
  const { accountKey, failures, found } = await repo.loginState(deps.db, {
    space: await signInSpace(deps, input.custcode),
    custcode: input.custcode,
    identifier: input.identifier,
    typedKey: typedKey(input.custcode, input.identifier),
    ip: requester.ip,
    now: deps.now(),
    since: windowStart(deps),
  });
  if (await captchaDue(deps, failures)) {
    const passed =
      (await consumeCaptcha(deps.db, input.captchaId, deps.now())) ||
      (await consumeImageCode(deps.db, input.acid, input.verifycode, deps.now()));
    if (!passed) {
      await repo.withdrawAttempt(deps.db, accountKey);
      // A captcha sent and not passed counts toward the address's request shield, like a wrong password.
      if (input.captchaId || input.acid || input.verifycode) await deps.shield.record(requester.ip, 'loginFailure');
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
    await repo.withdrawAttempt(deps.db, accountKey);
    throw new AppError('ACCOUNT_DISABLED');
  }
  const { user } = found;
  return signedIn(user, await startSession(deps, user, requester, { accountKey, verifiedHash: user.passwordHash }));
}

/** The answer of every sign-in (password, code): who signed in, with the token pair. */
export function signedIn(
  user: { id: string; roles: string[]; mustChangePassword: boolean },
  pair: { token: string; refreshToken: string },
) {
  return {
    id: user.id,
    roles: user.roles,
    ...pair,
    mustChangePassword: user.mustChangePassword,
    isSuper: user.roles.includes(ROLES.super),
  };
}
