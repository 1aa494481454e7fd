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

/** Whether this account or address must pass the slider captcha, and how often the account failed lately. */
async function captchaState(deps: LoginDeps, custcode: string, identifier: string, ip: string) {
  const since = new Date(deps.now().getTime() - deps.config.loginFailureWindowMinutes * 60_000);
  const failures = await repo.countLoginFailures(deps.db, accountKey(custcode, identifier), ip, since);
  const required =
    (await isVerifyCodeRequired(deps.db, deps.config)) ||
    failures.account >= deps.config.captchaAfterAccountFailures ||
    failures.address >= deps.config.captchaAfterAddressFailures;
  return { required, accountFailures: failures.account };
}

export async function isCaptchaRequired(deps: LoginDeps, custcode: string, identifier: string, ip: string) {
  return (await captchaState(deps, custcode, identifier, ip)).required;
}

/** A hash to verify against when the account does not exist, so both refusals take the same time. */
let decoyHash: Promise<string> | undefined;

export async function login(deps: LoginDeps, input: LoginInput, requester: Requester) {
  const key = accountKey(input.custcode, input.identifier);
  const captcha = await captchaState(deps, input.custcode, input.identifier, requester.ip);
  if (captcha.required) {
    const passed =
      (await consumeCaptcha(deps.db, input.captchaId, deps.now())) ||
      (await consumeImageCode(deps.db, input.acid, input.verifycode, deps.now()));
    if (!passed) throw new AppError('CAPTCHA_REQUIRED');
  }
  const found = await repo.findUserForLogin(deps.db, input.custcode, input.identifier);
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  const matches = await verifyPassword(found?.user.passwordHash ?? (await decoyHash), input.password);
  if (!found || !matches) {
    await repo.recordLoginFailure(deps.db, key, requester.ip, deps.now());
    deps.shield.record(requester.ip, 'loginFailure');
    throw new AppError('WRONG_CREDENTIALS');
  }
  if (!found.active) throw new AppError('ACCOUNT_DISABLED');
  if (captcha.accountFailures > 0) await repo.clearLoginFailures(deps.db, key);
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
