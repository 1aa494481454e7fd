import type { Readable } from 'node:stream';
import { DATASET_LIMITS, datasetApi, type TDatasetFiles, type TDatasetPreview } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import type { DatasetRow } from './dataset-access.js';
import { fileOf, folderLevel, versionOf, type VersionRow } from './dataset.repository.js';
import { datasetFileKey } from './dataset-storage.js';

/** The largest image a thumbnail is made of; larger ones show their size only. */
const THUMBNAIL_SOURCE_BYTES = 50 * 1024 * 1024;
const IMAGE = /\.(jpe?g|png|gif|bmp)$/i;
const TABLE = /\.(csv|tsv)$/i;
const TEXT = /\.(txt|json|jsonl|md|xml|ya?ml|log|py|ipynb|names|data|html?|ini|cfg)$/i;

/** The version asked for, or the current one; it must be ready (3204), and of this dataset (404). */
export async function readyVersion(ctx: AppContext, dataset: DatasetRow, versionId?: string): Promise<VersionRow> {
  const id = versionId ?? dataset.currentVersionId;
  if (!id) throw new AppError('DATASET_NOT_READY');
  const version = await versionOf(ctx.db, dataset.id, id);
  if (!version) throw new AppError('NOT_FOUND');
  if (version.state !== 'ready') throw new AppError('DATASET_NOT_READY');
  return version;
}

/** A folder path as the query gives it ("a/b", "a/b/" or ""), as the prefix of the paths under it. */
function folderPrefix(dir: string) {
  const trimmed = dir.replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/** One folder level: folders first, then files, each by name; an unknown folder answers 404. */
export async function listFolder(ctx: AppContext, version: VersionRow, dir: string): Promise<TDatasetFiles> {
  const prefix = folderPrefix(dir);
  const rows = await folderLevel(ctx.db, version.id, prefix);
  if (prefix && rows.length === 0) throw new AppError('NOT_FOUND');
  const entries = rows
    .map((row) => ({
      name: row.name,
      path: `${prefix}${row.name}`,
      kind: row.isFile ? ('file' as const) : ('dir' as const),
      size: row.bytes,
      childCount: row.isFile ? 0 : row.files,
    }))
    .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1));
  return { versionId: version.id, dir: prefix.replace(/\/$/, ''), entries };
}

async function fileIn(ctx: AppContext, version: VersionRow, path: string) {
  const file = await fileOf(ctx.db, version.id, path);
  if (!file) throw new AppError('NOT_FOUND');
  return file;
}

/** The first `max` bytes of a stored file, and whether there were more. */
async function head(ctx: AppContext, key: string, size: number, max: number) {
  if (size === 0) return { bytes: Buffer.alloc(0), truncated: false };
  const end = Math.min(size, max) - 1;
  const { stream } = await ctx.storage.get(key, { start: 0, end });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), truncated: size > max };
}

/** Text of bytes cut anywhere: a character cut in two at the end is dropped rather than shown broken. */
const textOf = (bytes: Buffer, truncated: boolean) => bytes.toString('utf8').replace(truncated ? /\uFFFD+$/ : /$^/, '');

/** Splits a line of a csv (quotes and doubled quotes understood) or of a tsv. */
function cells(line: string, separator: string): string[] {
  if (separator === '\t') return line.split('\t');
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === separator && !quoted) {
      out.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  out.push(cell);
  return out;
}

/**
 * What a file shows: an image its thumbnail (the `raw` call with `thumb=1`), a csv or tsv its header and first 50
 * rows, a text its first 64 KB, anything else its size.
 */
export async function previewFile(
  ctx: AppContext,
  dataset: DatasetRow,
  version: VersionRow,
  path: string,
): Promise<TDatasetPreview> {
  const file = await fileIn(ctx, version, path);
  const key = datasetFileKey(version, file.path);
  const base = { path: file.path, size: file.size };
  if (IMAGE.test(path)) {
    const query = `path=${encodeURIComponent(file.path)}&versionId=${version.id}`;
    return {
      kind: 'image',
      ...base,
      thumbnailUrl: `${datasetApi(dataset.id).raw}?${query}&thumb=1`,
      rawUrl: `${datasetApi(dataset.id).raw}?${query}`,
    };
  }
  if (TABLE.test(path)) {
    const { bytes, truncated } = await head(ctx, key, file.size, DATASET_LIMITS.previewTextBytes);
    const separator = /\.tsv$/i.test(path) ? '\t' : ',';
    const lines = textOf(bytes, truncated)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
    // A last line cut by the byte limit is not a row.
    if (truncated) lines.pop();
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    const [header = '', ...rest] = lines;
    return {
      kind: 'table',
      ...base,
      header: cells(header, separator),
      rows: rest.slice(0, DATASET_LIMITS.previewRows).map((line) => cells(line, separator)),
      truncated: truncated || rest.length > DATASET_LIMITS.previewRows,
    };
  }
  if (TEXT.test(path)) {
    const { bytes, truncated } = await head(ctx, key, file.size, DATASET_LIMITS.previewTextBytes);
    return { kind: 'text', ...base, text: textOf(bytes, truncated), truncated };
  }
  return { kind: 'other', ...base };
}

/** A file's bytes, or an image's thumbnail (PNG, at most 320 px a side). */
export async function rawFile(
  ctx: AppContext,
  version: VersionRow,
  path: string,
  thumb: boolean,
): Promise<{ stream: Readable | Buffer; size: number; name: string; thumbnail: boolean }> {
  const file = await fileIn(ctx, version, path);
  const key = datasetFileKey(version, file.path);
  const name = file.path.split('/').at(-1)!;
  if (!thumb) {
    const { stream, size } = await ctx.storage.get(key);
    return { stream, size, name, thumbnail: false };
  }
  if (!IMAGE.test(path)) throw new AppError('BAD_REQUEST');
  if (file.size > THUMBNAIL_SOURCE_BYTES) throw new AppError('FILE_TOO_LARGE_TO_OPEN');
  const { bytes } = await head(ctx, key, file.size, file.size);
  const px = DATASET_LIMITS.thumbnailPx;
  const png = await reencodeImage(bytes, ['jpeg', 'png', 'gif', 'bmp'], { width: px, height: px, fit: 'inside' });
  return { stream: png, size: png.length, name: `${name}.png`, thumbnail: true };
}
