import { decode as decodeBmp } from 'bmp-ts';
import sharp, { type Sharp } from 'sharp';
import { AppError } from './errors.js';

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'bmp';

/** The most pixels an uploaded image may have, whatever its format. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** The image kind by its first bytes (the file name and the declared type are not trusted). */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'gif';
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp';
  return null;
}

const unreadable = () => new AppError('BAD_REQUEST', { reason: 'unreadable image' });

/** The info-header sizes the BMP decoder reads (BITMAPINFOHEADER and its V2 to V5 successors). */
const BMP_INFO_HEADERS = new Set([40, 52, 56, 108, 124]);
const BMP_BITS = new Set([1, 4, 8, 16, 24, 32]);
const BI_RLE8 = 1;
const BI_RLE4 = 2;

/**
 * Checks a BMP's header before it is decoded: the decoder sets aside four bytes for every pixel the header claims,
 * and a run-length-encoded file of a few hundred bytes can claim billions. Refused like any unreadable image: more
 * pixels than JPEG and PNG may have, or uncompressed rows that the file is too short to hold.
 */
function assertBmpFits(bytes: Buffer) {
  if (bytes.length < 34 || !BMP_INFO_HEADERS.has(bytes.readUInt32LE(14))) throw unreadable();
  const offset = bytes.readUInt32LE(10);
  // Read as the decoder reads them: the width unsigned, the height signed (negative for top-down rows).
  const width = bytes.readUInt32LE(18);
  const height = Math.abs(bytes.readInt32LE(22));
  const bits = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  if (width === 0 || height === 0 || !BMP_BITS.has(bits) || width * height > MAX_IMAGE_PIXELS) throw unreadable();
  const runLength = (compression === BI_RLE8 && bits === 8) || (compression === BI_RLE4 && bits === 4);
  if (runLength) return;
  const rowBytes = Math.ceil((width * bits) / 8);
  const stride = Math.ceil(rowBytes / 4) * 4;
  if (offset + stride * (height - 1) + rowBytes > bytes.length) throw unreadable();
}

/**
 * Checks an uploaded image by its magic bytes and re-encodes it: whatever was hidden in the original file
 * (metadata, trailing data, a polyglot) does not survive. BMP is decoded here because the image library cannot.
 */
export async function reencodeImage(
  bytes: Buffer,
  allowed: readonly ImageKind[],
  options: { width: number; height: number; fit: 'cover' | 'inside' },
): Promise<Buffer> {
  const kind = sniffImage(bytes);
  if (!kind || !allowed.includes(kind)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  try {
    let image: Sharp;
    if (kind === 'bmp') {
      assertBmpFits(bytes);
      const bmp = decodeBmp(bytes, { toRGBA: true });
      image = sharp(Buffer.from(bmp.data), { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
    } else {
      image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS });
    }
    return await image
      .rotate()
      .resize(options.width, options.height, { fit: options.fit, withoutEnlargement: options.fit === 'inside' })
      .png()
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable();
  }
}
