import { bigint, boolean, check, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { updatedAt } from './columns.js';

/**
 * The platform's settings that super administrators change at run time: one row (`id = 'platform'`). A null
 * column means "as deployed": the product's own name and logo, the `IS_CUSTOMER_SINGLE` / `IS_VERIFY_CODE`
 * configuration, the `COMPUTE_WEEKLY_MINUTES_*` defaults.
 */
export const systemSettings = pgTable(
  'system_settings',
  {
    id: text('id').primaryKey().default('platform'),
    platformName: text('platform_name'),
    /** Storage key of the logo (a PNG re-encoded from the upload). */
    logoKey: text('logo_key'),
    isCustomerSingle: boolean('is_customer_single'),
    isVerifyCode: boolean('is_verify_code'),
    /** Weekly compute minutes per runtime type for customers that set none (`{ "BASIC": 600, … }`). */
    computeWeeklyMinutes: jsonb('compute_weekly_minutes')
      .$type<Partial<Record<string, number>>>()
      .notNull()
      .default({}),
    updatedAt: updatedAt(),
  },
  (t) => [check('system_settings_single_row', sql`${t.id} = 'platform'`)],
);

/**
 * The daily backups (`BACKUP_DIR`): one row a day, taken by the first process whose time comes, so several processes
 * write one backup between them; it records where the backup went or why it failed.
 */
export const scheduledBackups = pgTable('scheduled_backups', {
  /** The server's local date, `YYYY-MM-DD`. */
  day: text('day').primaryKey(),
  holder: text('holder').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  file: text('file'),
  bytes: bigint('bytes', { mode: 'number' }),
  error: text('error'),
});
