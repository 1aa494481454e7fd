import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { findUnsafeText, unsafeTextError } from './text-input.js';

export interface UploadStream {
  filename: string;
  /** The form's text fields sent before the file, by name (the first value of a repeated one). */
  fields: Record<string, string>;
  /** The file's bytes; fails with `FILE_TOO_LARGE` at its end when the file was over the limit. */
  stream: Readable;
}

export interface UploadedFile extends Omit<UploadStream, 'stream'> {
  bytes: Buffer;
}

/**
 * The one way a route reads a multipart upload (field "file"), so every size limit holds on every request.
 *
 * The parser stops passing bytes on at the limit and marks the file `truncated`. When the limit falls exactly on
 * the end of a chunk it has no byte left to pass on with the mark, so a reader that looks at the mark only as
 * chunks arrive (the multipart plugin's `toBuffer`) misses it whenever it has already read the last chunk: a
 * client that writes the file in 64 KiB pieces (as browsers and streaming clients do) against a limit of whole
 * MiB got a 6 MB avatar stored as its first 5 MiB about half the time. The mark is read here once the stream has
 * ended, when it is always set.
 */
export async function openUpload(request: FastifyRequest, maxBytes: number): Promise<UploadStream> {
  // eslint-disable-next-line no-restricted-syntax -- the one place that reads multipart files
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!part) throw new AppError('BAD_REQUEST');
  const fields: Record<string, string> = {};
  for (const [name, entry] of Object.entries(part.fields)) {
    const first = Array.isArray(entry) ? entry[0] : entry;
    if (first && first.type === 'field') fields[name] = String(first.value);
  }
  const unsafe = findUnsafeText({ filename: part.filename, ...fields }, 'body');
  if (unsafe) {
    part.file.resume();
    throw unsafeTextError(unsafe);
  }
  const file = part.file;
  async function* checked() {
    let size = 0;
    for await (const chunk of file as AsyncIterable<Buffer>) {
      size += chunk.length;
      yield chunk;
    }
    if (file.truncated || size > maxBytes) throw new AppError('FILE_TOO_LARGE');
  }
  return { filename: part.filename, fields, stream: Readable.from(checked(), { objectMode: false }) };
}

/** An upload read into memory (images, spreadsheets); over `maxBytes` answers 413 `FILE_TOO_LARGE`. */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  const { stream, ...upload } = await openUpload(request, maxBytes);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { ...upload, bytes: Buffer.concat(chunks) };
}
