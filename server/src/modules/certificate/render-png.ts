import { createCanvas } from '@napi-rs/canvas';
import pLimit from 'p-limit';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What pdf.js's `render` takes: its types name the DOM's canvas, which a native canvas stands in for on the server. */
type RenderParameters = Parameters<Awaited<ReturnType<typeof page>>['render']>[0];
const page = (doc: Awaited<ReturnType<typeof getDocument>['promise']>) => doc.getPage(1);

/** Drawing takes a core for a few hundred milliseconds: at most two at once per process, the rest wait their turn. */
const drawing = pLimit(2);

/**
 * A certificate's first page as a PNG `width` pixels wide, drawn by pdf.js from the PDF itself (so the picture is
 * the document, glyph for glyph) on a native canvas: the embedded CJK subsets drawn as outlines, nothing from the
 * system's fonts, no scripts of the document run.
 */
export function pdfToPng(pdf: Uint8Array, width: number): Promise<Buffer> {
  return drawing(() => draw(pdf, width));
}

async function draw(pdf: Uint8Array, width: number): Promise<Buffer> {
  const task = getDocument({
    data: new Uint8Array(pdf),
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
