import { ROLES } from '@aiedu/contracts';
import type { Config } from '../../config.js';
import type { RequestShield } from '../../platform/shield.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import * as repo from './auth.repository.js';
import { isVerifyCodeRequired } from '../system/system-config.service.js';
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

/** Failures are counted per customer code + identifier, so typos of one child never lock out a classmate. */
function accountKey(custcode: string, identifier: string) {
  return `${custcode.toLowerCase()}\n${identifier.toLowerCase()}`;
}

function windowStart(deps: LoginDeps) {
  return new Date(deps.now().getTime() - deps.config.loginFailureWindowMinutes * 60_000);
}

/** Whether recent failures of this account or address (or the platform switch) call for the slider captcha. */
async function captchaDue(deps: LoginDeps, failures: { account: number; address: number }) {
  return (
    (await isVerifyCodeRequired(deps.db, deps.config)) ||
    failures.account >= deps.config.captchaAfterAccountFailures ||
    failures.address >= deps.config.captchaAfterAddressFailures
  );
}

export async function isCaptchaRequired(deps: LoginDeps, custcode: string, identifier: string, ip: string) {
  return captchaDue(
    deps,
    await repo.countLoginFailures(deps.db, accountKey(custcode, identifier), ip, windowStart(deps)),
  );
}

/** A hash to verify against when the account does not exist, so both refusals take the same time. */
let decoyHash: Promise<string> | undefined;

export async function login(deps: LoginDeps, input: LoginInput, requester: Requester) {
  const key = accountKey(input.custcode, input.identifier);
  // One query: the failures that decide the captcha, and the account.
  const { failures, found } = await repo.loginState(deps.db, {
    custcode: input.custcode,
    identifier: input.identifier,
    accountKey: key,
    ip: requester.ip,
    since: windowStart(deps),
  });
  if (await captchaDue(deps, failures)) {
    const passed =
      (await consumeCaptcha(deps.db, input.captchaId, deps.now())) ||
      (await consumeImageCode(deps.db, input.acid, input.verifycode, deps.now()));
    if (!passed) {
      // A captcha sent and not passed counts toward the address's request shield, like a wrong password.
      if (input.captchaId || input.acid || input.verifycode) await deps.shield.record(requester.ip, 'loginFailure');
      throw new AppError('CAPTCHA_REQUIRED');
    }
  }
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  const matches = await verifyPassword(found?.user.passwordHash ?? (await decoyHash), input.password);
  if (!found || !matches) {
    await repo.recordLoginFailure(deps.db, key, requester.ip, deps.now());
    await deps.shield.record(requester.ip, 'loginFailure');
    throw new AppError('WRONG_CREDENTIALS');
  }
  if (!found.active) throw new AppError('ACCOUNT_DISABLED');
  if (failures.account > 0) await repo.clearLoginFailures(deps.db, key);
  const { user } = found;
  const pair = await startSession(deps, user, requester);
  return {
    id: user.id,
    roles: user.roles,
    ...pair,
    mustChangePassword: user.mustChangePassword,
    isSuper: user.roles.includes(ROLES.super),
  };
}
