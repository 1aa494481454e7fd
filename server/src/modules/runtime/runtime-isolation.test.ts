import { spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { JUPYTER_MISSING, KernelChannel, stdoutOf } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { NFT, networkTableName } from './runtime-network.js';

const isRoot = process.getuid?.() === 0;
const UID_BASE = 210_000;

interface Target {
  name: string;
  host: string;
  port: number;
}

/** Whether this process (the platform's side) connects to `target`: a refusal from a kernel is then the rules'. */
function reachable({ host, port }: Target): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** A listener of this machine's on `host`, standing for any service of the host's there. */
function listen(host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      // The probes from this side hang up at once.
      socket.on('error', () => undefined);
      socket.end('hello\n');
    });
    server.once('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

/** This machine's own address that is not loopback (what a kernel could use to go round a loopback rule). */
const hostAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

describe.skipIf(JUPYTER_MISSING)("a notebook reaches nothing of the platform's", () => {
  let t: TestApp;
  const logLines: string[] = [];
  const tokens: Record<string, string> = {};
  const listeners: net.Server[] = [];
  const targets: Target[] = [];
  let kernel: KernelChannel;
  let base: string;

  const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const startedPort = (projectId: string) =>
    logLines
      .map((line) => JSON.parse(line) as { msg: string; projectId?: string; port?: string })
      .find((line) => line.msg === 'runtime started' && line.projectId === projectId)?.port;

  beforeAll(async () => {
    // Users of a range of its own: the rules this suite removes are no other suite's.
    t = await createTestApp({
      logStream: { write: (line) => void logLines.push(line) },
      config: { runtimeUidBase: UID_BASE },
    });
    const db = t.database.db;
    const school = await buildCustomer(db);
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    for (const name of ['kid', 'neighbour']) {
      const user = await buildUser(db, { customerId: school.id, username: name, roles: [ROLES.student] });
      tokens[name] = await signIn(t.app, school.code, name, user.password);
    }
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const projects: Record<string, string> = {};
    for (const who of ['kid', 'neighbour']) {
      projects[who] = (await call(who, 'POST', '/gw/api/v1/projects', { name: 'Probe' })).json().data.id;
      const started = await call(who, 'POST', `/gw/api/v1/projects/${projects[who]}/runtime/start`, {});
      expect(started.json().errorCode).toBe('1000');
    }
    const kernelId = (
      await call('kid', 'POST', `/gw/api/v1/runtime/${projects.kid}/api/kernels`, { name: 'python3' })
    ).json().id;
    kernel = await KernelChannel.open(
      `${base.replace('http', 'ws')}/gw/api/v1/runtime/${projects.kid}/api/kernels/${kernelId}/channels?token=${encodeURIComponent(tokens.kid!)}`,
    );

    const api = new URL(base);
    const database = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432');
    const candidates: Target[] = [
      { name: 'the API', host: '127.0.0.1', port: Number(api.port) },
      { name: 'the database', host: database.hostname, port: Number(database.port || 5432) },
      { name: 'Redis', host: '127.0.0.1', port: 6379 },
      { name: "another project's runtime", host: '127.0.0.1', port: Number(startedPort(projects.neighbour!)) },
    ];
    for (const host of ['::1', ...(hostAddress ? [hostAddress] : [])]) {
      const server = await listen(host);
      listeners.push(server);
      candidates.push({ name: `a service on ${host}`, host, port: (server.address() as net.AddressInfo).port });
    }
    // Each target the platform's side reaches: a kernel's refusal is then the isolation's, not a closed port.
    for (const target of candidates) if (await reachable(target)) targets.push(target);
  }, 120_000);

  afterAll(async () => {
    kernel?.close();
    for (const server of listeners) server.close();
    await t?.close();
  });

  it('cuts the runtimes off from the machine, and says so to the super administrators', async () => {
    const res = await call('root', 'GET', '/api/v1/admin_super/runtime-isolation');
    expect(res.statusCode).toBe(200);
    if (isRoot) {
      // CI runs as root with nftables (.ci/run installs it): there the rules must be in force.
      expect(res.json().data).toMatchObject({
        driver: 'local',
        network: 'isolated',
        reason: '',
        processesHidden: true,
      });
    } else {
      expect(res.json().data).toMatchObject({ network: 'open', processesHidden: false });
      expect(res.json().data.reason).toMatch(/root/);
    }
    expect((await call('kid', 'GET', '/api/v1/admin_super/runtime-isolation')).json().errorCode).not.toBe('1000');
  });

  it.skipIf(!isRoot)(
    "refuses a kernel's connections to the database, Redis, the API and other runtimes",
    async () => {
      // The API and the other runtime are always there; the database and Redis wherever they run.
      expect(targets.map((target) => target.name)).toEqual(
        expect.arrayContaining(['the API', "another project's runtime", 'a service on ::1']),
      );
      // (The metadata address and private networks are closed by the same rules: runtime-network.test. Nothing
      // here sends a packet that could leave the machine were the rules missing.)
      const probes = targets;
      const outputs = await kernel.execute(
        [
          'import errno, socket',
          'def probe(host, port):',
          '    try:',
          '        socket.create_connection((host, port), timeout=3).close()',
          "        return 'open'",
          '    except socket.timeout:',
          "        return 'timeout'",
          '    except OSError as error:',
          "        return errno.errorcode.get(error.errno, 'error')",
          ...probes.map((target) => `print(probe(${JSON.stringify(target.host)}, ${target.port}))`),
        ].join('\n'),
        60_000,
      );
      const verdicts = stdoutOf(outputs).trim().split('\n');
      expect(verdicts).toHaveLength(probes.length);
      for (const [i, target] of probes.entries()) {
        // Refused at once by the rules (not left to time out), and never opened.
        expect({ target: target.name, verdict: verdicts[i] }).toEqual({
          target: target.name,
          verdict: expect.stringMatching(/^(EHOSTUNREACH|EACCES|ECONNREFUSED|ENETUNREACH|EPERM)$/),
        });
      }
    },
    90_000,
  );

  it.skipIf(!isRoot)(
    'puts the rules back at the next start when they went behind its back',
    async () => {
      const table = ['list', 'table', 'inet', networkTableName(UID_BASE)];
      expect(spawnSync(NFT, table).status).toBe(0);
      // A firewall reloaded by the machine's own service, say.
      spawnSync(NFT, ['delete', 'table', 'inet', networkTableName(UID_BASE)]);
      expect(spawnSync(NFT, table).status).not.toBe(0);
      const project = (await call('kid', 'POST', '/gw/api/v1/projects', { name: 'Later' })).json().data.id;
      expect((await call('kid', 'POST', `/gw/api/v1/projects/${project}/runtime/start`, {})).json().errorCode).toBe(
        '1000',
      );
      expect(spawnSync(NFT, table).status).toBe(0);
      expect((await call('root', 'GET', '/api/v1/admin_super/runtime-isolation')).json().data.network).toBe('isolated');
    },
    90_000,
  );

  it.skipIf(!isRoot)("shows a kernel its own processes only, not other runtimes' or the server's", async () => {
    const outputs = await kernel.execute(
      [
        'import os',
        "pids = [p for p in os.listdir('/proc') if p.isdigit()]",
        'owners = {os.stat(f"/proc/{p}").st_uid for p in pids}',
        'print(len(pids), sorted(owners) == [os.getuid()])',
      ].join('\n'),
    );
    const [count, ownOnly] = stdoutOf(outputs).trim().split(' ');
    expect(Number(count)).toBeGreaterThan(0);
    expect(ownOnly).toBe('True');
    // The server's own process, which the kernel would otherwise see.
    const server = await kernel.execute(`import os\nprint(os.path.exists('/proc/${process.pid}'))`);
    expect(stdoutOf(server).trim()).toBe('False');
  });
});
