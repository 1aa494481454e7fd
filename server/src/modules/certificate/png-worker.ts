import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { serveInWorker } from '../../platform/archive/serve.js';

/*
 * Draws a certificate's PDF as a PNG in a worker thread. pdf.js's legacy build (the one that runs on Node 20) brings
 * core-js polyfills that replace `JSON.stringify`, `JSON.parse` and `Array.prototype.push` of the realm that loads
 * it with slower ones; loaded here, they stay in this worker and never reach the server's own requests.
 */

/** What pdf.js's `render` takes: its types name the DOM's canvas, which a native canvas stands in for on the server. */
type RenderParameters = Parameters<Awaited<ReturnType<typeof page>>['render']>[0];
const page = (doc: Awaited<ReturnType<typeof getDocument>['promise']>) => doc.getPage(1);

export interface PngJob {
  pdf: Uint8Array;
  width: number;
}

async function draw({ pdf, width }: PngJob): Promise<Uint8Array> {
  const task = getDocument({
    data: pdf,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    enableXfa: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const first = await page(doc);
    const scale = width / first.getViewport({ scale: 1 }).width;
    const viewport = first.getViewport({ scale });
    const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await first.render({ canvas, canvasContext: context, viewport } as unknown as RenderParameters).promise;
    return await canvas.encode('png');
  } finally {
    await doc.destroy();
  }
}

serveInWorker(draw);
