import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUPYTER_MISSING, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { bindServer, killServer, launchServer, writeJupyterFiles, type JupyterServer } from './jupyter-server.js';

const isRoot = process.getuid?.() === 0;
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
const UID = 231_999;

describe.skipIf(JUPYTER_MISSING)('an unbound Jupyter server (warm pool)', () => {
  let dir: string;
  let server: JupyterServer;
  const kernels: string[] = [];
  const workspace = () => path.join(dir, 'project', 'workspace');
  const call = (method: string, url: string, body?: object) =>
    fetch(`${server.endpoint.baseUrl}${url}`, {
      method,
      headers: { authorization: `token ${server.endpoint.token}` },
      body: body ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-jupyter-'));
    chmodSync(dir, 0o711);
    const { configFile, launcherFile, jupyterPath } = writeJupyterFiles(dir);
    for (const folder of ['project/workspace', 'project/home']) mkdirSync(path.join(dir, folder), { recursive: true });
    writeFileSync(path.join(workspace(), 'hello.txt'), 'hi');
    if (isRoot)
      for (const folder of ['project', 'project/workspace', 'project/home', 'project/workspace/hello.txt']) {
        chownSync(path.join(dir, folder), UID, UID);
      }
    mkdirSync(path.join(dir, 'pool'), { mode: 0o711 });
    // A project's virtual environment, as far as a kernel needs one: its Python.
    mkdirSync(path.join(dir, 'venv', 'bin'), { recursive: true });
    symlinkSync('/usr/bin/python3', path.join(dir, 'venv', 'bin', 'python'));
    server = await launchServer('BASIC', {
      python: '/usr/bin/python3',
      configFile,
      launcherFile,
      jupyterPath,
      poolDir: path.join(dir, 'pool'),
      limitsMode: 'none',
      cgroupRoot: path.join(dir, 'no-cgroup'),
      limits: { cpu: 1, memoryMb: 1024 },
      maxProcesses: null,
      background: true,
      hideProcesses: false,
      log: { warn: () => undefined },
    });
  }, 60_000);
  afterAll(async () => {
    if (server) await killServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves nothing but its status before it is bound', async () => {
    expect((await call('GET', '/api/status')).status).toBe(200);
    expect((await call('GET', '/api/kernels')).status).toBe(403);
    expect((await call('POST', '/api/kernels', { name: 'python3' })).status).toBe(403);
    expect((await call('GET', '/api/contents')).status).toBe(403);
    expect((await call('POST', '/api/terminals', {})).status).toBe(403);
  });

  it('keeps its token out of every process listing, and binds as root only to a project user', async () => {
    // Any user of the machine can list every process's command line; a token there would let a student's code
    // bind a waiting root server to itself, or reach another project's server.
    const listings = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map((entry) => {
        try {
          return readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        } catch {
          return '';
        }
      });
    expect(listings.some((line) => line.includes(server.endpoint.token))).toBe(false);
    await waitFor(() => childrenOf(server.child.pid!).length === 1);
    const [ahead] = childrenOf(server.child.pid!);
    // Nor does the kernel started ahead, which becomes the project's, inherit it.
    expect(readFileSync(`/proc/${ahead}/environ`, 'utf8')).not.toContain(server.endpoint.token);
    const bind = (body: object) => call('POST', '/aiedu/bind', body);
    const spec = { root_dir: dir, slot_dir: server.dir, env: {}, token: 'b'.repeat(48) };
    if (isRoot) {
      expect((await bind({ ...spec, uid: null, gid: null })).status).toBe(400);
      expect((await bind({ ...spec, uid: 0, gid: 0 })).status).toBe(400);
    }
    expect((await bind({ ...spec, uid: null, gid: null, token: 'short' })).status).toBe(400);
    expect((await call('GET', '/api/contents')).status).toBe(403);
  });

  it('binds to a project: its workspace, its environment and (as root) its user, once', async () => {
    // The kernel started ahead waits as a child of the server.
    await waitFor(() => childrenOf(server.child.pid!).length === 1);
    const [ahead] = childrenOf(server.child.pid!);
    const before = server.endpoint;
    server.endpoint = await bindServer(server, {
      rootDir: workspace(),
      env: {
        HOME: path.join(dir, 'project', 'home'),
        PATH: '/usr/bin:/bin',
        VIRTUAL_ENV: path.join(dir, 'venv'),
        JUPYTER_PATH: path.join(dir, 'jupyter'),
        JUPYTER_RUNTIME_DIR: path.join(dir, 'project', 'home', '.jupyter-runtime'),
      },
      identity: isRoot ? { uid: UID, gid: UID } : null,
    });
    // The bind gave the server a new token: the one it was started with, in its environment, opens nothing now.
    expect(server.endpoint.token).not.toBe(before.token);
    const withToken = (token: string) =>
      fetch(`${server.endpoint.baseUrl}/api/contents`, { headers: { authorization: `token ${token}` } });
    expect((await withToken(before.token)).status).toBe(403);
    const listing = (await (await withToken(server.endpoint.token)).json()) as { content: { name: string }[] };
    expect(listing.content.map((e) => e.name)).toEqual(['hello.txt']);
    const user = isRoot ? UID : process.getuid?.();
    expect(uidOf(server.child.pid!)).toBe(user);
    // The kernel started ahead became the project's user at the bind, before the server gave up root.
    await waitFor(() => uidOf(ahead!) === user);
    const kernel = await call('POST', '/api/kernels', { name: 'python3' });
    expect(kernel.status).toBe(201);
    kernels.push(((await kernel.json()) as { id: string }).id);
    // The first kernel is the one started ahead, in the project's workspace.
    await waitFor(() => readlinkSync(`/proc/${ahead}/cwd`) === workspace());
    expect(childrenOf(server.child.pid!)).toEqual([ahead]);
    await expect(
      bindServer(server, { rootDir: dir, env: {}, identity: isRoot ? { uid: 0, gid: 0 } : null }),
    ).rejects.toThrow();
  }, 60_000);
  it('runs kernels without the debugger, the workspace on their path, and the server without GObject', async () => {
    // The second kernel is launched the ordinary way, through the kernel spec's launcher.
    const second = await call('POST', '/api/kernels', { name: 'python3' });
    expect(second.status).toBe(201);
    kernels.push(((await second.json()) as { id: string }).id);
    // Each kernel also watches its server (ipykernel's parent poller), so it ends when the server is killed.
    const probe =
      "import sys, os; from ipykernel.kernelapp import IPKernelApp; print('debugpy.server' in sys.modules, bool({'', os.getcwd()} & set(sys.path)), os.getcwd(), type(IPKernelApp.instance().poller).__name__)";
    for (const id of kernels) {
      const channel = await KernelChannel.open(
        `${server.endpoint.baseUrl.replace('http', 'ws')}/api/kernels/${id}/channels?token=${server.endpoint.token}`,
      );
      try {
        expect(stdoutOf(await channel.execute(probe)).trim()).toBe(`False True ${workspace()} ParentPollerUnix`);
        // A notebook may still use debugpy itself.
        expect(stdoutOf(await channel.execute('import debugpy.server; print("ok")')).trim()).toBe('ok');
      } finally {
        channel.close();
      }
    }
    const maps = readFileSync(`/proc/${server.child.pid}/maps`, 'utf8');
    expect(maps).not.toMatch(/libgobject|_gi\./);
  }, 60_000);

  it('stops at once when asked, its own files still reachable as the project user', async () => {
    const started = Date.now();
    await killServer(server);
    // Within the grace period: Jupyter cleaned up and exited by itself, it was not killed.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(server.child.signalCode).toBeNull();
  }, 30_000);
});
