import { readFileSync } from 'node:fs';
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** OWASP's argon2id recommendation: 19 MiB of memory, 2 iterations, 1 lane. */
/** `Algorithm.Argon2id` is an ambient const enum, which isolated modules cannot read; its value is 2. */
const ARGON2ID = 2;

const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Node's worker pool, which runs the hashes and every file read and write (4 threads unless told otherwise). */
const WORKER_POOL = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/**
 * Hashes in flight at once: one per core, and never more than the worker pool. A class signing in together queues
 * here rather than in the pool, so on a machine with fewer cores than pool threads, file reads and writes (uploads,
 * pages) still find a free thread during a sign-in storm; more hashes than cores would not finish sooner, they
 * would only share the cores and the memory cache.
 */
export const HASHES_AT_ONCE = Math.min(os.availableParallelism(), WORKER_POOL);
const hashing = pLimit(HASHES_AT_ONCE);

/** Hashes running and hashes waiting for a turn. */
export function hashQueue() {
  return { running: hashing.activeCount, waiting: hashing.pendingCount };
}

export function hashPassword(plain: string): Promise<string> {
  return hashing(() => hash(plain, ARGON2_OPTIONS));
}

export function verifyPassword(hashed: string, plain: string): Promise<boolean> {
  return hashing(async () => {
    try {
      return await verify(hashed, plain);
    } catch {
      return false;
    }
  });
}

/** Linux's transparent huge pages setting, e.g. `always [madvise] never`: the bracketed word is in force. */
const HUGE_PAGES_SETTING = '/sys/kernel/mm/transparent_hugepage/enabled';

/** The transparent huge pages setting in force (`always`, `madvise`, `never`), or nothing where it cannot be read. */
export function hugePagesSetting(read = () => readFileSync(HUGE_PAGES_SETTING, 'utf8')): string | undefined {
  try {
    return /\[(\w+)\]/.exec(read())?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The hash asks Linux for huge pages for its 19 MiB (madvise). With transparent huge pages set to `never`, each hash
 * faults in about 4,900 small pages instead of about ten huge ones, and its random reads miss the address cache:
 * it takes five to six times as long (measured: 65–74 ms against 12 ms a verify), which a class signing in together
 * feels at once. Returns the line to log at start, or nothing when the setting is fine or cannot be read (not Linux).
 */
export function hugePagesWarning(read?: () => string): string | undefined {
  if (hugePagesSetting(read) !== 'never') return undefined;
  return `transparent huge pages are off (${HUGE_PAGES_SETTING} is "never"): every password check takes five to six times as long; set it to "madvise"`;
}
