import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { renderCertificatePdf, renderMergedPdf, verifyUrlOf } from './render.js';
import { renderPages } from './render-page.js';
import { pdfToPng } from './render-png.js';
import { renderContext, sampleDesign, sampleImages, sampleValues } from './render-samples.js';
import { formatCertDate, wrapText } from './render-text.js';

/**
 * The certificate PDF drawn by poppler (`pdftoppm`) and compared with a reference image: every glyph of a
 * Chinese (simplified and traditional), Japanese and Latin name must show, which text extraction alone cannot tell.
 * `UPDATE_REFERENCE=1` writes the reference anew.
 */

const run = promisify(execFile);
const REFERENCE = path.join(import.meta.dirname, '__fixtures__', 'certificate-reference.png');
let ctx: AppContext;
let dir: string;

beforeAll(async () => {
  ctx = renderContext(await sampleImages());
  dir = mkdtempSync(path.join(os.tmpdir(), 'cert-render-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first page as grey pixels at `dpi`, optionally cropped to a box in points. */
async function raster(pdf: Uint8Array, dpi: number, box?: { x: number; y: number; w: number; h: number }) {
  const file = path.join(dir, `c${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const crop = box
    ? ['-x', `${Math.round((box.x * dpi) / 72)}`, '-y', `${Math.round((box.y * dpi) / 72)}`].concat([
        '-W',
        `${Math.round((box.w * dpi) / 72)}`,
        '-H',
        `${Math.round((box.h * dpi) / 72)}`,
      ])
    : [];
  await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', ...crop, file, file]);
  const png = readFileSync(`${file}.png`);
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { png, data, width: info.width, height: info.height };
}

/** A design showing only the holder's name, left-aligned from (20, 100) at 40 pt: a full-width character per 40 pt. */
function nameOnly() {
  const base = sampleDesign({ backgroundKey: null, sealKey: null });
  return {
    ...base,
    elements: {
      ...Object.fromEntries(Object.entries(base.elements).map(([k, v]) => [k, { ...v, visible: false }])),
      name: { ...base.elements.name, x: 20, y: 100, width: 610, fontSize: 40, align: 'left' as const },
    } as typeof base.elements,
  };
}

describe('certificate PDF', () => {
  it('draws every glyph like the reference image', async () => {
    const pdf = await renderCertificatePdf(ctx, sampleDesign(), sampleValues());
    const page = await raster(pdf, 36);
    if (process.env.UPDATE_REFERENCE === '1') writeFileSync(REFERENCE, page.png);
    expect(existsSync(REFERENCE), 'the reference image (UPDATE_REFERENCE=1 writes it)').toBe(true);
    const reference = await sharp(REFERENCE).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([page.width, page.height]).toEqual([reference.info.width, reference.info.height]);
    let total = 0;
    let far = 0;
    for (let i = 0; i < page.data.length; i++) {
      const d = Math.abs(page.data[i]! - reference.data[i]!);
      total += d;
      if (d > 48) far++;
    }
    // Anti-aliasing may differ by a shade between poppler versions; a missing glyph changes hundreds of pixels.
    expect(total / page.data.length).toBeLessThan(1.5);
    expect(far / page.data.length).toBeLessThan(0.002);
  });

  it('draws every character of a CJK and a Japanese name (no blank glyphs)', async () => {
    const name = '張偉王芳繁體简体さくら髙橋';
    const design = nameOnly();
    const pdf = await renderCertificatePdf(ctx, design, sampleValues({ holderName: name }));
    const line = await raster(pdf, 72, { x: 20, y: 100, w: 40 * [...name].length, h: 60 });
    // Each full-width character has its own 40 pt cell: every cell holds ink.
    [...name].forEach((char, i) => {
      let ink = 0;
      for (let y = 0; y < line.height; y++) {
        for (let x = i * 40 + 2; x < (i + 1) * 40 - 2; x++) if (line.data[y * line.width + x]! < 128) ink++;
      }
      expect(ink, `ink of ${char}`).toBeGreaterThan(40);
    });
  });

  it('draws PNGs without replacing the server’s own JSON with pdf.js’s polyfills', async () => {
    await pdfToPng(await renderCertificatePdf(ctx, nameOnly(), sampleValues()), 200);
    // core-js makes its replacements look native to `toString`; the stack of a callback shows who calls it.
    const callers: string[] = [];
    const seen = function (this: unknown, _key: string, value: unknown) {
      callers.push(new Error().stack ?? '');
      return value;
    };
    JSON.stringify({ a: 1 }, seen);
    JSON.parse('{"a":1}', seen);
    expect(callers).toHaveLength(4);
    for (const stack of callers) expect(stack).not.toMatch(/pdfjs-dist|png-worker/);
  });

  it('draws the PNG picture as poppler draws the PDF, every CJK glyph included', async () => {
    const pdf = await renderCertificatePdf(ctx, sampleDesign(), sampleValues());
    // 650 pixels across a portrait page of 650 pt: 72 dpi, as poppler draws it at `-r 72`.
    const picture = await sharp(await pdfToPng(pdf, 650))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const page = await raster(pdf, 72);
    expect([picture.info.width, picture.info.height]).toEqual([page.width, page.height]);
    let total = 0;
    let far = 0;
    for (let i = 0; i < page.data.length; i++) {
      const d = Math.abs(page.data[i]! - picture.data[i]!);
      total += d;
      if (d > 96) far++;
    }
    // Two renderers anti-alias edges their own way (a mean of about 5 shades here); the background, the seal or the
    // QR code missing would move the mean by tens.
    expect(total / page.data.length).toBeLessThan(8);
    expect(far / page.data.length).toBeLessThan(0.04);

    const name = '張偉王芳繁體简体さくら髙橋';
    const design = nameOnly();
    const line = await sharp(
      await pdfToPng(await renderCertificatePdf(ctx, design, sampleValues({ holderName: name })), 650),
    )
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Each full-width character has its own 40-pixel cell from (20, 100): every cell holds ink.
    [...name].forEach((char, i) => {
      let ink = 0;
      for (let y = 100; y < 160; y++) {
        for (let x = 20 + i * 40 + 2; x < 20 + (i + 1) * 40 - 2; x++)
          if (line.data[y * line.info.width + x]! < 128) ink++;
      }
      expect(ink, `ink of ${char}`).toBeGreaterThan(40);
    });
  });

  it('embeds a subset of the fonts and gives the same bytes for the same input', async () => {
    const one = await renderCertificatePdf(ctx, sampleDesign(), sampleValues());
    const again = await renderCertificatePdf(ctx, sampleDesign(), sampleValues());
    expect(Buffer.from(one).equals(Buffer.from(again))).toBe(true);
    // The font files are 10 MB each.
    expect(one.length).toBeLessThan(200_000);
    expect(Buffer.from(one).subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(one, { updateMetadata: false });
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });

  it('merges a class of 40 into one PDF of 40 pages, far smaller than 40 PDFs', async () => {
    const values = Array.from({ length: 40 }, (_, i) =>
      sampleValues({
        holderName: `学生${i + 1} Student ${i + 1}`,
        number: `AI2026112800${String(i + 1).padStart(2, '0')}`,
      }),
    );
    const merged = await renderMergedPdf(
      ctx,
      values.map((v) => ({ design: sampleDesign(), values: v })),
    );
    expect((await PDFDocument.load(merged)).getPageCount()).toBe(40);
    const single = await renderCertificatePdf(ctx, sampleDesign(), values[0]!);
    expect(merged.length).toBeLessThan((single.length * 40) / 4);
  });

  it('draws a QR code whose modules are those of the verification address', async () => {
    const values = sampleValues();
    const design = sampleDesign();
    const pdf = await renderCertificatePdf(ctx, design, values);
    const { x, y, width } = design.elements.qr;
    const dpi = 288;
    const qr = await raster(pdf, dpi, { x, y, w: width, h: width });
    const { modules } = QRCode.create(values.verifyUrl, { errorCorrectionLevel: 'M' });
    const unit = qr.width / (modules.size + 4);
    let wrong = 0;
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        const px = Math.floor((col + 2.5) * unit);
        const py = Math.floor((row + 2.5) * unit);
        const dark = qr.data[py * qr.width + px]! < 128;
        if (dark !== Boolean(modules.get(row, col))) wrong++;
      }
    }
    expect(wrong).toBe(0);
  });

  it('skips a missing image and draws the rest', async () => {
    const pdf = await renderPages(ctx, [
      {
        design: sampleDesign({ backgroundKey: 'certificates/none/missing.png', sealKey: '../escape.png' }),
        values: sampleValues(),
      },
    ]);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it('draws a JPG background as it is', async () => {
    const jpg = await sharp({ create: { width: 65, height: 93, channels: 3, background: '#3060c0' } })
      .jpeg()
      .toBuffer();
    const withJpg = renderContext({ 'certificates/sample/bg.jpg': jpg });
    const design = sampleDesign({ backgroundKey: 'certificates/sample/bg.jpg', sealKey: null });
    const corner = await raster(await renderCertificatePdf(withJpg, design, sampleValues()), 36, {
      x: 0,
      y: 0,
      w: 20,
      h: 20,
    });
    // #3060c0 in grey is about 96: a blank page would be white.
    expect(Math.abs(corner.data[corner.width * 5 + 5]! - 96)).toBeLessThan(16);
  });

  it('points the QR code at the public verification page', () => {
    expect(verifyUrlOf(ctx, 'AB20261128 0001')).toBe(
      'https://edu.example.org/pjedu/certificate-search?number=AB20261128%200001',
    );
  });
});

describe('certificate texts', () => {
  const width = (s: string) => [...s].length;
  it('writes the date in the design language', () => {
    expect(formatCertDate('2026-11-28', 'en')).toBe('November 28, 2026');
    expect(formatCertDate('2026-01-05', 'zh_CHS')).toBe('2026年1月5日');
    expect(formatCertDate('2026-11-28', 'zh_CHT')).toBe('2026年11月28日');
    expect(formatCertDate('2026-11-28', 'ja')).toBe('2026年11月28日');
  });
  it('wraps CJK between any two characters and Latin between words', () => {
    expect(wrapText('人工智能编程大赛一等奖', 4, width)).toEqual(['人工智能', '编程大赛', '一等奖']);
    expect(wrapText('the quick brown fox', 10, width)).toEqual(['the quick', 'brown fox']);
    // A closing mark stays with the character before it.
    expect(wrapText('获得一等奖。恭喜', 5, width)).toEqual(['获得一等', '奖。恭喜']);
    expect(wrapText('abcdefghij', 4, width)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('a\nb', 10, width)).toEqual(['a', 'b']);
  });
});
