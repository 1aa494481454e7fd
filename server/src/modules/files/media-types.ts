import { fileTypeFromFile } from 'file-type';
import { AppError } from '../../platform/errors.js';

/**
 * Types of files a browser may show or play in place (video and audio with range requests), by extension, with
 * the contents (as file-type names them) a file of that name may hold; others download.
 */
const INLINE: Record<string, { type: string; content: readonly string[] }> = {
  mp4: { type: 'video/mp4', content: ['mp4', 'm4v'] },
  webm: { type: 'video/webm', content: ['webm'] },
  ogv: { type: 'video/ogg', content: ['ogv', 'ogg', 'ogm'] },
  mp3: { type: 'audio/mpeg', content: ['mp3'] },
  wav: { type: 'audio/wav', content: ['wav'] },
  ogg: { type: 'audio/ogg', content: ['ogg', 'oga', 'opus', 'spx'] },
  m4a: { type: 'audio/mp4', content: ['m4a', 'mp4'] },
  pdf: { type: 'application/pdf', content: ['pdf'] },
  png: { type: 'image/png', content: ['png'] },
  jpg: { type: 'image/jpeg', content: ['jpg'] },
  jpeg: { type: 'image/jpeg', content: ['jpg'] },
  gif: { type: 'image/gif', content: ['gif'] },
};

const DOWNLOAD = 'application/octet-stream';

const inlineOf = (fileName: string) =>
  fileName.includes('.') ? INLINE[fileName.toLowerCase().split('.').pop()!] : undefined;

export function mediaTypeOf(fileName: string): string {
  return inlineOf(fileName)?.type ?? DOWNLOAD;
}

/**
 * The type a stored file (a course resource) is kept and served with, judged by its content rather than its name.
 * A name of a type shown in place must hold that type, read from its first bytes: a `.png` holding HTML, or a PNG
 * called `.jpg`, is refused (`1003`). Any other file is kept as a download, so whatever it holds (HTML, SVG) never
 * runs as a page.
 */
export async function mediaTypeByContent(filePath: string, fileName: string): Promise<string> {
  const inline = inlineOf(fileName);
  if (!inline) return DOWNLOAD;
  const detected = await fileTypeFromFile(filePath);
  if (!detected || !inline.content.includes(detected.ext)) {
    throw new AppError('INVALID_REQUEST', { reason: 'content does not match the file name' });
  }
  return inline.type;
}

/** The first range of a `Range: bytes=a-b` header, clamped to the file; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.split(',')[0]!.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}
