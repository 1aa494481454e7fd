import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DATASET_MOUNT_FOLDER } from '@aiedu/contracts';
import { isUuid } from '../../platform/ids.js';

/** A fill left this long was a crash's. */
const STALE_FILL_MS = 60 * 60_000;

/** A dataset version mounted in a project's workspace at `datasets/<mountName>`. */
export interface DatasetMount {
  mountName: string;
  versionId: string;
}

/** A file of a dataset version: its path in the version, its size, and where its bytes come from. */
export interface DatasetCacheFile {
  path: string;
  size: number;
}

/**
 * The read-only copy of each dataset version that runtimes read (`<runtime root>/datasets/<versionId>/`), filled
 * from storage (local disk or a bucket alike) and shared by every project that mounts the version. It is this
 * process's user's: folders 0755, files 0644, so a project's user reads it and can change nothing of it. The
 * folder holding the copies is 0711: a project's user passes through to the version it was given, and lists none.
 */
export class DatasetCache {
  private readonly filling = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {}

  versionDir(versionId: string): string {
    if (!isUuid(versionId)) throw new Error(`not a version id: ${versionId}`);
    return path.join(this.dir, versionId);
  }

  async has(versionId: string): Promise<boolean> {
    return (await stat(this.versionDir(versionId)).catch(() => null))?.isDirectory() ?? false;
  }

  /**
   * Makes the version's copy when it is missing: written into a folder of its own and renamed into place once
   * complete, so a runtime never sees half of it and a failed fill leaves nothing. Fills of one version at once
   * share one.
   */
  ensure(versionId: string, files: readonly DatasetCacheFile[], open: (file: string) => Promise<Readable>) {
    const running = this.filling.get(versionId);
    if (running) return running;
    const fill = this.fill(versionId, files, open).finally(() => this.filling.delete(versionId));
    this.filling.set(versionId, fill);
    return fill;
  }

  private async fill(versionId: string, files: readonly DatasetCacheFile[], open: (file: string) => Promise<Readable>) {
    const target = this.versionDir(versionId);
    if (await this.has(versionId)) return;
    await mkdir(this.dir, { recursive: true, mode: 0o711 });
    await chmod(this.dir, 0o711);
    const partial = path.join(this.dir, `.fill-${versionId}-${randomBytes(4).toString('hex')}`);
    await mkdir(partial, { mode: 0o755 });
    try {
      for (const file of files) {
        const parts = file.path.split('/');
        if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
          throw new Error(`unsafe path in a dataset version: ${file.path}`);
        }
        const destination = path.join(partial, ...parts);
        await mkdir(path.dirname(destination), { recursive: true, mode: 0o755 });
        await pipeline(await open(file.path), createWriteStream(destination, { flags: 'wx', mode: 0o644 }));
      }
      await chmodTree(partial);
      await rename(partial, target).catch(async (error: NodeJS.ErrnoException) => {
        // Another process (sharing the runtimes' volume) filled it meanwhile: its copy is as good as this one.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        await rm(partial, { recursive: true, force: true });
      });
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      throw error;
    }
  }

  /** Removes the copies of versions no project mounts any more (and fills a crash left behind). */
  async prune(inUse: ReadonlySet<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (inUse.has(name) || this.filling.has(name)) continue;
      if (name.startsWith('.fill-')) {
        // Another process sharing the volume may be filling it now: only an hour-old one is a crash's.
        const modified = (await stat(path.join(this.dir, name)).catch(() => null))?.mtimeMs ?? 0;
        if ([...this.filling.keys()].some((v) => name.includes(v)) || Date.now() - modified < STALE_FILL_MS) continue;
      }
      await rm(path.join(this.dir, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }
}

/** Modes as the cache promises them, whatever the umask made: folders 0755, files 0644. */
async function chmodTree(dir: string) {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await chmodTree(full);
    else await chmod(full, 0o644);
  }
}

/**
 * Run as the project's user (never as root: the workspace is the user's, and whatever stands in it may be a link
 * to anywhere): makes `datasets/` in the workspace when something is to be mounted, removes the links to the cache
 * no longer wanted, and links each wanted name to its version's copy. An entry of the user's own where a link should
 * be is left alone and reported as blocked. Prints `{ blocked: [...] }`.
 */
const PLACE_LINKS = `
const fs = require('node:fs'), path = require('node:path');
const [workspace, cacheDir, wantedJson] = process.argv.slice(1);
const wanted = new Map(JSON.parse(wantedJson));
const dir = path.join(workspace, ${JSON.stringify(DATASET_MOUNT_FOLDER)});
let info = fs.lstatSync(dir, { throwIfNoEntry: false });
if (info && !info.isDirectory() && info.isSymbolicLink()) { fs.unlinkSync(dir); info = undefined; }
const blocked = [];
if (info && !info.isDirectory()) { for (const name of wanted.keys()) blocked.push(name); }
else {
  if (!info && wanted.size > 0) fs.mkdirSync(dir, { mode: 0o755 });
  for (const name of info ? fs.readdirSync(dir) : []) {
    const entry = path.join(dir, name);
    if (!fs.lstatSync(entry).isSymbolicLink()) continue;
    const target = fs.readlinkSync(entry);
    if (target.startsWith(cacheDir + path.sep) && wanted.get(name) !== target) fs.unlinkSync(entry);
  }
  for (const [name, target] of wanted) {
    const entry = path.join(dir, name);
    const existing = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!existing) fs.symlinkSync(target, entry);
    else if (!existing.isSymbolicLink() || fs.readlinkSync(entry) !== target) blocked.push(name);
  }
}
process.stdout.write(JSON.stringify({ blocked }));
`;

/**
 * Puts `datasets/<mountName>` links in a workspace to the cache's copies, as `identity` (the project's user) when
 * given. Answers the mount names something of the user's stands in the way of.
 */
export function placeDatasetLinks(
  workspace: string,
  cache: DatasetCache,
  mounts: readonly DatasetMount[],
  identity: { uid: number; gid: number } | null,
): Promise<{ blocked: string[] }> {
  const wanted = JSON.stringify(mounts.map((m) => [m.mountName, cache.versionDir(m.versionId)]));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PLACE_LINKS, workspace, cache.dir, wanted], {
      cwd: '/',
      env: {},
      ...(identity ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`dataset links not placed: ${stderr.trim()}`));
      try {
        resolve(JSON.parse(stdout) as { blocked: string[] });
      } catch {
        reject(new Error(`dataset links: unexpected answer ${stdout.slice(0, 200)}`));
      }
    });
  });
}
