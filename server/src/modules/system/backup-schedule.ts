import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { scheduledBackups } from '../../platform/db/schema/index.js';
import { writeWithinFloor } from '../../platform/disk-space.js';
import { verifyBackup } from './backup-restore.js';
import { writeBackup, type BackupSource } from './backup.service.js';

/** The names the daily backups are written under; only these are ever pruned, listed or downloaded. */
export const DAILY_NAME = /^aiedu-backup-\d{8}-\d{4}\.tar\.gz$/;

const pad = (n: number) => String(n).padStart(2, '0');
/** The server's local date, as the schedule counts days. */
const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const fileName = (date: Date) =>
  `aiedu-backup-${localDay(date).replaceAll('-', '')}-${pad(date.getHours())}${pad(date.getMinutes())}.tar.gz`;

export type ScheduledBackupRow = typeof scheduledBackups.$inferSelect;

/**
 * A backup every day at `BACKUP_AT` (the server's local time) into `BACKUP_DIR`, keeping the newest `BACKUP_KEEP`;
 * one on the database's disk fails, and is removed, once that disk is below `MIN_FREE_DISK_MB`.
 * Each process keeps a timer; the first whose time comes claims the day's row and writes the backup, so processes
 * sharing a database write one between them. A server that was off at that time (a laptop asleep at 2 am) writes the
 * day's backup when it next starts.
 */
export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: { dir: string; at: string; keep: number },
    private readonly source: Omit<BackupSource, 'db' | 'storage'>,
    private readonly holder: string,
    private readonly log: { info(o: object, m: string): void; error(o: object, m: string): void },
  ) {}

  /** Today's time of the backup, in the server's local time. */
  private slot(day: Date): Date {
    const [hours, minutes] = this.settings.at.split(':').map(Number);
    const slot = new Date(day);
    slot.setHours(hours!, minutes!, 0, 0);
    return slot;
  }

  /** Runs a backup that is due now, then waits for the next day's time. */
  start(): void {
    if (this.closed) return;
    const now = this.ctx.now();
    const today = this.slot(now);
    const tomorrow = new Date(now);
    tomorrow.setDate(now.getDate() + 1);
    const next = now >= today ? this.slot(tomorrow) : today;
    this.running = this.running.then(() => this.runDue()).catch(() => undefined);
    this.timer = setTimeout(() => this.start(), Math.max(1000, next.getTime() - now.getTime()));
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Writes today's backup when its time has come and no process has taken the day: 'written', 'failed' (recorded on
   * the day's row), 'taken' by a process before, or 'not-due' yet.
   */
  async runDue(): Promise<'written' | 'failed' | 'taken' | 'not-due'> {
    const now = this.ctx.now();
    if (now < this.slot(now)) return 'not-due';
    const day = localDay(now);
    const claimed = await this.ctx.db
      .insert(scheduledBackups)
      .values({ day, holder: this.holder, startedAt: now })
      .onConflictDoNothing()
      .returning({ day: scheduledBackups.day });
    if (claimed.length === 0) return 'taken';

    const file = path.join(this.settings.dir, fileName(now));
    const partial = `${file}.partial`;
    try {
      await mkdir(this.settings.dir, { recursive: true });
      // One left by a process that died while writing would keep its own mode.
      await rm(partial, { force: true });
      // On the database's disk, the backup stops at the floor of free space rather than fill it.
      const { dataDir, minFreeDiskMb: floorMb } = this.ctx.config;
      const out = writeWithinFloor(partial, { dataDir, floorMb, flags: 'w' });
      await writeBackup({ ...this.source, db: this.ctx.db, storage: this.ctx.storage }, out.stream);
      await out.done;
      // Read back before it counts, as `npm run backup:verify` does: an archive that does not read whole (a disk or
      // a network share that lost part of it) must neither be kept nor push a good one out.
      const checked = await verifyBackup(createReadStream(partial)).catch((error: Error) => {
        throw new Error(`The backup written does not read back whole: ${error.message}`);
      });
      await rename(partial, file);
      const { size } = await stat(file);
      await this.ctx.db
        .update(scheduledBackups)
        .set({ finishedAt: this.ctx.now(), file, bytes: size })
        .where(eq(scheduledBackups.day, day));
      await this.prune();
      this.log.info({ file, bytes: size, files: checked.files }, 'daily backup written and read back');
      return 'written';
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined);
      const message = (error as Error).message;
      await this.ctx.db
        .update(scheduledBackups)
        .set({ finishedAt: this.ctx.now(), error: message })
        .where(eq(scheduledBackups.day, day));
      this.log.error({ err: error, dir: this.settings.dir }, 'daily backup failed');
      return 'failed';
    }
  }

  /** Deletes the daily backups beyond the newest `keep` (names sort by time). */
  private async prune() {
    const names = (await readdir(this.settings.dir)).filter((name) => DAILY_NAME.test(name)).sort();
    for (const name of names.slice(0, Math.max(0, names.length - this.settings.keep))) {
      await rm(path.join(this.settings.dir, name), { force: true });
    }
  }
}

/** The daily backups in `dir`, newest first, with their sizes. */
export async function listDailyBackups(dir: string): Promise<{ name: string; bytes: number; modifiedAt: string }[]> {
  const names = (await readdir(dir).catch(() => []))
    .filter((name) => DAILY_NAME.test(name))
    .sort()
    .reverse();
  const files = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info) files.push({ name, bytes: info.size, modifiedAt: info.mtime.toISOString() });
  }
  return files;
}

/** The latest day's backup, whichever process wrote it. */
export async function lastScheduledBackup(ctx: AppContext): Promise<ScheduledBackupRow | null> {
  const [row] = await ctx.db.select().from(scheduledBackups).orderBy(desc(scheduledBackups.day)).limit(1);
  return row ?? null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The daily backups, when `BACKUP_DIR` is set. */
    backups?: BackupSchedule;
  }
}
