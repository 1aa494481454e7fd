import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestS3 } from './test/s3-server.js';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>, entry = ['src/main.ts']) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ...entry], {
    cwd: serverRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitUntilReady(port: number, exited: Promise<unknown>) {
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server exited before it was ready');
}

/** Signs in the demo data's first teacher at the server at `base`. */
function signInDemoTeacher(base: string) {
  return fetch(`${base}/gw/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      custcode: 'demo2026',
      usernameOrEmailOrPhone: 'teacher1',
      password: Buffer.from('Teacher@2026').toString('base64'),
    }),
  }).then((r) => r.json() as Promise<{ errorCode: string; data: { token: string } }>);
}

// Each test starts a real server process (TypeScript compiled on the fly, PGlite created and migrated); on a loaded
// 2-core machine that takes far longer than an in-process test, so the bound is wider. Nothing here sleeps.
describe('the server process', { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-main-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    children.forEach((c) => c.kill('SIGKILL'));
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('stops with one line naming a wrong variable', async () => {
    const { exited, output } = startServer({ DATA_DIR: dataDir(), PORT: 'not-a-port' });
    expect(await exited).toBe(1);
    expect(output().trim()).toMatch(/^Invalid environment variable PORT="not-a-port": .+$/);
  });

  it('stops with one line when the Kubernetes API of RUNTIME_DRIVER=kubernetes cannot be reached', async () => {
    const dir = dataDir();
    const closed = await freePort();
    const kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${closed}` } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'school' } }],
        'current-context': 'x',
      }),
    );
    const { exited, output } = startServer({
      DATA_DIR: dir,
      PORT: String(await freePort()),
      KUBECONFIG: kubeconfig,
      RUNTIME_DRIVER: 'kubernetes',
      K8S_RUNTIME_IMAGE: 'registry.school.example/aiedu-runtime:1',
      K8S_WORKSPACE_CLAIM: 'aiedu-workspaces',
    });
    expect(await exited).toBe(1);
    expect(output().trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^Start failed: the Kubernetes API at http://127.0.0.1:${closed} \\(namespace school\\) cannot be used: .+`,
      ),
    );
  });

  it('refuses a production start on an empty database without SUPER_ADMIN_PASSWORD', async () => {
    const { exited, output } = startServer({ DATA_DIR: dataDir(), PORT: String(await freePort()), SEED_DEMO: 'false' });
    expect(await exited).toBe(1);
    expect(output()).toContain('SUPER_ADMIN_PASSWORD is required');
  });

  it('starts on PGlite in DATA_DIR, serves the API, and exits 0 on SIGTERM after finishing requests', async () => {
    const port = await freePort();
    const server = startServer({ DATA_DIR: dataDir(), PORT: String(port), HOST: '127.0.0.1' });
    children.push(server.child);
    await waitUntilReady(port, server.exited);
    const setting = await fetch(`http://127.0.0.1:${port}/gw/api/v1/sys/setting`).then((r) => r.json());
    expect(setting).toEqual({
      errorCode: '1000',
      errorMsg: '',
      data: { isCustomerSingle: false, isVerifyCode: false, custcode: null, platformName: null, logoUrl: null },
    });

    const inFlight = fetch(`http://127.0.0.1:${port}/gw/api/v1/apps`).then((r) => r.status);
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await inFlight).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('backs up a stopped server with `npm run backup`, and `npm run restore` makes a new DATA_DIR of it', async () => {
    const original = dataDir();
    const port = await freePort();
    const server = startServer({ DATA_DIR: original, PORT: String(port), HOST: '127.0.0.1' });
    children.push(server.child);
    await waitUntilReady(port, server.exited);
    const file = path.join(dataDir(), 'backup.tar.gz');
    const command = (args: string[], env: Record<string, string>) => startServer(env, ['src/backup.ts', ...args]);

    // The embedded database belongs to the running server.
    const refused = command(['backup', file], { DATA_DIR: original });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('is in use by another process');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // On the database's disk, a backup stops at the floor kept free, and leaves nothing.
    const full = command(['backup', file], { DATA_DIR: original, MIN_FREE_DISK_MB: '1000000000' });
    expect(await full.exited).toBe(1);
    expect(full.output()).toMatch(/Backup failed: The disk of .+ fell below MIN_FREE_DISK_MB/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);

    const backup = command(['backup', file], { DATA_DIR: original });
    expect(await backup.exited).toBe(0);
    expect(backup.output()).toMatch(new RegExp(`Backup written to ${file}: \\d+ rows of \\d+ tables`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const verified = command(['verify', file], {});
    expect(await verified.exited).toBe(0);
    expect(verified.output()).toMatch(/is whole: the backup of .+, \d+ rows and \d+ files/);
    const restoredDir = dataDir();
    const restore = command(['restore', file], { DATA_DIR: restoredDir });
    expect(await restore.exited).toBe(0);
    expect(restore.output()).toMatch(/Restored \d+ rows from the backup of /);
    const again = command(['restore', file], { DATA_DIR: restoredDir });
    expect(await again.exited).toBe(1);
    expect(again.output()).toContain('Restore failed: The database already holds data.');

    // The restored folder starts, and signs in the demo teacher of the original.
    const restoredPort = await freePort();
    const restored = startServer({ DATA_DIR: restoredDir, PORT: String(restoredPort), HOST: '127.0.0.1' });
    children.push(restored.child);
    await waitUntilReady(restoredPort, restored.exited);
    const login = await signInDemoTeacher(`http://127.0.0.1:${restoredPort}`);
    expect(login.errorCode).toBe('1000');
    restored.child.kill('SIGTERM');
    expect(await restored.exited).toBe(0);
  });

  it('keeps files in an S3 bucket it can use, and refuses to start on one it cannot', async () => {
    const s3 = await startTestS3();
    try {
      const { endpoint } = s3.options();
      const env = (bucket: string) => ({
        DATA_DIR: dataDir(),
        HOST: '127.0.0.1',
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint!,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
      const refused = startServer({ ...env('no-such-bucket'), PORT: String(await freePort()) });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toMatch(
        /Start failed: S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used/,
      );
      expect(refused.output()).not.toContain('S3RVER');

      const port = await freePort();
      const server = startServer({ ...env('files'), PORT: String(port) });
      children.push(server.child);
      await waitUntilReady(port, server.exited);
      // A demo teacher's new avatar lands in the bucket, and its link reads it back from there.
      const base = `http://127.0.0.1:${port}`;
      const login = await signInDemoTeacher(base);
      const form = new FormData();
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } })
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(png)]), 'me.png');
      const uploaded = await fetch(`${base}/gw/api/v1/edu_user/avatar`, {
        method: 'POST',
        headers: { 'x-authorization': login.data.token },
        body: form,
      }).then((r) => r.json() as Promise<{ data: { avatarUrl: string } }>);
      // The bucket holds the avatar, and the seeded starter courses' resources.
      const keys = await s3.keys();
      expect(keys.filter((key) => key.startsWith('avatars/'))).toEqual([
        expect.stringMatching(/^avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.png$/),
      ]);
      expect(
        keys.filter((key) => !key.startsWith('avatars/')).every((key) => key.startsWith('courses/resources/')),
      ).toBe(true);
      const avatar = await fetch(`${base}${uploaded.data.avatarUrl}`);
      expect(avatar.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await avatar.arrayBuffer())).metadata()).width).toBe(256);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await s3.close();
    }
  });
});
