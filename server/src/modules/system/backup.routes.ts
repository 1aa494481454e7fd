import { PassThrough } from 'node:stream';
import { hasPermission } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import { users } from '../../platform/db/schema/index.js';
import { MIGRATIONS_FOLDER } from '../../platform/db/migrations.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { lastScheduledBackup } from './backup-schedule.js';
import { writeBackup } from './backup.service.js';

const BACKUP = '/api/v1/admin_super/backup';
const PURPOSE = 'backup';
/** Long enough for the browser to follow the link it was just given; a leaked link is soon worth nothing. */
const TICKET_SECONDS = 60;

const ZSchedule = z.object({
  enabled: z.boolean(),
  dir: z.string().nullable(),
  at: z.string().nullable(),
  keep: z.number().nullable(),
  last: z
    .object({
      day: z.string(),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
      file: z.string().nullable(),
      bytes: z.number().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});

const stamp = (date: Date) => date.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/**
 * A backup of the whole installation, downloaded from the running server by a super administrator: the same
 * archive as `npm run backup`, restored with `npm run restore`. The browser downloads it by following a link
 * (so a backup of many gigabytes goes straight to disk), which carries a one-minute ticket instead of a header.
 */
export const backupRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  driver: Pick<RuntimeDriver, 'workspaceDir'>;
}> = async (app, { ctx, driver }) => {
  const tags = ['system'];

  app.get(
    `${BACKUP}/schedule`,
    {
      config: { permission: 'system.manage' },
      schema: {
        tags,
        summary: 'The daily backups (BACKUP_DIR): when, where, how many are kept, and the latest',
        response: envelopeOf(ZSchedule),
      },
    },
    async () => {
      const settings = ctx.config.scheduledBackups;
      const last = await lastScheduledBackup(ctx);
      return ok({
        enabled: settings !== null,
        dir: settings?.dir ?? null,
        at: settings?.at ?? null,
        keep: settings?.keep ?? null,
        last: last && {
          day: last.day,
          startedAt: last.startedAt.toISOString(),
          finishedAt: last.finishedAt?.toISOString() ?? null,
          file: last.file,
          bytes: last.bytes,
          error: last.error,
        },
      });
    },
  );

  app.post(
    `${BACKUP}/link`,
    {
      config: { permission: 'system.manage' },
      schema: {
        tags,
        summary: 'A link that downloads a backup of the whole installation, valid for one minute',
        response: envelopeOf(z.object({ url: z.string() })),
      },
    },
    async (request) => {
      const ticket = await ctx.tokens.ticket(PURPOSE, requireAuth(request), TICKET_SECONDS);
      await writeAudit(ctx.db, request, { module: 'system', operation: 'backup', customerId: null });
      return ok({ url: `${BACKUP}?${new URLSearchParams({ ticket }).toString()}` });
    },
  );

  app.get(
    BACKUP,
    {
      schema: {
        tags,
        summary: 'Download a backup (.tar.gz): rows, files, project versions and workspaces',
        querystring: z.object({ ticket: z.string().min(1) }),
      },
    },
    async (request, reply) => {
      const holder = await ctx.tokens.verifyTicket(PURPOSE, request.query.ticket);
      if (!holder) throw new AppError('TOKEN_EXPIRED');
      // The holder must still be an enabled super administrator when the download starts.
      const [user] = await ctx.db
        .select({ roles: users.roles, enabled: users.enabled })
        .from(users)
        .where(eq(users.id, holder.userId));
      if (!user?.enabled || !hasPermission(user.roles, 'system.manage')) throw new AppError('NO_PERMISSION_PAGE');

      const body = new PassThrough();
      writeBackup(
        {
          db: ctx.db,
          storage: ctx.storage,
          dataDir: ctx.config.dataDir,
          folders: driver,
          migrationsFolder: MIGRATIONS_FOLDER,
        },
        body,
      ).catch((error: unknown) => {
        // The archive stops short; its gzip stream has no end, so the file cannot be mistaken for a whole backup.
        request.log.error({ err: error }, 'backup failed');
        body.destroy(error as Error);
      });
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="aiedu-backup-${stamp(ctx.now())}.tar.gz"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
