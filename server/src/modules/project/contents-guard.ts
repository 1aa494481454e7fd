import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_LIMITS } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { ProjectFiles } from './file.service.js';
import type { ProjectRow } from './project-access.js';
import { checkName, existing, resolveInside, segments } from './workspace-files.js';

/** A write to Jupyter's contents API as the gateway received it: `PUT`, `POST` or `PATCH /api/contents/<path>`. */
export interface ContentsWrite {
  method: 'PUT' | 'POST' | 'PATCH';
  /** The project-relative path of the URL, decoded. */
  path: string;
  /** The parsed JSON body (a Jupyter contents model, `{ copy_from }` or `{ path }`). */
  body: Record<string, unknown> | null;
}

/** The largest body a contents write may have: a file of the upload limit, base64-encoded, in its JSON model. */
export const CONTENTS_BODY_LIMIT = Math.ceil((PROJECT_LIMITS.uploadBytes * 4) / 3) + 64 * 1024;

/** Bytes a contents model writes: text in UTF-8, base64 decoded, a notebook as Jupyter serialises it. */
function modelBytes(model: Record<string, unknown>): number {
  const content = model.content;
  if (model.type === 'directory' || content === undefined || content === null) return 0;
  if (typeof content !== 'string') return Buffer.byteLength(JSON.stringify(content, null, 1));
  return Buffer.byteLength(content, model.format === 'base64' ? 'base64' : 'utf8');
}

async function entry(absolute: string): Promise<{ folder: boolean; size: number } | null> {
  const info = await lstat(absolute).catch(() => null);
  return info && !info.isSymbolicLink() ? { folder: info.isDirectory(), size: info.isFile() ? info.size : 0 } : null;
}

/** Jupyter's name for a copy into a folder: `name-Copy1.ext`, the first free one (its `increment_filename`). */
async function copyName(folder: string, from: string): Promise<string> {
  const name = from.replace(/-Copy\d*\./, '.');
  const dot = name.endsWith('.ipynb') ? name.lastIndexOf('.') : name.indexOf('.');
  const [base, suffix] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  const taken = new Set(await readdir(folder).catch(() => []));
  for (let i = 0; ; i++) {
    const candidate = `${base}${i ? `-Copy${i}` : ''}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Files written through the Jupyter contents API obey the file tree's rules, with its codes and messages: a new
 * name of at most 30 characters without special characters (3106), one file of at most 100 MB (2006, chunked
 * uploads counted whole), the owner's storage quota (2003), no move into itself (2001), no move onto an existing
 * name (2002). Answers the path to forward: a copy into a folder gets the name Jupyter would pick, chosen here so
 * the checked name is the one created.
 */
export async function checkContentsWrite(
  ctx: AppContext,
  driver: RuntimeDriver,
  project: ProjectRow,
  write: ContentsWrite,
): Promise<string> {
  const files = new ProjectFiles(ctx, driver, project);
  const root = files.root;
  const parts = segments(write.path);
  const target = await resolveInside(root, write.path);
  const body = write.body ?? {};
  const fits = async (incoming: number, replaced: number) => {
    if (incoming > PROJECT_LIMITS.uploadBytes) throw new AppError('FILE_TOO_LARGE');
    if ((await files.ownerUsage()) - replaced + incoming > ctx.config.userStorageQuotaBytes) {
      throw new AppError('NO_SPACE');
    }
  };

  if (write.method === 'PATCH') {
    if (typeof body.path !== 'string') return write.path;
    const to = segments(body.path);
    if (parts.length === 0 || to.length === 0) throw new AppError('BAD_REQUEST');
    if (to.length > parts.length && parts.every((p, i) => to[i] === p)) throw new AppError('COPY_INTO_ITSELF');
    if (to.at(-1) !== parts.at(-1)) checkName(to.at(-1)!);
    await existing(root, write.path);
    if (await entry(await resolveInside(root, body.path))) throw new AppError('FILE_EXISTS');
    return write.path;
  }

  if (write.method === 'POST') {
    if (typeof body.copy_from !== 'string') return write.path; // a new untitled file or folder: Jupyter's names fit
    const source = await existing(root, body.copy_from);
    if (!source.info.isFile()) throw new AppError('BAD_REQUEST');
    const intoFolder = (await entry(target))?.folder === true;
    const name = intoFolder ? await copyName(target, path.basename(source.absolute)) : parts.at(-1);
    if (!name) throw new AppError('BAD_REQUEST');
    checkName(name);
    await fits(source.info.size, 0);
    return (intoFolder ? [...parts, name] : parts).join('/');
  }

  // PUT: a save of an existing file, or a new file or folder (an upload, maybe in chunks).
  if (parts.length === 0) throw new AppError('BAD_REQUEST');
  const current = (await entry(target))?.size ?? null;
  if (current === null) checkName(parts.at(-1)!);
  const chunk = body.chunk;
  const appended = typeof chunk === 'number' && chunk !== 1 && current !== null;
  const incoming = modelBytes(body);
  await fits(appended ? current + incoming : incoming, current ?? 0);
  return write.path;
}
