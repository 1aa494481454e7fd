import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { experimentCopies } from '../../platform/db/schema/index.js';
import { buildCourse } from '../../test/course-factories.js';
import { buildCustomer, buildUser, signIn, testClock } from '../../test/factories.js';
import { JUPYTER_MISSING } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe.skipIf(JUPYTER_MISSING)('runtime quotas and the weekly compute balance', () => {
  let t: TestApp;
  const clock = testClock(new Date('2026-11-22T20:00:00+08:00'));
  const tokens: Record<string, string> = {};
  const projects: Record<string, string> = {};
  let custcode: string;
  const passwords: Record<string, string> = {};

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const start = (who: string, project: string) =>
    call(who, 'POST', `/gw/api/v1/projects/${projects[project]}/runtime/start`, {});
  const stop = (who: string, project: string) =>
    call(who, 'POST', `/gw/api/v1/projects/${projects[project]}/runtime/stop`, {});

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    const db = t.database.db;
    const customer = await buildCustomer(db, { containerConcurrency: 2, maxStartsPerPerson: 1 });
    custcode = customer.code;
    for (const [name, role] of [
      ['ann', ROLES.student],
      ['ben', ROLES.student],
      ['cat', ROLES.student],
      ['admin', ROLES.customerAdmin],
    ] as const) {
      const user = await buildUser(db, { customerId: customer.id, username: name, roles: [role] });
      tokens[name] = await signIn(t.app, customer.code, name, user.password);
      passwords[name] = user.password;
    }
    for (const [who, name] of [
      ['ann', 'a1'],
      ['ann', 'a2'],
      ['ben', 'b1'],
      ['cat', 'c1'],
    ] as const) {
      projects[name] = (await call(who, 'POST', '/gw/api/v1/projects', { name })).json().data.id;
    }
  }, 60_000);
  afterAll(() => t.close());

  it('refuses a container type the customer does not offer, before anything starts', async () => {
    const gpu = await call('cat', 'POST', `/gw/api/v1/projects/${projects.c1}/runtime/start`, { runtimeType: 'GPU' });
    expect(gpu.statusCode).toBe(403);
    expect(gpu.json()).toMatchObject({ errorCode: '3110', data: { offered: ['BASIC'] } });
    expect((await call('cat', 'GET', `/gw/api/v1/projects/${projects.c1}/runtime`)).json().data.state).not.toBe(
      'RUNNING',
    );
  });

  it('refuses a second project per person and a start beyond the customer concurrency', async () => {
    expect((await start('ann', 'a1')).json().data.state).toBe('RUNNING');
    const second = (await start('ann', 'a2')).json();
    expect(second.errorCode).toBe('3108');
    expect(second.data.running).toEqual([{ projectId: projects.a1, name: 'a1' }]);
    expect((await start('ben', 'b1')).json().data.state).toBe('RUNNING');
    const full = await start('cat', 'c1');
    expect(full.statusCode).toBe(409);
    expect(full.json().errorCode).toBe('3004');
    await stop('ben', 'b1');
    expect((await start('cat', 'c1')).json().data.state).toBe('RUNNING');
    await stop('cat', 'c1');
  }, 120_000);

  it('debits the balance per minute, stops the runtime when it runs out and resets on Monday', async () => {
    expect(
      (
        await call('admin', 'PUT', '/api/v1/admin/compute-allowances', { runtimeType: 'BASIC', weeklyMinutes: 3 })
      ).json().errorCode,
    ).toBe('1000');
    expect((await call('ann', 'GET', '/api/v1/admin/compute-allowances')).statusCode).toBe(403);
    // ann's a1 has been running since the first test at the same clock time.
    clock.advance(2 * 60_000);
    await t.app.runtimes.tick();
    let status = (await call('ann', 'GET', `/gw/api/v1/projects/${projects.a1}/runtime`)).json().data;
    expect(status).toMatchObject({ state: 'RUNNING', balance: { usedMinutes: 2, remainingMinutes: 1 } });
    clock.advance(60_000);
    await t.app.runtimes.tick();
    status = (await call('ann', 'GET', `/gw/api/v1/projects/${projects.a1}/runtime`)).json().data;
    expect(status).toMatchObject({
      state: 'STOPPED',
      stopReason: 'computeExhausted',
      balance: { remainingMinutes: 0 },
    });
    const again = await start('ann', 'a1');
    expect(again.json().errorCode).toBe('3005');
    // Monday 00:00 in Asia/Shanghai starts a new week.
    clock.advance(4 * 3_600_000);
    tokens.ann = await signIn(t.app, custcode, 'ann', passwords.ann!);
    const balance = (await call('ann', 'GET', '/gw/api/v1/runtime/balance')).json().data;
    expect(balance.find((b: { runtimeType: string }) => b.runtimeType === 'BASIC')).toMatchObject({
      // The type's size, as the runtime picker shows it.
      cpu: t.config.runtimeLimits.BASIC.cpu,
      memoryMb: t.config.runtimeLimits.BASIC.memoryMb,
      usedMinutes: 0,
      remainingMinutes: 3,
      resetsAt: '2026-11-29T16:00:00.000Z',
    });
  }, 120_000);
});

describe.skipIf(JUPYTER_MISSING)("the customer's study concurrency", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const projects: Record<string, string> = {};
  const call = (who: string, url: string) =>
    t.app.inject({ method: 'POST', url, payload: {}, headers: { 'x-authorization': tokens[who]! } });
  const start = (who: string, project: string) => call(who, `/gw/api/v1/projects/${projects[project]}/runtime/start`);

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db, { studyConcurrency: 1 });
    const teacher = await buildUser(db, { customerId: customer.id, username: 'teacher', roles: [ROLES.teacher] });
    const course = await buildCourse(db, { customerId: customer.id, ownerId: teacher.id });
    for (const name of ['ann', 'ben']) {
      const user = await buildUser(db, { customerId: customer.id, username: name, roles: [ROLES.student] });
      tokens[name] = await signIn(t.app, customer.code, name, user.password);
      for (const kind of ['experiment', 'own']) {
        const id = (
          await t.app.inject({
            method: 'POST',
            url: '/gw/api/v1/projects',
            payload: { name: `${name} ${kind}` },
            headers: { 'x-authorization': tokens[name]! },
          })
        ).json().data.id;
        projects[`${name}-${kind}`] = id;
        if (kind === 'experiment') {
          await db.insert(experimentCopies).values({
            courseId: course.courseId,
            userId: user.id,
            customerId: customer.id,
            templateProjectId: uuidv7(),
            projectId: id,
            questionId: 'q1',
          });
        }
      }
    }
  }, 60_000);
  afterAll(() => t.close());

  it("counts the runtimes of learners' course experiments, and only those", async () => {
    expect((await start('ann', 'ann-experiment')).json().data.state).toBe('RUNNING');
    const full = await start('ben', 'ben-experiment');
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ errorCode: '3004', data: { limit: 'study' } });
    // A project of one's own is no study: the customer's container concurrency (none here) is its limit.
    expect((await start('ben', 'ben-own')).json().data.state).toBe('RUNNING');
    await call('ann', `/gw/api/v1/projects/${projects['ann-experiment']}/runtime/stop`);
    expect((await start('ben', 'ben-experiment')).json().data.state).toBe('RUNNING');
  }, 120_000);
});
