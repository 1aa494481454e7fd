import { CERT_PAGE, CERT_TEXT_ELEMENTS, type TCertDesign, type TCertElementStyle } from '@aiedu/contracts';
import {
  PDFDocument,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import type { AppContext } from '../../platform/context.js';
import { certificateFont, fontkitForPdfLib, type FontWeight } from './fonts.js';
import { embedPrepared, placeImage, preparedImage, type EmbeddedImage } from './render-images.js';
import { qrRuns } from './render-qr.js';
import { fillPlaceholders, formatCertDate, withLabel, wrapText } from './render-text.js';

/**
 * Draws certificates into a PDF: the background stretched to the page, the text parts, the seal and the QR code,
 * at the designer's coordinates (1 pt = 1 designer px; the designer's y grows downwards, PDF's upwards).
 */

export interface CertificateValues {
  holderName: string;
  awardFor: string;
  number: string;
  issueDate: string /* yyyy-MM-dd */;
  issuerName: string;
  verifyUrl: string;
}

export interface CertificatePage {
  design: TCertDesign;
  values: CertificateValues;
}

/** A line of text is 1.5 × its font size high; the designer's CSS uses the same line height. */
export const LINE_HEIGHT = 1.5;

export interface RenderOptions {
  /** Draw with the standard Helvetica instead of the embedded fonts (Latin text only; for comparison). */
  standardFonts?: boolean;
}

interface Fonts {
  get(weight: FontWeight): Promise<{ pdf: PDFFont; ascent: number; descent: number }>;
}

function fontsOf(ctx: AppContext, doc: PDFDocument, options: RenderOptions): Fonts {
  const embedded = new Map<FontWeight, Promise<{ pdf: PDFFont; ascent: number; descent: number }>>();
  return {
    get(weight) {
      let font = embedded.get(weight);
      if (!font) {
        font = options.standardFonts
          ? doc
              .embedFont(weight === 'bold' ? StandardFonts.HelveticaBold : StandardFonts.Helvetica)
              .then((pdf) => ({ pdf, ascent: 0.718, descent: 0.207 }))
          : (async () => {
              const loaded = certificateFont(ctx, weight);
              const pdf = await doc.embedFont(loaded.bytes, { subset: true });
              return { pdf, ascent: loaded.ascent, descent: loaded.descent };
            })();
        embedded.set(weight, font);
      }
      return font;
    },
  };
}

const colourOf = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
};

/** The text each text part shows for a holder. */
export function textsOf(
  design: TCertDesign,
  values: CertificateValues,
): Record<(typeof CERT_TEXT_ELEMENTS)[number], string> {
  const date = formatCertDate(values.issueDate, design.language);
  const { elements } = design;
  return {
    title: design.title,
    name: values.holderName,
    content: fillPlaceholders(design.content, {
      name: values.holderName,
      awardFor: values.awardFor,
      date,
      number: values.number,
      issuer: values.issuerName,
    }),
    number: withLabel(elements.number.label, values.number),
    date: withLabel(elements.date.label, date),
  };
}

async function drawText(page: PDFPage, fonts: Fonts, style: TCertElementStyle, text: string) {
  if (text.trim() === '') return;
  const font = await fonts.get(style.font);
  const size = style.fontSize;
  const lineHeight = size * LINE_HEIGHT;
  const lines = wrapText(text, style.width, (s) => font.pdf.widthOfTextAtSize(s, size));
  // As CSS places a line: the glyphs' ascent and descent centred in the line box, the baseline under the ascent.
  const baseline = (lineHeight - (font.ascent + font.descent) * size) / 2 + font.ascent * size;
  const color = colourOf(style.color);
  lines.forEach((line, i) => {
    if (line === '') return;
    const width = font.pdf.widthOfTextAtSize(line, size);
    const x =
      style.align === 'left'
        ? style.x
        : style.align === 'center'
          ? style.x + (style.width - width) / 2
          : style.x + style.width - width;
    const top = style.y + i * lineHeight + baseline;
    page.drawText(line, { x, y: page.getHeight() - top, size, font: font.pdf, color });
  });
}

/** Images embedded once per document, by storage key; a missing or unreadable image is skipped. */
function imagesOf(ctx: AppContext, doc: PDFDocument) {
  const embedded = new Map<string, Promise<EmbeddedImage | null>>();
  return (key: string | null): Promise<EmbeddedImage | null> => {
    if (!key) return Promise.resolve(null);
    let image = embedded.get(key);
    if (!image) {
      image = preparedImage(ctx, key)
        .then((prepared) => (prepared ? embedPrepared(doc, prepared) : null))
        .catch(() => null);
      embedded.set(key, image);
    }
    return image;
  };
}

async function drawPage(
  doc: PDFDocument,
  fonts: Fonts,
  image: (key: string | null) => Promise<EmbeddedImage | null>,
  { design, values }: CertificatePage,
) {
  const size = CERT_PAGE[design.layout];
  const page = doc.addPage([size.width, size.height]);
  const { elements } = design;
  const background = await image(design.backgroundKey);
  if (background) placeImage(page, background, { x: 0, y: 0, width: size.width, height: size.height });
  const seal = elements.seal.visible ? await image(design.sealKey) : null;
  if (seal) {
    const height = (elements.seal.width * seal.height) / seal.width;
    placeImage(page, seal, {
      x: elements.seal.x,
      y: size.height - elements.seal.y - height,
      width: elements.seal.width,
      height,
    });
  }
  const texts = textsOf(design, values);
  for (const part of CERT_TEXT_ELEMENTS) {
    if (elements[part].visible) await drawText(page, fonts, elements[part], texts[part]);
  }
  if (elements.qr.visible && values.verifyUrl) drawQr(page, elements.qr, values.verifyUrl);
}

/** The QR code on a white square with a quiet zone of two modules, its dark runs filled as one path. */
function drawQr(page: PDFPage, { x, y, width }: TCertElementStyle, text: string) {
  const QUIET = 2;
  const { size, runs } = qrRuns(text);
  const unit = width / (size + QUIET * 2);
  const top = page.getHeight() - y;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  const ops: PDFOperator[] = [
    pushGraphicsState(),
    setFillingRgbColor(1, 1, 1),
    rectangle(x, top - width, width, width),
    fill(),
  ];
  ops.push(setFillingRgbColor(0, 0, 0));
  for (const run of runs) {
    const left = x + (run.col + QUIET) * unit;
    const bottom = top - (run.row + QUIET + 1) * unit;
    ops.push(rectangle(r(left), r(bottom), r(run.length * unit), r(unit)));
  }
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
}

/** A UTC midnight of a yyyy-MM-dd date (the PDF's creation date: the same input makes the same bytes). */
const dateOf = (isoDate: string) => {
  const at = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? new Date(0) : at;
};

/** The certificates as one PDF, one page each; fonts and images embedded once. */
export async function renderPages(
  ctx: AppContext,
  pages: CertificatePage[],
  options: RenderOptions = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkitForPdfLib as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const first = pages[0];
  const at = dateOf(first?.values.issueDate ?? '');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  if (first)
    doc.setTitle(pages.length === 1 ? `${first.design.title} ${first.values.number}`.trim() : first.design.title);
  const fonts = fontsOf(ctx, doc, options);
  const image = imagesOf(ctx, doc);
  for (const page of pages) await drawPage(doc, fonts, image, page);
  return doc.save();
}
