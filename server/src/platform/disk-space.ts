import { createWriteStream, statSync } from 'node:fs';
import { lstat, readdir, statfs } from 'node:fs/promises';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

export type FloorState = 'off' | 'ok' | 'near' | 'low';

/**
 * Free space against the `MIN_FREE_DISK_MB` floor: `low` below it (work that fills the disk is refused), `near`
 * within twice it (runtimes' writes are watched, operators warned), `off` when no floor is kept.
 */
export function floorState(freeBytes: number, floorMb: number): FloorState {
  if (floorMb <= 0) return 'off';
  const floorBytes = floorMb * MB;
  return freeBytes < floorBytes ? 'low' : freeBytes < 2 * floorBytes ? 'near' : 'ok';
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
  if (floorState(free - incomingBytes, floorMb) === 'low') throw diskFull(free);
}

/**
 * The disk space a folder tree takes (its files' allocated blocks, as `du` counts them, so a sparse file counts what
 * it holds). Entries that go while it walks are skipped; symbolic links are not followed.
 */
export async function diskUsage(root: string): Promise<number> {
  let total = 0;
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) total += ((await lstat(full).catch(() => null))?.blocks ?? 0) * 512;
    }
  };
  await walk(root);
  return total;
}

/** Whether two folders (or their nearest existing parents) are on one disk. */
export function sameDisk(a: string, b: string): boolean {
  const device = (dir: string): number | null => {
    for (let at = path.resolve(dir); ; at = path.dirname(at)) {
      try {
        return statSync(at).dev;
      } catch {
        if (at === path.dirname(at)) return null;
      }
    }
  };
  return device(a) === device(b);
}

/** How often a stream written to the disk looks at its free space. */
const WATCH_EVERY_BYTES = 32 * MB;

/**
 * Passes a stream on to a file on the disk of `dir`, and fails it (and so its writer) once that disk is below
 * `floorMb`, at the start and every 32 MiB after: a long write such as a backup stops before the database beside it
 * runs out of room. `freeBytes` is the measure (statfs by default).
 */
export function watchDiskFloor(
  dir: string,
  floorMb: number,
  freeBytes: (dir: string) => Promise<number> = freeDiskBytes,
): Transform {
  let unchecked = WATCH_EVERY_BYTES;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      unchecked += chunk.length;
      if (floorMb <= 0 || unchecked < WATCH_EVERY_BYTES) return callback(null, chunk);
      unchecked = 0;
      freeBytes(dir).then(
        (free) =>
          floorState(free, floorMb) === 'low'
            ? callback(
                new Error(
                  `The disk of ${dir} fell below MIN_FREE_DISK_MB (${Math.floor(free / MB)} MB free, ${floorMb} MB kept): the write stopped so the database keeps its room`,
                ),
              )
            : callback(null, chunk),
        (error: Error) => callback(error),
      );
    },
  });
}

/**
 * A new file (mode 0600) written through `watchDiskFloor` when it is on the disk of `dataDir` (the database's): write
 * to `stream`, then wait for `done`, which fails if the disk fell below `floorMb` on the way.
 */
export function writeWithinFloor(
  file: string,
  options: { dataDir: string; floorMb: number; flags: 'w' | 'wx' },
): { stream: Writable; done: Promise<void> } {
  const dir = path.dirname(file);
  const stream = watchDiskFloor(dir, sameDisk(dir, options.dataDir) ? options.floorMb : 0);
  const done = pipeline(stream, createWriteStream(file, { flags: options.flags, mode: 0o600 }));
  done.catch(() => undefined);
  return { stream, done };
}
