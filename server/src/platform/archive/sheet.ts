import type { SheetFormat, SheetRow } from './sheet-reader.js';
import { runInWorker, workerModule, type WorkerLimits } from './worker.js';
import type { ZipLimits } from './zip.js';

export type { SheetFormat, SheetRow } from './sheet-reader.js';

export interface SheetLimits extends WorkerLimits {
  /** rows the sheet may have, header included */
  maxRows: number;
  /** what an xlsx file (a zip) may hold */
  zip: ZipLimits;
}

const SHEET_WORKER = workerModule(import.meta.url, 'sheet-worker');

/**
 * The rows of an uploaded spreadsheet's first sheet (xlsx or CSV), read in a worker under `limits`. Refusals are the
 * catalogue's errors: `ARCHIVE_TOO_MANY_FILES`, `FILE_TOO_LARGE` (sizes, ratio, rows, memory, time) and
 * `BAD_REQUEST` (damaged, lying or unsafe archives), with `{ reason, max }` as data.
 */
export function readSheetRows(bytes: Buffer, format: SheetFormat, limits: SheetLimits): Promise<SheetRow[]> {
  const { maxRows, zip, ...worker } = limits;
  return runInWorker(SHEET_WORKER, { bytes, format, maxRows, zip }, worker);
}
