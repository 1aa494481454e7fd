import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.js';
import { sniffImage } from '../../platform/images.js';
import { isValidKey } from '../../platform/storage/storage.js';

/**
 * Certificate images (backgrounds and seals): JPG or PNG, stored under the customer's folder
 * `certificates/<customerId>/<uuid>.<ext>`.
 */

export const certImagePrefix = (customerId: string) => `certificates/${customerId}/`;

/** Whether a key names an image of this customer's (and nothing else). */
export const isCustomerImageKey = (customerId: string, key: string) =>
  isValidKey(key) && new RegExp(`^certificates/${customerId}/[0-9a-f-]{36}\\.(jpg|png)$`).test(key);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A stored certificate image's bytes and kind; null when it is missing or not a JPG or PNG. */
export async function readCertImage(
  ctx: Pick<AppContext, 'storage'>,
  key: string,
): Promise<{ bytes: Buffer; kind: 'png' | 'jpeg' } | null> {
  if (!isValidKey(key)) return null;
  let bytes: Buffer;
  try {
    bytes = await readAll((await ctx.storage.get(key)).stream);
  } catch {
    return null;
  }
  const kind = sniffImage(bytes);
  return kind === 'png' || kind === 'jpeg' ? { bytes, kind } : null;
}
