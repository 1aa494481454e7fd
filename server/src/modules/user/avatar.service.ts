import { Readable } from 'node:stream';
import { IMAGE_TYPES_BMP, LIMITS, hasExtension } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../platform/context.js';
import { users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { findUserById } from '../auth/auth.repository.js';

export const AVATAR_SIZE = 256;

/** Stores a new avatar: JPG/PNG/BMP/JPEG by name and by content, re-encoded as a 256×256 PNG. */
export async function setAvatar(ctx: AppContext, userId: string, fileName: string, bytes: Buffer) {
  if (!hasExtension(fileName, IMAGE_TYPES_BMP)) throw new AppError('BAD_REQUEST', { reason: 'image type' });
  const png = await reencodeImage(bytes, ['jpeg', 'png', 'bmp'], {
    width: AVATAR_SIZE,
    height: AVATAR_SIZE,
    fit: 'cover',
  });
  const key = `avatars/${userId}/${uuidv7()}.png`;
  await ctx.storage.put(key, Readable.from([png]), { maxBytes: LIMITS.avatarBytes });
  const previous = (await findUserById(ctx.db, userId))?.avatarKey;
  await ctx.db.update(users).set({ avatarKey: key }).where(eq(users.id, userId));
  if (previous) await ctx.storage.delete(previous);
  return { avatarUrl: ctx.storage.signedUrl(key, { expiresInSeconds: 7 * 86_400 }) };
}

/** Goes back to the default avatar. */
export async function removeAvatar(ctx: AppContext, userId: string) {
  const previous = (await findUserById(ctx.db, userId))?.avatarKey;
  await ctx.db.update(users).set({ avatarKey: null }).where(eq(users.id, userId));
  if (previous) await ctx.storage.delete(previous);
}
