import QRCode from 'qrcode';

/** One dark run of a QR row: its left column, row and length, in modules from the symbol's top-left corner. */
export interface QrRun {
  col: number;
  row: number;
  length: number;
}

/**
 * A QR code (error correction M) as the runs of dark modules of each row: drawn as one filled path of
 * rectangles, it stays sharp at any zoom and costs a few hundred operators.
 */
export function qrRuns(text: string): { size: number; runs: QrRun[] } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const runs: QrRun[] = [];
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      runs.push({ col: start, row, length: col - start });
    }
  }
  return { size: n, runs };
}
