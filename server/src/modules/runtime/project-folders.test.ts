import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectFolders } from './project-folders.js';

const IS_ROOT = process.getuid?.() === 0;
const UID_BASE = 233_000;

describe.skipIf(!IS_ROOT)('a project’s folders, with a system user of its own', () => {
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-folders-'));
  chmodSync(rootDir, 0o711);
  // Somewhere the project's user must never be handed: a folder and a file of root's outside the project.
  const outside = mkdtempSync(path.join(os.tmpdir(), 'aiedu-outside-'));
  const secret = path.join(outside, 'secret.key');
  writeFileSync(secret, 'root only');
  afterAll(() => {
    rmSync(rootDir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const folders = new ProjectFolders(rootDir, UID_BASE);
  const project = { id: '0190a0b2-7c1e-7d4f-8a9b-0c1d2e3f4a60', seq: 5 };
  const uid = UID_BASE + project.seq;
  const asProject = (command: string) =>
    spawnSync('/bin/sh', ['-c', command], { cwd: '/', uid, gid: uid, encoding: 'utf8' });

  it('gives the user its workspace, home and environment, in a folder of root’s it cannot change', () => {
    const workspace = folders.ensureWorkspace(project);
    const dir = folders.projectDir(project.id);
    expect(statSync(dir)).toMatchObject({ uid: 0, gid: uid });
    expect(statSync(dir).mode & 0o777).toBe(0o710);
    for (const name of ['workspace', 'home', 'venv']) {
      expect(statSync(path.join(dir, name))).toMatchObject({ uid, gid: uid });
    }
    expect(workspace).toBe(path.join(dir, 'workspace'));
    // It writes in its folders, but cannot swap one of them for a link elsewhere.
    expect(asProject(`echo hi > ${workspace}/note.txt`).status).toBe(0);
    const swap = asProject(`mv ${dir}/workspace ${dir}/moved && ln -s ${outside} ${dir}/workspace`);
    expect(swap.status).not.toBe(0);
    expect(swap.stderr).toMatch(/Permission denied/);
    expect(lstatSync(workspace).isDirectory()).toBe(true);
    // Another project's user cannot even look in.
    const other = spawnSync('/bin/ls', [dir], { cwd: '/', uid: uid + 1, gid: uid + 1, encoding: 'utf8' });
    expect(other.status).not.toBe(0);
  });

  it('replaces a link where a folder should be, and hands over nothing it points at', () => {
    // As a folder of the former layout, the user's own, could have been left.
    const dir = folders.projectDir(project.id);
    renameSync(path.join(dir, 'workspace'), path.join(dir, 'moved'));
    symlinkSync(outside, path.join(dir, 'workspace'));
    symlinkSync(secret, path.join(dir, 'home-link'));
    rmSync(path.join(dir, 'home'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'home'));

    const workspace = folders.ensureWorkspace(project);
    expect(lstatSync(workspace).isDirectory()).toBe(true);
    expect(lstatSync(path.join(dir, 'home')).isDirectory()).toBe(true);
    expect(statSync(outside).uid).toBe(0);
    expect(statSync(secret).uid).toBe(0);
  });

  it('hands over the links in what it claims, not what they point at', () => {
    const workspace = folders.ensureWorkspace(project);
    mkdirSync(path.join(workspace, 'restored'), { recursive: true });
    symlinkSync(secret, path.join(workspace, 'restored', '.key'));
    symlinkSync(outside, path.join(workspace, 'restored', 'elsewhere'));
    writeFileSync(path.join(workspace, 'restored', 'data.csv'), 'a,b\n');

    folders.claim(project, path.join(workspace, 'restored'));
    expect(lstatSync(path.join(workspace, 'restored', '.key')).uid).toBe(uid);
    expect(statSync(path.join(workspace, 'restored', 'data.csv')).uid).toBe(uid);
    expect(statSync(secret).uid).toBe(0);
    expect(statSync(outside).uid).toBe(0);
  });
});
