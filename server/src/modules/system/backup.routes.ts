import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
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
import { DAILY_NAME, lastScheduledBackup, listDailyBackups } from './backup-schedule.js';
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
  /** The daily backups kept in the folder, newest first. */
  files: z.array(z.object({ name: z.string(), bytes: z.number(), modifiedAt: z.string() })),
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

const statOrNull = (file: string) => {
  try {
    return statSync(file);
  } catch {
    return null;
  }
};

const stamp = (date: Date) => date.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/**
 * A backup of the whole installation, downloaded from the running server by a super administrator: the same
 * archive as `npm run backup`, restored with `npm run restore`. The browser downloads it by following a link
 * (so a backup of many gigabytes goes straight to disk), which carries a one-minute ticket instead of a header.
 */
/** The ticket of a download: the backup made now, or one daily backup by name. */
const purposeOf = (file: string | undefined) => (file === undefined ? PURPOSE : `${PURPOSE}:${file}`);

export const backupRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  driver: Pick<RuntimeDriver, 'workspaceDir'>;
}> = async (app, { ctx, driver }) => {
  const tags = ['system'];

  /** A daily backup kept in `BACKUP_DIR`, by a name of the daily backups' form only; otherwise NOT_FOUND. */
  const dailyFile = (name: string) => {
    const dir = ctx.config.scheduledBackups?.dir;
    const kept = dir && DAILY_NAME.test(name) ? path.join(dir, name) : null;
    const info = kept ? statOrNull(kept) : null;
    if (!kept || !info?.isFile()) throw new AppError('NOT_FOUND');
    return { path: kept, size: info.size };
  };

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
        files: settings ? await listDailyBackups(settings.dir) : [],
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
        summary:
          'A link, valid for one minute, that downloads a backup made now, or (`file`) one of the daily backups kept',
        body: z.object({ file: z.string().optional() }).nullish(),
        response: envelopeOf(z.object({ url: z.string() })),
      },
    },
    async (request) => {
      const file = request.body?.file;
      if (file !== undefined) dailyFile(file);
      const ticket = await ctx.tokens.ticket(purposeOf(file), requireAuth(request), TICKET_SECONDS);
      await writeAudit(ctx.db, request, {
        module: 'system',
        operation: 'backup',
        customerId: null,
        ...(file ? { params: { file } } : {}),
      });
      return ok({ url: `${BACKUP}?${new URLSearchParams({ ...(file ? { file } : {}), ticket }).toString()}` });
    },
  );

  app.get(
    BACKUP,
    {
      schema: {
        tags,
        summary: 'Download a backup (.tar.gz): rows, files, project versions and workspaces',
        querystring: z.object({ ticket: z.string().min(1), file: z.string().optional() }),
      },
    },
    async (request, reply) => {
      // A ticket names the file it was given for: another file's name in the link does not pass.
      const { file } = request.query;
      const holder = await ctx.tokens.verifyTicket(purposeOf(file), request.query.ticket);
      if (!holder) throw new AppError('TOKEN_EXPIRED');
      // The holder must still be an enabled super administrator when the download starts.
      const [user] = await ctx.db
        .select({ roles: users.roles, enabled: users.enabled })
        .from(users)
        .where(eq(users.id, holder.userId));
      if (!user?.enabled || !hasPermission(user.roles, 'system.manage')) throw new AppError('NO_PERMISSION_PAGE');

      if (file !== undefined) {
        const { path: kept, size } = dailyFile(file);
        return reply
          .header('content-type', 'application/gzip')
          .header('content-length', size)
          .header('content-disposition', `attachment; filename="${file}"`)
          .header('cache-control', 'no-store')
          .send(createReadStream(kept));
      }
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
