import { deflateSync } from 'node:zlib';
import { degrees, drawImage, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';
import sharp from 'sharp';
import type { AppContext } from '../../platform/context.js';
import type { FileStorage } from '../../platform/storage/storage.js';
import { readCertImage } from './cert-images.js';

/**
 * Certificate images in PDFs. A JPG goes in as it is; a PNG is decoded by sharp and compressed by zlib once per
 * process (pdf-lib's own PNG path decodes and recompresses in JavaScript for every document, ~90 ms for a page-
 * sized background), then written into each document as an image with its alpha as a soft mask. Stored images
 * never change under their key (a new upload gets a new key), so the prepared form is kept for the next PDF.
 */

interface Prepared {
  kind: 'jpeg' | 'png';
  width: number;
  height: number;
  /** The PNG's size (a JPG's is read when embedded). */
  /** The JPG itself, or the PNG's RGB samples deflated. */
  data: Uint8Array;
  /** The PNG's alpha samples deflated; null when fully opaque. */
  alpha: Uint8Array | null;
}

const CACHED = 32;
const prepared = new WeakMap<FileStorage, Map<string, Promise<Prepared | null>>>();

async function prepare(ctx: Pick<AppContext, 'storage'>, key: string): Promise<Prepared | null> {
  const stored = await readCertImage(ctx, key);
  if (!stored) return null;
  try {
    // pdf-lib passes a JPG through as it is (and knows its size and colour space).
    // Copied: pdf-lib reads a JPG's header from the start of its ArrayBuffer, whatever the view's offset.
    if (stored.kind === 'jpeg')
      return { kind: 'jpeg', width: 0, height: 0, data: new Uint8Array(stored.bytes), alpha: null };
    const { data, info } = await sharp(stored.bytes)
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = info.width * info.height;
    const rgb = Buffer.alloc(pixels * 3);
    const alpha = Buffer.alloc(pixels);
    let opaque = true;
    for (let i = 0; i < pixels; i++) {
      rgb[i * 3] = data[i * 4]!;
      rgb[i * 3 + 1] = data[i * 4 + 1]!;
      rgb[i * 3 + 2] = data[i * 4 + 2]!;
      alpha[i] = data[i * 4 + 3]!;
      if (alpha[i] !== 255) opaque = false;
    }
    return {
      kind: 'png',
      width: info.width,
      height: info.height,
      data: deflateSync(rgb),
      alpha: opaque ? null : deflateSync(alpha),
    };
  } catch {
    return null;
  }
}

/** A stored image ready to embed; null when it is missing or unreadable. */
export function preparedImage(ctx: Pick<AppContext, 'storage'>, key: string): Promise<Prepared | null> {
  let cache = prepared.get(ctx.storage);
  if (!cache) prepared.set(ctx.storage, (cache = new Map()));
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key);
  } else {
    entry = prepare(ctx, key);
    // A missing image may be uploaded later under no other key: only found ones are kept.
    void entry.then((found) => {
      if (!found) cache.delete(key);
    });
  }
  cache.set(key, entry);
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!);
  return entry;
}

export interface EmbeddedImage {
  width: number;
  height: number;
  ref: PDFRef;
}

export async function embedPrepared(doc: PDFDocument, image: Prepared): Promise<EmbeddedImage> {
  if (image.kind === 'jpeg') {
    const jpg = await doc.embedJpg(image.data);
    return { width: jpg.width, height: jpg.height, ref: jpg.ref };
  }
  const { width, height } = image;
  const sample = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 8 };
  const mask = image.alpha
    ? doc.context.register(
        doc.context.stream(image.alpha, { ...sample, ColorSpace: 'DeviceGray', Filter: 'FlateDecode' }),
      )
    : null;
  const ref = doc.context.register(
    doc.context.stream(image.data, {
      ...sample,
      ColorSpace: 'DeviceRGB',
      Filter: 'FlateDecode',
      ...(mask ? { SMask: mask } : {}),
    }),
  );
  return { width, height, ref };
}

/** Draws an embedded image into a box whose bottom-left corner is (x, y), in PDF coordinates. */
export function placeImage(
  page: PDFPage,
  image: EmbeddedImage,
  box: { x: number; y: number; width: number; height: number },
) {
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(...drawImage(name, { ...box, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }));
}
