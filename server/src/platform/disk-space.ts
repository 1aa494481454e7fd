import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from './errors.js';

const MB = 2 ** 20;

/** The disk of `dir` (or of its nearest existing parent): bytes free for unprivileged users, and its size. */
export async function diskSpace(dir: string): Promise<{ freeBytes: number; totalBytes: number }> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      const stats = await statfs(at);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || at === path.dirname(at)) throw error;
    }
  }
}

/** Free bytes for unprivileged users on the disk of `dir` (or of its nearest existing parent). */
export async function freeDiskBytes(dir: string): Promise<number> {
  return (await diskSpace(dir)).freeBytes;
}

/** The refusal of work that would fill the server's disk: `NO_SPACE` with `data: { disk: "server", freeMb }`. */
export function diskFull(freeBytes: number): AppError {
  return new AppError('NO_SPACE', { disk: 'server', freeMb: Math.floor(Math.max(0, freeBytes) / MB) });
}

/**
 * Refuses, before a byte is written, work that would leave less than `MIN_FREE_DISK_MB` free on the disk of `dir`
 * once `incomingBytes` more are there: the database shares that disk, and a full disk stops it. A floor of 0 checks
 * nothing.
 */
export async function assertDiskRoom(dir: string, floorMb: number, incomingBytes = 0): Promise<void> {
  if (floorMb <= 0) return;
  const free = await freeDiskBytes(dir);
  if (free - incomingBytes < floorMb * MB) throw diskFull(free);
}
