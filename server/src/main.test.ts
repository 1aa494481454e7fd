import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
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

// Each test starts a real server process (TypeScript compiled on the fly, PGlite created and migrated); on a loaded
// 2-core machine that takes far longer than an in-process test, so the bound is wider. Nothing here sleeps.
describe('the server process', { timeout: 120_000 }, () => {
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
      data: { isCustomerSingle: false, isVerifyCode: false, platformName: null, logoUrl: null },
    });

    const inFlight = fetch(`http://127.0.0.1:${port}/gw/api/v1/apps`).then((r) => r.status);
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await inFlight).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
