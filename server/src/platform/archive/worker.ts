import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ErrorName } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import pLimit from 'p-limit';
import { AppError } from '../errors.js';
import type { RefusalData, RefusalReason } from './refusal.js';
import type { WorkerAnswer } from './serve.js';

/** How much one parse may take: its worker's heap, its time, and the request it serves. */
export interface WorkerLimits {
  /** the worker's V8 heap (old generation), in MiB; reaching it ends the worker */
  heapMb: number;
  timeoutMs: number;
  /** aborted when the request is over (answered, or its client gone): the worker is ended */
  signal?: AbortSignal;
}

/**
 * Parses running at once, one per core; the rest wait their turn. The memory they can take together is bounded
 * by this times their heaps, and requests that are not parsing keep the main thread to themselves.
 */
export const PARSES_AT_ONCE = os.availableParallelism();
const parsing = pLimit(PARSES_AT_ONCE);

/** Parses running and parses waiting for a turn. */
export function parseQueue() {
  return { running: parsing.activeCount, waiting: parsing.pendingCount };
}

/** The catalogue's error for each refusal: the archive's size and shape are the user's to fix, damage is not. */
const REFUSAL_ERRORS: Record<RefusalReason, ErrorName> = {
  entries: 'ARCHIVE_TOO_MANY_FILES',
  bytes: 'FILE_TOO_LARGE',
  ratio: 'FILE_TOO_LARGE',
  rows: 'FILE_TOO_LARGE',
  memory: 'FILE_TOO_LARGE',
  time: 'FILE_TOO_LARGE',
  declared: 'BAD_REQUEST',
  name: 'BAD_REQUEST',
  link: 'BAD_REQUEST',
  encrypted: 'BAD_REQUEST',
  empty: 'BAD_REQUEST',
  unreadable: 'BAD_REQUEST',
};

export function refusalError(refusal: RefusalData): AppError {
  return new AppError(REFUSAL_ERRORS[refusal.reason], refusal);
}

/**
 * The worker module `name` beside the module at `base` (its `import.meta.url`), with that module's extension: the
 * build's JavaScript in production, the TypeScript source under tsx and in tests.
 */
export function workerModule(base: string, name: string): URL {
  return new URL(`./${name}${path.extname(fileURLToPath(base))}`, base);
}

function startWorker(module: URL, input: unknown, heapMb: number): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: Math.max(4, Math.floor(heapMb / 8)),
  };
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData: input, resourceLimits });
  // Source is run by tsx (development, tests), whose loader a worker does not inherit: the worker registers it.
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData: input, resourceLimits });
}

/**
 * Runs a parse worker (a module calling `serveInWorker`) on `input` and answers its plain result. The main thread
 * only waits: the worker inflates and parses, with its own heap capped, so no upload can hold the event loop or
 * grow the process past the cap. The worker is ended when it answers, reaches its heap or its time (`FILE_TOO_LARGE`),
 * or the signal aborts; a refusal becomes the catalogue's error (`refusalError`).
 */
export function runInWorker<T>(module: URL, input: unknown, limits: WorkerLimits): Promise<T> {
  return parsing(async () => {
    limits.signal?.throwIfAborted();
    const worker = startWorker(module, input, limits.heapMb);
    let onAbort = () => {};
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<T>((resolve, reject) => {
        timer = setTimeout(() => reject(refusalError({ reason: 'time', max: limits.timeoutMs })), limits.timeoutMs);
        onAbort = () => reject(limits.signal!.reason);
        limits.signal?.addEventListener('abort', onAbort, { once: true });
        worker.once('message', (answer: WorkerAnswer<T>) =>
          answer.ok ? resolve(answer.value) : reject(refusalError(answer.refusal)),
        );
        worker.once('error', (error: Error & { code?: string }) =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refusalError({ reason: 'memory', max: limits.heapMb }) : error,
          ),
        );
        worker.once('exit', (code) => reject(new Error(`parse worker ended (${code}) without an answer`)));
      });
    } finally {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      // Its turn ends when the worker has: the next parse never runs beside one still being torn down.
      await worker.terminate();
    }
  });
}

/**
 * Runs `parse` with a signal that aborts if the request's client goes away first, so a parse nobody waits for is
 * ended rather than finished.
 */
export async function whileConnected<T>(request: FastifyRequest, parse: (signal: AbortSignal) => Promise<T>) {
  const gone = new AbortController();
  const abort = () => gone.abort();
  const socket = request.raw.socket;
  socket.once('close', abort);
  try {
    return await parse(gone.signal);
  } finally {
    socket.off('close', abort);
  }
}
