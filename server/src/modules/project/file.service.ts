import { constants as fsConstants, createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { LIMITS, openKindOf, openLimitOf, PROJECT_LIMITS } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../platform/context.js';
import { projects } from '../../platform/db/schema/index.js';
import { assertDiskRoom } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import type { ProjectRow } from './project-access.js';
import {
  checkName,
  copyVisible,
  emptyNotebook,
  existing,
  folderSize,
  moveEntry,
  resolveInside,
  segments,
  writeNew,
} from './workspace-files.js';
import { datasetBytesOf } from '../dataset/dataset-usage.js';

/** Where a project's versions are kept, out of the runtime's reach: `DATA_DIR/project-versions/<project>`. */
export const versionsRoot = (ctx: AppContext, projectId: string) =>
  path.join(ctx.config.dataDir, 'project-versions', projectId);

/** Bytes of the visible files of a folder (hidden entries and links left out): what a fork or a version copies. */
export async function visibleSize(root: string): Promise<number> {
  let total = 0;
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) total += (await lstat(full).catch(() => null))?.size ?? 0;
    }
  };
  await walk(root);
  return total;
}

/**
 * Bytes a user stores, against the per-user storage quota: the workspaces of every project they own, the
 * versions kept of them, and their datasets' files.
 */
export async function ownerUsage(ctx: AppContext, driver: RuntimeDriver, ownerId: string): Promise<number> {
  const owned = await ctx.db
    .select({ id: projects.id, seq: projects.seq })
    .from(projects)
    .where(eq(projects.ownerId, ownerId));
  let total = await datasetBytesOf(ctx.db, ownerId);
  for (const p of owned) {
    total += await folderSize(driver.workspaceDir(p));
    total += await folderSize(versionsRoot(ctx, p.id));
  }
  return total;
}

/** Refuses (2003) `incoming` bytes, replacing `replaced` bytes, that would take the user past the storage quota. */
export async function assertQuota(
  ctx: AppContext,
  driver: RuntimeDriver,
  ownerId: string,
  incoming: number,
  replaced = 0,
) {
  if ((await ownerUsage(ctx, driver, ownerId)) - replaced + incoming > ctx.config.userStorageQuotaBytes) {
    throw new AppError('NO_SPACE');
  }
}

const COPY_SUFFIX = '_copy';

/** The first name of `stem_copy.ext`, `stem_copy_2.ext`… free in `folder`, the stem shortened to the rename limit. */
async function freeCopyName(folder: string, original: string): Promise<string> {
  const dot = original.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [original.slice(0, dot), original.slice(dot)] : [original, ''];
  for (let n = 1; n < 1000; n++) {
    const suffix = n === 1 ? COPY_SUFFIX : `${COPY_SUFFIX}_${n}`;
    const room = LIMITS.rename - suffix.length - ext.length;
    const candidate = `${stem.slice(0, Math.max(1, room))}${suffix}${ext}`;
    if (candidate.length <= LIMITS.rename && !(await lstat(path.join(folder, candidate)).catch(() => null))) {
      return candidate;
    }
  }
  throw new AppError('FILE_EXISTS');
}

/** File operations of the editor's file tree, on the project's workspace. */
export class ProjectFiles {
  constructor(
    private readonly ctx: AppContext,
    private readonly driver: RuntimeDriver,
    private readonly project: ProjectRow,
  ) {}

  get root() {
    return this.driver.ensureWorkspace(this.project);
  }

  async create(folder: string, name: string, kind: 'file' | 'folder') {
    checkName(name);
    const parent = await existing(this.root, folder);
    if (!parent.info.isDirectory()) throw new AppError('BAD_REQUEST');
    const target = path.join(parent.absolute, name);
    if (kind === 'folder') {
      await mkdir(target).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new AppError('FILE_EXISTS') : error;
      });
    } else {
      await writeNew(target, name.toLowerCase().endsWith('.ipynb') ? emptyNotebook() : '');
    }
    this.driver.claim(this.project, target);
    return [...segments(folder), name].join('/');
  }

  async rename(from: string, name: string) {
    checkName(name);
    const source = await existing(this.root, from);
    if (segments(from).length === 0) throw new AppError('BAD_REQUEST');
    await moveEntry(source.absolute, path.join(path.dirname(source.absolute), name));
  }

  /** Moves a file or folder into another folder; a folder cannot go into itself (spec 8). */
  async move(from: string, toFolder: string) {
    const parts = segments(from);
    const into = segments(toFolder);
    if (parts.length === 0) throw new AppError('BAD_REQUEST');
    if (into.length >= parts.length && parts.every((p, i) => into[i] === p)) throw new AppError('COPY_INTO_ITSELF');
    const source = await existing(this.root, from);
    const folder = await existing(this.root, toFolder);
    if (!folder.info.isDirectory()) throw new AppError('BAD_REQUEST');
    await moveEntry(source.absolute, path.join(folder.absolute, parts.at(-1)!));
  }

  /**
   * Copies a file or folder (hidden entries and links inside a folder left out) into `toFolder`, by default its own
   * folder, under `name` or, without one, the first free of `stem_copy.ext`, `stem_copy_2.ext`… within the rename
   * limit. A folder cannot go into itself (2001); the copy counts toward the owner's storage quota and the disk floor.
   */
  async copy(from: string, toFolder: string | undefined, name: string | undefined) {
    const parts = segments(from);
    if (parts.length === 0) throw new AppError('BAD_REQUEST');
    const into = toFolder === undefined ? parts.slice(0, -1) : segments(toFolder);
    const source = await existing(this.root, from);
    if (source.info.isDirectory() && into.length >= parts.length && parts.every((p, i) => into[i] === p)) {
      throw new AppError('COPY_INTO_ITSELF');
    }
    const folder = await existing(this.root, into.join('/'));
    if (!folder.info.isDirectory()) throw new AppError('BAD_REQUEST');
    if (name !== undefined) checkName(name);
    const target = name ?? (await freeCopyName(folder.absolute, parts.at(-1)!));
    const size = source.info.isDirectory() ? await visibleSize(source.absolute) : source.info.size;
    await assertDiskRoom(this.root, this.ctx.config.minFreeDiskMb);
    await assertQuota(this.ctx, this.driver, this.project.ownerId, size);
    const destination = path.join(folder.absolute, target);
    if (await lstat(destination).catch(() => null)) throw new AppError('FILE_EXISTS');
    // Into a folder this process just made (the runtime may put a link where the copy is going), then in place.
    const temporary = await mkdtemp(path.join(folder.absolute, '.copy-'));
    try {
      const copied = path.join(temporary, 'entry');
      if (source.info.isDirectory()) await copyVisible(source.absolute, copied, this.root);
      else await copyFile(source.absolute, copied, fsConstants.COPYFILE_EXCL);
      this.driver.claim(this.project, copied);
      await moveEntry(copied, destination);
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
    return [...into, target].join('/');
  }

  async remove(relative: string) {
    if (segments(relative).length === 0) throw new AppError('BAD_REQUEST');
    const { absolute } = await existing(this.root, relative);
    await rm(absolute, { recursive: true });
  }

  /** Text content for the editor; files over the open limit of their kind answer 3107. */
  async read(relative: string) {
    const { absolute, info } = await existing(this.root, relative);
    if (!info.isFile()) throw new AppError('BAD_REQUEST');
    if (info.size > openLimitOf(openKindOf(relative))) throw new AppError('FILE_TOO_LARGE_TO_OPEN');
    return { path: relative, content: await readFile(absolute, 'utf8'), size: info.size };
  }

  /**
   * Saves text (notebooks included) atomically: a crash mid-write never leaves half a notebook. A new name follows
   * the rules of `create`; a save that grows the file stays within the owner's storage quota. The disk floor never
   * refuses a save: it leaves room for them, so a student's work is not lost to a full disk.
   */
  async save(relative: string, content: string) {
    const parts = segments(relative);
    if (parts.length === 0) throw new AppError('BAD_REQUEST');
    const target = await resolveInside(this.root, relative);
    const parent = await existing(this.root, parts.slice(0, -1).join('/'));
    if (!parent.info.isDirectory()) throw new AppError('BAD_REQUEST');
    const current = await lstat(target).catch(() => null);
    if (current?.isDirectory()) throw new AppError('BAD_REQUEST');
    if (!current) checkName(parts.at(-1)!);
    const size = Buffer.byteLength(content);
    const replaced = current?.isFile() ? current.size : 0;
    if (size > replaced) await assertQuota(this.ctx, this.driver, this.project.ownerId, size, replaced);
    const temporary = path.join(parent.absolute, `.save-${uuidv7()}`);
    await writeFile(temporary, content);
    this.driver.claim(this.project, temporary);
    await rename(temporary, target);
    await this.ctx.db.update(projects).set({ updatedAt: this.ctx.now() }).where(eq(projects.id, this.project.id));
  }

  async download(relative: string) {
    const { absolute, info } = await existing(this.root, relative);
    if (!info.isFile()) throw new AppError('BAD_REQUEST');
    return { stream: createReadStream(absolute), size: info.size, name: path.basename(absolute) };
  }

  /** Bytes the project's owner stores, against the per-user storage quota. */
  ownerUsage(): Promise<number> {
    return ownerUsage(this.ctx, this.driver, this.project.ownerId);
  }

  /**
   * An upload of at most 100 MB; an existing name answers 2002, a full quota or a disk below its floor 2003.
   * Nothing partial stays.
   */
  async upload(folder: string, name: string, body: Readable & { truncated?: boolean }) {
    checkName(name);
    await assertDiskRoom(this.root, this.ctx.config.minFreeDiskMb);
    const parent = await existing(this.root, folder);
    if (!parent.info.isDirectory()) throw new AppError('BAD_REQUEST');
    const target = path.join(parent.absolute, name);
    const temporary = path.join(parent.absolute, `.upload-${uuidv7()}`);
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > PROJECT_LIMITS.uploadBytes) throw new AppError('FILE_TOO_LARGE');
            yield chunk;
          }
        },
        createWriteStream(temporary, { flags: 'wx' }),
      );
      if (body.truncated) throw new AppError('FILE_TOO_LARGE');
      if ((await this.ownerUsage()) > this.ctx.config.userStorageQuotaBytes) throw new AppError('NO_SPACE');
      await assertDiskRoom(this.root, this.ctx.config.minFreeDiskMb);
      this.driver.claim(this.project, temporary);
      await moveEntry(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
    return { path: [...segments(folder), name].join('/'), size };
  }
}
