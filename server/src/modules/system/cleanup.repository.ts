import { lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  captchas,
  loginAttempts,
  loginFailures,
  outbox,
  refreshTokens,
  ssoStates,
  verificationCodes,
} from '../../platform/db/schema/index.js';

/** The moments before which each table's rows are read by nothing any more. */
export interface StaleBefore {
  captchasExpired: Date;
  ssoStatesExpired: Date;
  loginFailuresCreated: Date;
  loginAttemptsStarted: Date;
  verificationCodesCreated: Date;
  refreshTokensExpired: Date;
  outboxCreated: Date;
}

export async function deleteStaleRows(db: Db, before: StaleBefore): Promise<void> {
  await db.delete(captchas).where(lt(captchas.expiresAt, before.captchasExpired));
  await db.delete(ssoStates).where(lt(ssoStates.expiresAt, before.ssoStatesExpired));
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, before.loginFailuresCreated));
  await db.delete(loginAttempts).where(lt(loginAttempts.windowStart, before.loginAttemptsStarted));
  await db.delete(verificationCodes).where(lt(verificationCodes.createdAt, before.verificationCodesCreated));
  await db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before.refreshTokensExpired));
  await db.delete(outbox).where(lt(outbox.createdAt, before.outboxCreated));
}
