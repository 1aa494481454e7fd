import type * as BmpTs from 'bmp-ts';
import { decode as decodeBmp, encode as encodeBmp } from 'bmp-ts';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './errors.js';
import { MAX_IMAGE_PIXELS, reencodeImage } from './images.js';

/**
 * A BMP with an 8-bit palette of two colours whose pixels are run-length encoded (RLE8): `runs` are
 * the pixel data as written, so a file can claim any size whatever it holds.
 */
function rle8Bmp(width: number, height: number, runs: number[]): Buffer {
  const palette = Buffer.from([0, 0, 0, 0, 0, 0xff, 0, 0]);
  const data = Buffer.from(runs);
  const offset = 14 + 40 + palette.length;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(offset + data.length, 2);
  header.writeUInt32LE(offset, 10);
  header.writeUInt32LE(40, 14);
  header.writeUInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(8, 28);
  header.writeUInt32LE(1, 30); // BI_RLE8
  header.writeUInt32LE(data.length, 34);
  header.writeUInt32LE(2, 46); // colours in the palette
  return Buffer.concat([header, palette, data]);
}

/** Every row one run of `width` (≤ 255) green pixels, then the end of the image. */
const greenRows = (width: number, height: number) => [
  ...Array.from({ length: height }, () => [width, 1, 0, 0]).flat(),
  0,
  1,
];

// The real decoder, watched: a refused header must never reach it.
vi.mock('bmp-ts', async (actual) => {
  const bmp = await actual<typeof BmpTs>();
  return { ...bmp, decode: vi.fn((...args: Parameters<typeof bmp.decode>) => bmp.decode(...args)) };
});

const box = { width: 64, height: 64, fit: 'cover' } as const;

async function refusal(bytes: Buffer) {
  const error = await reencodeImage(bytes, ['bmp'], box).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('reencodeImage with BMP', () => {
  beforeEach(() => {
    vi.mocked(decodeBmp).mockClear();
  });

  it('re-encodes a small uncompressed BMP and a small run-length encoded one', async () => {
    const plain = encodeBmp({ data: Buffer.alloc(40 * 20 * 4, 0x80), width: 40, height: 20 }).data;
    const rle = rle8Bmp(30, 10, greenRows(30, 10));
    for (const bytes of [plain, rle]) {
      const meta = await sharp(await reencodeImage(bytes, ['bmp'], box)).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 64, height: 64 });
    }
  });

  it('refuses a tiny run-length encoded file whose header claims more pixels than allowed, before decoding it', async () => {
    // 10000 × 6000 = 60 million pixels: a few dozen bytes that would take 240 MB to decode.
    const claimed = rle8Bmp(10_000, 6_000, [0, 1]);
    expect(claimed.length).toBeLessThan(100);
    expect(10_000 * 6_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    const error = await refusal(claimed);
    expect(error.code).toBe('1001');
    expect(error.details).toEqual({ reason: 'unreadable image' });

    // 20000 × 20000 (1.6 GB decoded) and a top-down variant: refused from the header alone.
    for (const height of [20_000, -20_000]) {
      expect((await refusal(rle8Bmp(20_000, height, [0, 1]))).details).toEqual({ reason: 'unreadable image' });
    }
    expect(decodeBmp).not.toHaveBeenCalled();
  });

  it('refuses an uncompressed BMP whose rows the file is too short to hold', async () => {
    const whole = encodeBmp({ data: Buffer.alloc(40 * 20 * 4, 0x80), width: 40, height: 20 }).data;
    const claimsMore = Buffer.from(whole);
    claimsMore.writeUInt32LE(5_000, 18);
    claimsMore.writeInt32LE(5_000, 22);
    expect((await refusal(claimsMore)).details).toEqual({ reason: 'unreadable image' });
    expect((await refusal(whole.subarray(0, whole.length - 200))).details).toEqual({ reason: 'unreadable image' });
  });
});
