import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, lstat, mkdir, readdir, readlink, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSafeName, type TFileNode } from '@aiedu/contracts';
import { AppError } from '../../platform/errors.js';

const MAX_TREE_ENTRIES = 5000;

/** Hidden entries (`.ipynb_checkpoints`, dotfiles) are the runtime's own and never shown or versioned. */
const isHidden = (name: string) => name.startsWith('.');

/** Splits and checks a project-relative path: no empty, '.', '..' or hidden segments. */
export function segments(relative: string): string[] {
  const parts = relative.split('/').filter((p) => p !== '');
  for (const part of parts) {
    if (part === '..' || part === '.' || isHidden(part) || part.includes('\\') || part.includes('\0')) {
      throw new AppError('BAD_REQUEST');
    }
  }
  return parts;
}

/**
 * The absolute path of `relative` inside the workspace. The runtime's user can create symbolic links, so the
 * real path of the deepest existing ancestor must stay inside the workspace: a link to the server's files is
 * refused, never followed.
 */
export async function resolveInside(workspace: string, relative: string): Promise<string> {
  const target = path.join(workspace, ...segments(relative));
  const root = await realpath(workspace);
  let probe = target;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (real !== root && !real.startsWith(root + path.sep)) throw new AppError('NOT_FOUND');
      break;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const parent = path.dirname(probe);
      if (parent === probe) throw new AppError('NOT_FOUND');
      probe = parent;
    }
  }
  return target;
}

export async function existing(workspace: string, relative: string) {
  const absolute = await resolveInside(workspace, relative);
  const info = await lstat(absolute).catch(() => null);
  if (!info || info.isSymbolicLink()) throw new AppError('NOT_FOUND');
  return { absolute, info };
}

export function checkName(name: string) {
  if (!isSafeName(name)) throw new AppError('NAME_INVALID');
}

/** The workspace as a tree, folders first, hidden entries left out. */
export async function fileTree(workspace: string): Promise<TFileNode[]> {
  let budget = MAX_TREE_ENTRIES;
  const walk = async (dir: string, prefix: string): Promise<TFileNode[]> => {
    const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !isHidden(e.name));
    const nodes: TFileNode[] = [];
    for (const entry of entries) {
      if (budget-- <= 0) break;
      if (entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      const info = await stat(full);
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const node: TFileNode = {
        name: entry.name,
        path: relative,
        kind: entry.isDirectory() ? 'folder' : 'file',
        size: entry.isDirectory() ? 0 : info.size,
        modifiedAt: info.mtime.toISOString(),
      };
      if (entry.isDirectory()) node.children = await walk(full, relative);
      nodes.push(node);
    }
    return nodes.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1));
  };
  return walk(workspace, '');
}

/** Every file of a folder (hidden ones left out) with its size and content hash, for version comparison. */
export async function fileList(root: string): Promise<Map<string, { size: number; hash: string }>> {
  const files = new Map<string, { size: number; hash: string }>();
  const walk = async (dir: string, prefix: string) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (isHidden(entry.name) || entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(full, relative);
      else if (entry.isFile()) {
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(full)) hash.update(chunk as Buffer);
        files.set(relative, { size: (await stat(full)).size, hash: hash.digest('hex') });
      }
    }
  };
  await walk(root, '');
  return files;
}

/** Bytes used by a folder tree. */
export async function folderSize(root: string): Promise<number> {
  let total = 0;
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) total += (await stat(full)).size;
    }
  };
  await walk(root);
  return total;
}

/**
 * Whether a link points inside `root`. One that points out of it (the server's files, the read-only copy of an
 * attached dataset at `datasets/<name>`) is no file of the project: it is never copied, so a version, a fork or a
 * copy neither carries another's data nor duplicates it.
 */
async function pointsInside(link: string, root: string) {
  const target = path.resolve(path.dirname(link), await readlink(link));
  return target === root || target.startsWith(root + path.sep);
}

/**
 * Copies the visible files of one folder into another (fork, version snapshot and restore, a copy in the file
 * tree); links are copied as links, and only those pointing inside `root` (the project's files).
 */
export async function copyVisible(from: string, to: string, root = from) {
  await mkdir(to, { recursive: true });
  await cp(from, to, {
    recursive: true,
    filter: async (source) => {
      if (source === from) return true;
      if (isHidden(path.basename(source))) return false;
      const info = await lstat(source).catch(() => null);
      return !info?.isSymbolicLink() || pointsInside(source, root);
    },
    verbatimSymlinks: true,
  });
}

/**
 * Empties a folder except hidden entries, so a restore keeps the runtime's own files, and links out of the
 * project (the attached datasets of `datasets/`), which are no files of a version.
 */
export async function clearVisible(dir: string, root = dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (isHidden(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink() && !(await pointsInside(full, root))) continue;
    if (entry.isDirectory() && (await holdsLinkOut(full, root))) await clearVisible(full, root);
    else await rm(full, { recursive: true });
  }
}

async function holdsLinkOut(dir: string, root: string) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink() && !(await pointsInside(path.join(dir, entry.name), root))) return true;
  }
  return false;
}

export async function moveEntry(from: string, to: string) {
  if (await lstat(to).catch(() => null)) throw new AppError('FILE_EXISTS');
  await rename(from, to);
}

/** A notebook in nbformat 4 with one empty code cell, as Jupyter writes it. */
export function emptyNotebook(): string {
  return `${JSON.stringify(
    {
      cells: [{ cell_type: 'code', execution_count: null, id: 'a1b2c3d4', metadata: {}, outputs: [], source: [] }],
      metadata: {
        kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
        language_info: { name: 'python' },
      },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )}\n`;
}

export async function writeNew(absolute: string, content: string) {
  await writeFile(absolute, content, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new AppError('FILE_EXISTS') : error;
  });
}

/** Writes files at paths inside a new workspace (folders made as needed); a path that leaves it is refused. */
export async function writeFiles(workspace: string, files: readonly { path: string; content: Buffer | string }[]) {
  for (const file of files) {
    const absolute = path.resolve(workspace, file.path);
    if (!absolute.startsWith(workspace + path.sep)) throw new AppError('NAME_INVALID');
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, file.content, { flag: 'wx' });
  }
}
