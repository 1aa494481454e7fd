import { decode as decodeBmp } from 'bmp-ts';
import sharp, { type Sharp } from 'sharp';
import { AppError } from './errors.js';

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'bmp';

/** The image kind by its first bytes (the file name and the declared type are not trusted). */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'gif';
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp';
  return null;
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
      const bmp = decodeBmp(bytes, { toRGBA: true });
      image = sharp(Buffer.from(bmp.data), { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
    } else {
      image = sharp(bytes, { limitInputPixels: 50_000_000 });
    }
    return await image
      .rotate()
      .resize(options.width, options.height, { fit: options.fit, withoutEnlargement: options.fit === 'inside' })
      .png()
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', { reason: 'unreadable image' });
  }
}
