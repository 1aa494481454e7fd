import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { runtimes, serverInstances } from '../../platform/db/schema/index.js';
import { buildCustomer, buildUser, signIn, testClock } from '../../test/factories.js';
import { JUPYTER_MISSING, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { INSTANCE_STOP_PATH } from './runtime-manager.js';
import { INSTANCE_SIGNATURE_HEADER } from '../../platform/server-instances.js';

/**
 * Two server processes on one database (as behind a load balancer): a runtime runs in the process that started
 * it, and everything the other one is asked about it (HTTP, kernel sockets, token renewals, stops) reaches it.
 */
describe.skipIf(JUPYTER_MISSING)('runtimes held by one of several server processes', () => {
  let t: TestApp;
  let other: FastifyInstance;
  const base: Record<'a' | 'b', string> = { a: '', b: '' };
  const clock = testClock();
  let account: { code: string; password: string };
  let token: string;
  let projectId: string;
  const app = (which: 'a' | 'b') => (which === 'a' ? t.app : other);

  const call = (which: 'a' | 'b', method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app(which).inject({ method, url, payload, headers: { 'x-authorization': token } });
  const proxy = () => `/gw/api/v1/runtime/${projectId}`;
  const wsUrl = (which: 'a' | 'b', rest: string) =>
    `${base[which].replace('http', 'ws')}${proxy()}${rest}?token=${encodeURIComponent(token)}`;
  const row = async () => {
    const [found] = await t.database.db.select().from(runtimes).where(eq(runtimes.projectId, projectId));
    return found!;
  };
  /** Heartbeats on the moved clock (the processes beat every 10 s of real time). */
  const beat = () => Promise.all([t.app.runtimes.instance.beat(), other.runtimes.instance.beat()]);
  const start = (which: 'a' | 'b') => call(which, 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    // The second process: the same database, configuration and secrets, its own runtimes.
    other = await buildApp({
      config: t.config,
      database: t.database,
      storage: t.storage,
      logger: false,
      now: clock.now,
    });
    const school = await buildCustomer(t.database.db);
    const user = await buildUser(t.database.db, { customerId: school.id, username: 'kid', roles: [ROLES.student] });
    account = { code: school.code, password: user.password };
    token = await signIn(t.app, account.code, 'kid', account.password);
    base.a = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base.b = await other.listen({ port: 0, host: '127.0.0.1' });
    // listen() resolves before the onListen hooks record each process's address; a request passed on in between
    // would go to the address a process has before it listens.
    const recorded = async (from: FastifyInstance, id: string) => from.runtimes.instance.addressOf(id);
    await waitFor(
      async () =>
        (await recorded(other, t.app.runtimes.instance.id)) === base.a &&
        (await recorded(t.app, other.runtimes.instance.id)) === base.b,
    );
    projectId = (await call('a', 'POST', '/gw/api/v1/projects', { name: 'Shared' })).json().data.id;
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('records each process at the address it listens on', async () => {
    const rows = await t.database.db.select().from(serverInstances);
    expect(rows.map((r) => [r.id, r.url]).sort()).toEqual(
      [
        [t.app.runtimes.instance.id, base.a],
        [other.runtimes.instance.id, base.b],
      ].sort(),
    );
  });

  it('runs a runtime in one process and reaches it through the other', async () => {
    expect((await start('a')).json()).toMatchObject({ data: { state: 'RUNNING' } });
    expect((await row()).holder).toBe(t.app.runtimes.instance.id);
    // Starting it again through the other process starts nothing there: the runtime is already running.
    expect((await start('b')).json()).toMatchObject({ data: { state: 'RUNNING', proxyPath: proxy() } });
    expect(other.runtimes.endpoint(projectId)).toBeNull();
    expect((await row()).holder).toBe(t.app.runtimes.instance.id);

    // HTTP through the other process, the file tree's rules checked where the runtime runs.
    const created = await call('b', 'POST', `${proxy()}/api/kernels`, { name: 'python3' });
    expect(created.statusCode).toBe(201);
    const kernelId = created.json().id;
    const saved = await call('b', 'PUT', `${proxy()}/api/contents/notes.txt`, {
      type: 'file',
      format: 'text',
      content: 'from b',
    });
    expect(saved.statusCode).toBe(201);
    const badName = await call('b', 'PUT', `${proxy()}/api/contents/bad*name.txt`, {
      type: 'file',
      format: 'text',
      content: 'x',
    });
    expect(badName.json()).toMatchObject({ errorCode: '3106' });
    const read = await call('a', 'GET', `${proxy()}/api/contents/notes.txt?content=1`);
    expect(read.json()).toMatchObject({ content: 'from b' });

    // A kernel socket through the other process: the runtime's process bridges it.
    const channel = await KernelChannel.open(wsUrl('b', `/api/kernels/${kernelId}/channels`));
    try {
      expect(stdoutOf(await channel.execute("print(open('notes.txt').read())")).trim()).toBe('from b');

      // Its token expires: the notice names a socket of the runtime's process, and the other process passes the
      // renewal on to it. The socket stays open on the fresh token.
      clock.advance((t.config.accessTokenTtlSeconds + 1) * 1000);
      await beat();
      await t.app.runtimeSockets.check();
      const notice = await channel.notice();
      expect(notice.socket.startsWith(`${t.app.runtimes.instance.id}.`)).toBe(true);
      token = await signIn(t.app, account.code, 'kid', account.password);
      const renewed = await call('b', 'PUT', `/gw/api/v1/runtime/sockets/${notice.socket}/token`);
      expect(renewed.json()).toMatchObject({ errorCode: '1000' });
      expect(stdoutOf(await channel.execute('print(6 * 7)')).trim()).toBe('42');
    } finally {
      channel.close();
    }
  }, 90_000);

  it('stops a runtime another process runs by asking that process', async () => {
    const stopped = await call('b', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`);
    expect(stopped.json()).toMatchObject({ data: { state: 'STOPPED', stopReason: 'user' } });
    expect(t.app.runtimes.endpoint(projectId)).toBeNull();
    expect((await call('b', 'GET', `${proxy()}/api/kernels`)).json()).toMatchObject({ errorCode: '3105' });
  }, 60_000);

  it('refuses a stop between processes that was not signed by one of them', async () => {
    expect((await start('a')).json()).toMatchObject({ data: { state: 'RUNNING' } });
    const path = INSTANCE_STOP_PATH.replace(':projectId', projectId);
    const unsigned = await t.app.inject({ method: 'POST', url: path, payload: { reason: 'user' } });
    expect(unsigned.json()).toMatchObject({ errorCode: '1006' });
    const forged = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { reason: 'user' },
      headers: { [INSTANCE_SIGNATURE_HEADER]: `${Date.now()}.not-a-signature` },
    });
    expect(forged.json()).toMatchObject({ errorCode: '1006' });
    // Signed for another stop: refused too.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { reason: 'user' },
      headers: { [INSTANCE_SIGNATURE_HEADER]: other.runtimes.instance.sign(`stop:${projectId}:idle`) },
    });
    expect(elsewhere.json()).toMatchObject({ errorCode: '1006' });
    expect(t.app.runtimes.endpoint(projectId)).not.toBeNull();
  }, 60_000);

  it('releases the runtimes of a process that stopped beating, which another process may then start', async () => {
    expect(t.app.runtimes.endpoint(projectId)).not.toBeNull();
    // The first process goes silent (as a pod cut off from the database): 45 s later it is taken for gone.
    t.app.runtimes.instance.stopBeating();
    clock.advance(46_000);
    await other.runtimes.instance.beat();
    await other.runtimes.tick();
    expect(await row()).toMatchObject({ state: 'STOPPED', stopReason: 'shutdown' });
    expect((await call('b', 'GET', `${proxy()}/api/kernels`)).json()).toMatchObject({ errorCode: '3105' });

    expect((await start('b')).json()).toMatchObject({ data: { state: 'RUNNING' } });
    expect((await row()).holder).toBe(other.runtimes.instance.id);
    // The silent process finds out at its next tick (its database reachable again) and stops its copy, leaving the row to the new holder.
    await t.app.runtimes.tick();
    expect(t.app.runtimes.endpoint(projectId)).toBeNull();
    expect(await row()).toMatchObject({ state: 'RUNNING', holder: other.runtimes.instance.id });
    const kernels = await call('a', 'GET', `${proxy()}/api/kernels`);
    expect(kernels.statusCode).toBe(200);
  }, 60_000);

  it('stops at once the runtimes of a process it replaces at the same address', async () => {
    const ghost = '00000000-0000-4000-8000-00000000000a';
    const now = clock.now();
    await t.database.db.insert(serverInstances).values({ id: ghost, url: base.a, startedAt: now, heartbeatAt: now });
    await t.database.db.update(runtimes).set({ holder: ghost }).where(eq(runtimes.projectId, projectId));
    await t.app.runtimes.listening(Number(new URL(base.a).port));
    expect(await row()).toMatchObject({ state: 'STOPPED', stopReason: 'shutdown' });
    const left = await t.database.db.select().from(serverInstances).where(eq(serverInstances.id, ghost));
    expect(left).toEqual([]);
    // The process that ran it finds out at its next tick and stops its copy.
    await other.runtimes.tick();
    expect(other.runtimes.endpoint(projectId)).toBeNull();
  }, 60_000);
});
