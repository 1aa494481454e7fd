import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROLES, type ContainerType } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { projects, runtimes } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { ServerInstance } from '../../platform/server-instances.js';
import { buildCustomer, buildUser, createProjectAs, signIn, testClock } from '../../test/factories.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { RuntimeDriver, RuntimeEndpoint } from './runtime-driver.js';
import type { RuntimeAvailability } from './runtime-install.js';
import { RuntimeManager } from './runtime-manager.js';

/** How a stand-in Jupyter server answers the list of kernels. */
type Answer = 'idle' | 'busy' | 'error' | 'never';

/** A Jupyter server that only answers `GET /api/kernels`, as told; `never` holds the request open. */
async function fakeJupyter(answer: Answer) {
  const held = { open: 0, received: 0 };
  const server = http.createServer((req, res) => {
    held.received += 1;
    if (answer === 'never') {
      held.open += 1;
      req.socket.once('close', () => (held.open -= 1));
      return;
    }
    if (answer === 'error') return res.writeHead(500).end('{"message":"internal"}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer === 'busy' ? [{ id: 'k', execution_state: 'busy' }] : []));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint: RuntimeEndpoint = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: 'token',
  };
  return { endpoint, held, close: () => (server.closeAllConnections(), server.close()) };
}

/** People of one customer who all press Start at once. */
const CROWD = ['cat', 'dan', 'fay', 'gus'];

describe('the runtime manager with a stand-in driver', () => {
  let t: TestApp;
  const clock = testClock();
  const people: Record<string, { userId: string; customerId: string }> = {};
  const endpoints = new Map<string, RuntimeEndpoint>();
  const closers: (() => unknown)[] = [];
  const managers: RuntimeManager[] = [];

  /** A driver whose runtimes are the stand-in servers given to their projects (a start with none fails). */
  const driver = {
    limitsMode: 'none',
    start: async (project: { id: string }) => {
      const endpoint = endpoints.get(project.id);
      if (!endpoint) throw new AppError('CONTAINER_START_FAILED');
      return endpoint;
    },
    stop: async () => undefined,
    status: () => 'STOPPED',
    usage: async () => null,
    onExit: () => undefined,
    warm: () => undefined,
    stopAll: async () => undefined,
  } as unknown as RuntimeDriver;

  async function manager() {
    const ctx = { db: t.database.db, now: clock.now, config: t.config } as unknown as AppContext;
    const instance = new ServerInstance(ctx, 'test-secret-test-secret-test-secret');
    await instance.register();
    const availability = { current: { state: 'ready' } } as unknown as RuntimeAvailability;
    const log = { info: () => undefined, warn: () => undefined };
    const created = new RuntimeManager(ctx, driver, availability, instance, log);
    managers.push(created);
    return created;
  }

  /** Projects are made before any test moves the clock (past the sign-ins' tokens). */
  const made = new Map<string, typeof projects.$inferSelect>();
  const project = (name: string) => made.get(name)!;

  const stateOf = async (projectId: string) =>
    (await t.database.db.select().from(runtimes).where(eq(runtimes.projectId, projectId)))[0] ?? null;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    // Each test's people belong to a customer of their own, with the limits the test is about.
    const groups = [
      { limits: {}, names: ['ann'] },
      { limits: { containerConcurrency: 1 }, names: CROWD },
      { limits: { maxStartsPerPerson: 1 }, names: ['eve'] },
    ];
    const tokens: Record<string, string> = {};
    for (const { limits, names } of groups) {
      const customer = await buildCustomer(t.database.db, limits);
      for (const username of names) {
        const user = await buildUser(t.database.db, { customerId: customer.id, username, roles: [ROLES.student] });
        tokens[username] = await signIn(t.app, customer.code, username, user.password);
        people[username] = { userId: user.id, customerId: customer.id };
      }
    }
    const owned: [string, string][] = [
      ...(['never', 'error', 'busy', 'idle'] as const).map((answer): [string, string] => ['ann', `probe-${answer}`]),
      ...CROWD.map((name): [string, string] => [name, `at-once-${name}`]),
      ['eve', 'mine-a'],
      ['eve', 'mine-b'],
      ['ann', 'overlap'],
    ];
    for (const [owner, name] of owned) {
      const id = await createProjectAs(t.app, tokens[owner]!, name);
      const [row] = await t.database.db.select().from(projects).where(eq(projects.id, id));
      made.set(name, row!);
    }
  });
  afterAll(async () => {
    for (const m of managers) await m.close();
    for (const close of closers) await close();
    await t.close();
  });

  it('culls an idle runtime while another Jupyter never answers, and one it cannot ask only after twice the idle time', async () => {
    const m = await manager();
    const started: Record<Answer, string> = { never: '', error: '', busy: '', idle: '' };
    const servers: Partial<Record<Answer, Awaited<ReturnType<typeof fakeJupyter>>>> = {};
    // The one that never answers starts first, so it is first in the tick's round.
    for (const answer of ['never', 'error', 'busy', 'idle'] as const) {
      const server = await fakeJupyter(answer);
      closers.push(server.close);
      servers[answer] = server;
      const row = project(`probe-${answer}`);
      endpoints.set(row.id, server.endpoint);
      await m.start(row, people.ann!, 'BASIC' as ContainerType);
      started[answer] = row.id;
    }
    clock.advance((t.config.runtimeIdleMinutes + 1) * 60_000);

    const tick = m.tick();
    // The idle runtime is stopped while the probe of the silent one is still waiting for its answer.
    await waitFor(async () => (await stateOf(started.idle))?.state === 'STOPPED');
    expect(servers.never!.held.open).toBe(1);
    expect(await stateOf(started.idle)).toMatchObject({ state: 'STOPPED', stopReason: 'idle' });

    // The silent one's probe gives up in a few seconds; what could not be asked is not culled.
    await tick;
    await waitFor(() => servers.never!.held.open === 0);
    expect(servers.never!.held.received).toBe(1);
    for (const answer of ['never', 'error', 'busy'] as const) {
      expect({ answer, state: (await stateOf(started[answer]))?.state }).toEqual({ answer, state: 'RUNNING' });
    }

    // Silent for twice the idle time, the ones it cannot ask are culled after all; the busy one runs on.
    clock.advance(t.config.runtimeIdleMinutes * 60_000);
    await m.tick();
    for (const answer of ['never', 'error'] as const) {
      expect({ answer, runtime: await stateOf(started[answer]) }).toMatchObject({
        answer,
        runtime: { state: 'STOPPED', stopReason: 'idle' },
      });
    }
    expect((await stateOf(started.busy))?.state).toBe('RUNNING');
    await m.stop(started.busy, 'user');
  });

  /**
   * A manager running project "overlap", whose driver holds every stop until `release`: `stops()` counts the stops
   * begun. `idleRound` moves past the idle time and starts the timer's round, answering once its stop is held.
   * `restore` gives the driver its own stop back.
   */
  async function runningWithHeldStops() {
    const m = await manager();
    const server = await fakeJupyter('idle');
    closers.push(server.close);
    const row = project('overlap');
    endpoints.set(row.id, server.endpoint);
    await m.start(row, people.ann!, 'BASIC' as ContainerType);
    const realStop = driver.stop;
    let stops = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    driver.stop = async () => {
      stops += 1;
      await gate;
    };
    const idleRound = async () => {
      clock.advance((t.config.runtimeIdleMinutes + 1) * 60_000);
      const round = m.tick();
      await waitFor(() => stops === 1);
      // Wrapped: an async function's returned promise would be awaited with it.
      return { round };
    };
    return { m, row, stops: () => stops, idleRound, release, restore: () => (driver.stop = realStop) };
  }

  /** The row reads `expected` for several reads: database round trips enough for anything not waiting to finish. */
  async function readsSeveralTimes(projectId: string, expected: { state: string; stopReason: string }) {
    for (let read = 0; read < 5; read += 1) expect(await stateOf(projectId)).toMatchObject(expected);
  }

  it('ends a stop a running round began before the next round returns, and never stops a runtime twice at once', async () => {
    const { m, row, stops, idleRound, release, restore } = await runningWithHeldStops();
    try {
      // The timer's round culls the idle runtime; its driver takes its time to stop it.
      const { round: timers } = await idleRound();
      // A round asked for meanwhile (the test's, another timer's) and a user's stop both wait for that stop.
      const returned: string[] = [];
      const asked = m.tick().then(() => returned.push('round'));
      const byUser = m.stop(row.id, 'user').then(() => returned.push('user stop'));
      await readsSeveralTimes(row.id, { state: 'STOPPING', stopReason: 'idle' });
      expect(returned).toEqual([]);
      release();
      await asked;
      expect(await stateOf(row.id)).toMatchObject({ state: 'STOPPED', stopReason: 'idle' });
      await Promise.all([timers, byUser]);
      expect(returned.sort()).toEqual(['round', 'user stop']);
      expect(stops()).toBe(1);
    } finally {
      restore();
    }
  });

  it("closes once a stop the timer's round began is over, so its last writes reach the database", async () => {
    const { m, row, stops, idleRound, release, restore } = await runningWithHeldStops();
    try {
      const { round } = await idleRound();
      // The process shuts down meanwhile: closing waits for the stop.
      managers.splice(managers.indexOf(m), 1);
      let closed = false;
      const closing = m.close().then(() => (closed = true));
      await readsSeveralTimes(row.id, { state: 'STOPPING', stopReason: 'idle' });
      expect(closed).toBe(false);
      release();
      await Promise.all([round, closing]);
      expect(await stateOf(row.id)).toMatchObject({ state: 'STOPPED', stopReason: 'idle' });
      expect(stops()).toBe(1);
    } finally {
      restore();
    }
  });

  it('starts a runtime pressed while it stops once the stop is over', async () => {
    const { m, row, stops, release, restore } = await runningWithHeldStops();
    try {
      const stopped = m.stop(row.id, 'user');
      await waitFor(() => stops() === 1);
      let startReturned = false;
      const started = m.start(row, people.ann!, 'BASIC' as ContainerType).then(() => (startReturned = true));
      // The start waits for the stop.
      await readsSeveralTimes(row.id, { state: 'STOPPING', stopReason: 'user' });
      expect(startReturned).toBe(false);
      release();
      await Promise.all([stopped, started]);
      expect(await stateOf(row.id)).toMatchObject({ state: 'RUNNING', stopReason: null });
      expect(m.endpoint(row.id)).not.toBeNull();
    } finally {
      restore();
    }
    await m.stop(row.id, 'user');
  });

  it('lets exactly the customer concurrency run when starts come at once', async () => {
    const server = await fakeJupyter('idle');
    closers.push(server.close);
    const rows = CROWD.map((name) => project(`at-once-${name}`));
    for (const row of rows) endpoints.set(row.id, server.endpoint);
    // Processes of one deployment, each asked for one of the starts.
    const asked = await Promise.all(CROWD.map(() => manager()));

    const results = await Promise.allSettled(
      CROWD.map((name, i) => asked[i]!.start(rows[i]!, people[name]!, 'BASIC' as ContainerType)),
    );
    const codes = results.map((r) => (r.status === 'fulfilled' ? 'started' : (r.reason as AppError).code)).sort();
    expect(codes).toEqual(['3004', '3004', '3004', 'started']);
    const states = await Promise.all(rows.map(async (row) => (await stateOf(row.id))?.state ?? 'NA'));
    expect(states.sort()).toEqual(['NA', 'NA', 'NA', 'RUNNING']);
    for (const [i, row] of rows.entries()) await asked[i]!.stop(row.id, 'user');
  });

  it('lets each person run exactly the per-person maximum when starts come at once', async () => {
    const server = await fakeJupyter('idle');
    closers.push(server.close);
    const [a, b] = [project('mine-a'), project('mine-b')];
    for (const row of [a, b]) endpoints.set(row.id, server.endpoint);
    const [first, second] = [await manager(), await manager()];

    const results = await Promise.allSettled([
      first.start(a, people.eve!, 'BASIC' as ContainerType),
      second.start(b, people.eve!, 'BASIC' as ContainerType),
    ]);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(((refused[0] as PromiseRejectedResult).reason as AppError).code).toBe('3108');
    const states = [(await stateOf(a.id))?.state ?? 'NA', (await stateOf(b.id))?.state ?? 'NA'].sort();
    expect(states).toEqual(['NA', 'RUNNING']);
  });
});
