import {
  API,
  EMAIL,
  ERRORS,
  PHONE,
  type TCaptcha,
  type TLoginBackoff,
  type TLoginResponse,
  type TTokenPair,
  type TTracePoint,
} from '@aiedu/contracts';
import { api } from '../../app/api';
import { ApiError } from '../../app/api-client';
import { i18n } from '../../app/i18n';
import { encodePassword } from '../../ui/password-encoding';

/** The calls of sign-in, sign-up, reset and password change (spec sections 3, 4 and 7). */

export type CodeScene = 'REGISTER' | 'RESET_PWD' | 'LOGIN' | 'BIND';
export type ContactType = 'phone' | 'email' | 'unknown';

/** Errors the sign-in forms show next to their fields; the API client reacts to the rest for every page. */
export const FORM_ERROR_CODES: readonly string[] = [
  ERRORS.BAD_REQUEST,
  ERRORS.INVALID_REQUEST,
  ERRORS.NOT_FOUND,
  ERRORS.TOO_MANY_LOGIN_ATTEMPTS,
  ERRORS.WRONG_CREDENTIALS,
  ERRORS.USERNAME_TAKEN,
  ERRORS.EMAIL_TAKEN,
  ERRORS.CONTACT_INVALID,
  ERRORS.EMAIL_SEND_FAILED,
  ERRORS.PASSWORD_MISMATCH,
  ERRORS.VERIFY_CODE_INVALID,
  ERRORS.LOGIN_FAILED,
  ERRORS.EMAIL_NOT_REGISTERED,
  ERRORS.PHONE_TAKEN,
  ERRORS.RESET_PASSWORD_FAILED,
  ERRORS.CAPTCHA_WRONG,
  ERRORS.PASSWORD_WEAK,
  ERRORS.LINK_EXPIRED,
  ERRORS.CONNECT_TIMEOUT,
  ERRORS.FILE_TOO_LARGE,
  ERRORS.UPLOAD_FAILED,
  ERRORS.OPERATION_FAILED,
].map((e) => e.code);

/** Request options of a form's call: the form shows these refusals itself, so the API client does not toast them. */
export const FORM = { handledCodes: FORM_ERROR_CODES } as const;

/**
 * Errors the forms used before signing in show as well: the call carries no session, so a disabled account (or one
 * whose customer or school is switched off) is the answer to the form, not the end of a session.
 */
export const SIGN_IN_ERROR_CODES: readonly string[] = [
  ...FORM_ERROR_CODES,
  ERRORS.ACCOUNT_DISABLED.code,
  ERRORS.SESSION_REPLACED.code,
];

/** Request options of a call made before signing in (sign-in, sign-up, reset, their codes and puzzle). */
const SIGN_IN = { handledCodes: SIGN_IN_ERROR_CODES } as const;

/**
 * The server's message for an error a form shows itself, with the wait a sign-in held back (`1101`) names; undefined
 * when the API client already showed it.
 */
export function formErrorMessage(error: unknown, codes: readonly string[] = FORM_ERROR_CODES): string | undefined {
  if (!(error instanceof ApiError) || typeof error.body !== 'object') return undefined;
  const { errorCode, errorMsg, data } = error.body;
  if (!codes.includes(errorCode) || !errorMsg) return undefined;
  const wait = errorCode === ERRORS.TOO_MANY_LOGIN_ATTEMPTS.code && (data as Partial<TLoginBackoff> | null)?.retryAfter;
  return typeof wait === 'number' ? `${errorMsg} ${i18n.t('sign:captcha.retryIn', { seconds: wait })}` : errorMsg;
}

/** The message a form used before signing in shows for a refusal of one of its calls. */
export function signInErrorMessage(error: unknown): string | undefined {
  return formErrorMessage(error, SIGN_IN_ERROR_CODES);
}

export function contactType(value: string): ContactType {
  if (PHONE.test(value)) return 'phone';
  if (EMAIL.test(value)) return 'email';
  return 'unknown';
}

/** Asked before every password sign-in: must this account pass the slider puzzle first? */
export function isCaptchaRequired(custcode: string, username: string): Promise<boolean> {
  return api.get<boolean>(API.authVerifyCodeEnabled, { query: { custcode, username }, ...SIGN_IN });
}

export function getCaptcha(): Promise<TCaptcha> {
  return api.get<TCaptcha>(API.captcha);
}

/** Checks a slide to `x`, with the trace of the drag (or key presses) that put the slider there. */
export function checkCaptcha(captchaId: string, x: number, trace: TTracePoint[]): Promise<{ pass: true }> {
  return api.post<{ pass: true }>(API.captchaCheck, { captchaId, checkedData: { x, trace } }, SIGN_IN);
}

export interface PasswordLoginInput {
  custcode: string;
  username: string;
  password: string;
  captchaId?: string;
}

export function loginWithPassword({ custcode, username, password, captchaId }: PasswordLoginInput) {
  const body = { custcode, usernameOrEmailOrPhone: username, password: encodePassword(password), captchaId };
  return api.post<TLoginResponse>(API.authLogin, body, SIGN_IN);
}

export function loginWithCode(input: { custcode: string; user: string; verifyCode: string }) {
  return api.post<TLoginResponse>(API.codeLogin, input, SIGN_IN);
}

export function sendCode(input: { scene: CodeScene; target: string; custcode?: string }) {
  return api.post<null>(API.sendCode, { ...input, type: contactType(input.target) }, SIGN_IN);
}

export function registerByPhone(input: { phone: string; password: string; verifyCode: string }) {
  return api.post<{ id: string }>(API.registerByPhone, { ...input, password: encodePassword(input.password) }, SIGN_IN);
}

export function resetPassword(input: { custcode: string; user: string; password: string; verifyCode: string }) {
  return api.post<null>(API.resetPassword, { ...input, password: encodePassword(input.password) }, SIGN_IN);
}

export function changePassword(oldPassword: string, newPassword: string) {
  const body = { oriPasswd: encodePassword(oldPassword), newPasswd: encodePassword(newPassword) };
  return api.put<TTokenPair>(API.changePassword, body, FORM);
}

/** Replaces a password an administrator set (login answered `mustChangePassword`). */
export function replaceDefaultPassword(newPassword: string) {
  return api.put<TTokenPair>(API.defaultPassword, { newPasswd: encodePassword(newPassword) }, FORM);
}

// Third-party sign-in: paths the server serves outside the shared API table.
const THIRD_PARTY_AUTHORIZE = (type: string) => `/gw/api/v1/auth/thirdparty/${encodeURIComponent(type)}/authorize`;
const THIRD_PARTY_FINISH = '/gw/api/v1/auth/iaif_login';

/** The provider's sign-in address for this customer; `targetUrl` comes back after the sign-in. */
export function startThirdPartyLogin(type: string, custcode: string, targetUrl: string) {
  return api.get<{ url: string }>(THIRD_PARTY_AUTHORIZE(type), { query: { custcode, targetUrl }, ...SIGN_IN });
}

/** Sends the query the provider returned (`code`, `state`, …) as it came. */
export function finishThirdPartyLogin(search: string) {
  const query = search.startsWith('?') ? search.slice(1) : search;
  return api.get<TLoginResponse & { targetUrl: string; custcode: string }>(`${THIRD_PARTY_FINISH}?${query}`, SIGN_IN);
}
