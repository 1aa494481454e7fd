import { parentPort, workerData } from 'node:worker_threads';
import { ArchiveRefusal, type RefusalData } from './refusal.js';

export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; refusal: RefusalData };

/**
 * The body of a parse worker: runs `read` on the input `runInWorker` gave and posts back its plain result, or why
 * the input was refused. Anything else that goes wrong while reading (a parser's error on damaged XML, a zlib
 * error) means the file cannot be read.
 */
export function serveInWorker<I, O>(read: (input: I) => Promise<O>) {
  void read(workerData as I)
    .then(
      (value): WorkerAnswer<O> => ({ ok: true, value }),
      (error: unknown): WorkerAnswer<O> => ({
        ok: false,
        refusal: error instanceof ArchiveRefusal ? error.toData() : { reason: 'unreadable' },
      }),
    )
    .then((answer) => parentPort!.postMessage(answer));
}
