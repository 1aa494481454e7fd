import { randomBytes } from 'node:crypto';

/** The first bytes of a file of each kind: enough for its type to be read from its content. */
const HEADS = {
  mp4: Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'),
  mp3: Buffer.from('fffb9064', 'hex'),
  pdf: Buffer.from('%PDF-1.4\n'),
};

/** A file of `bytes` bytes that holds `kind` by its first bytes, random after them. */
export function sampleFile(kind: keyof typeof HEADS, bytes: number): Buffer {
  const head = HEADS[kind];
  return Buffer.concat([head, randomBytes(Math.max(0, bytes - head.length))]);
}
