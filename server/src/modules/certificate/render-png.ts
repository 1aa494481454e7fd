import { runInWorker, workerModule } from '../../platform/archive/worker.js';
import type { PngJob } from './png-worker.js';

const PNG_WORKER = workerModule(import.meta.url, 'png-worker');

/** A drawing's worker: its heap (the canvas's pixels are native memory, outside it) and its time. */
const LIMITS = { heapMb: 256, timeoutMs: 30_000 };

/**
 * A certificate's first page as a PNG `width` pixels wide, drawn by pdf.js from the PDF itself (so the picture is
 * the document, glyph for glyph) on a native canvas: the embedded CJK subsets drawn as outlines, nothing from the
 * system's fonts, no scripts of the document run. Each drawing runs in a worker thread of its own (`png-worker.ts`),
 * taking a turn among the process's workers (one per core), so the event loop keeps serving meanwhile.
 */
export async function pdfToPng(pdf: Uint8Array, width: number): Promise<Buffer> {
  const job: PngJob = { pdf, width };
  const png = await runInWorker<Uint8Array>(PNG_WORKER, job, LIMITS);
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
