import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { deleteStaleRows } from './cleanup.repository.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long the outbox keeps a message: long after any code in it stopped working, for the record. */
const OUTBOX_DAYS = 30;

/**
 * Deletes the sign-in records no rule reads any more, well past the longest window that does: captchas and SSO
 * states a day after they expired, failed sign-ins and an account's count of attempts a day (or the captcha window,
 * when longer) after they happened or its window began, verification codes two days after they were sent (the
 * per-target limit counts the last 24 hours), and refresh tokens a day after they expired. Every rotation and
 * sign-in stores a token; a replaced or revoked one is kept until then, so a copy presented while it could still
 * have been used revokes its sign-in (E002), and one presented later is simply expired. The outbox keeps 30 days of
 * messages.
 */
export async function deleteStaleSignInRecords(ctx: Pick<AppContext, 'db' | 'now' | 'config'>) {
  const now = ctx.now().getTime();
  const failureWindow = ctx.config.loginFailureWindowMinutes * 60_000;
  return deleteStaleRows(ctx.db, {
    captchasExpired: new Date(now - DAY),
    ssoStatesExpired: new Date(now - DAY),
    loginFailuresCreated: new Date(now - Math.max(DAY, 2 * failureWindow)),
    loginAttemptsStarted: new Date(now - Math.max(DAY, 2 * failureWindow)),
    verificationCodesCreated: new Date(now - 2 * DAY),
    refreshTokensExpired: new Date(now - DAY),
    outboxCreated: new Date(now - OUTBOX_DAYS * DAY),
  });
}

/**
 * Runs the deletion every hour while the server runs, in every process: deleting the same old rows twice is
 * harmless, and one process's deletion spares the others'. Returns the function that stops it.
 */
export function startCleanup(ctx: AppContext, log: FastifyBaseLogger, everyMs = HOUR) {
  const timer = setInterval(() => {
    deleteStaleSignInRecords(ctx).catch((err: unknown) => log.error({ err }, 'deleting stale sign-in records failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
