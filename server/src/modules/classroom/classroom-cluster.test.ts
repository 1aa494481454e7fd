import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createScheduleWorld, type ScheduleWorld } from '../schedule/schedule-test-world.js';
import { SESSION_POLL_MS } from './classroom-hub.js';
import { LiveTestClient } from './live-test-client.js';

/** A real Redis (`.ci/run` gives one to the server suites); without one these tests do not run. */
const REDIS_URL = process.env.TEST_REDIS_URL;
const S = '/api/v1/schedules';

/**
 * Two server processes of one deployment (one database, one Redis, each its own memory and sockets): a teacher
 * connected to one and students to the other stay in step.
 */
describe.skipIf(!REDIS_URL)('a classroom shared by processes', () => {
  let w: ScheduleWorld;
  const prefix = `aiedu-test:${randomUUID()}:`;
  const apps: FastifyInstance[] = [];
  const clients: LiveTestClient[] = [];
  let scheduleId: string;
  let sessionId: string;
  let one: string;
  let two: string;
  const sections = () => w.course.sectionIds as [string, string];

  /** Another process on the same database, with Redis or (`redis: false`) on its own; answers its address. */
  const serve = async (redis = true) => {
    const config = { ...w.t.config, redisUrl: redis ? REDIS_URL : undefined, redisKeyPrefix: prefix };
    const app = await buildApp({
      config,
      database: w.t.database,
      storage: w.t.storage,
      logger: false,
      now: w.clock.now,
    });
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  };
  const joined = async (base: string, token: string) => {
    const client = await LiveTestClient.connect(base, token);
    clients.push(client);
    client.send({ type: 'join', scheduleId });
    await client.next('joined');
    return client;
  };

  beforeAll(async () => {
    w = await createScheduleWorld();
    scheduleId = (await w.createSchedule({ name: 'Shared' })).body.data.id;
    await w.call('teacher', 'POST', `${S}/${scheduleId}/start`);
    sessionId = (await w.call('teacher', 'POST', `${S}/${scheduleId}/classroom/sessions`)).body.data.id;
    await w.call('teacher', 'POST', `${S}/sessions/${sessionId}/start`);
    one = await serve();
    two = await serve();
  });
  afterAll(async () => {
    for (const client of clients) client.socket.terminate();
    for (const app of apps) await app.close();
    await w.t.close();
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('moves students on one process as the teacher on the other moves, and shows them on the teacher’s roster', async () => {
    const teacher = await joined(one, w.tokens.teacher);
    await teacher.next('roster');
    const student = await joined(two, w.tokens.student);
    const online = await teacher.next('presence', (m) => m.student.userId === w.ids.student.id && m.student.online);
    expect(online.student.name).toBe('student');
    student.send({ type: 'at', scheduleId, sectionId: sections()[0] });
    await teacher.next('presence', (m) => m.student.sectionId === sections()[0]);

    const sent = Date.now();
    teacher.send({ type: 'show', scheduleId, sessionId, sectionId: sections()[1] });
    const moved = await student.next('session', (m) => m.session.sectionId === sections()[1]);
    // Through Redis, not the database poll every few seconds.
    expect(Date.now() - sent).toBeLessThan(SESSION_POLL_MS);
    expect(moved.session).toMatchObject({ id: sessionId, status: 'teaching' });

    // A student joining the other process later sees the teacher's roster grow, and a reconnect lands in place.
    const later = await joined(one, w.tokens.student2);
    expect(later.messages[0]).toMatchObject({ type: 'joined', session: { sectionId: sections()[1] } });
    const roster = await apps[1]!.inject({
      url: `${S}/${scheduleId}/classroom/roster`,
      headers: { 'x-authorization': w.tokens.teacher },
    });
    const onlineIds = (roster.json().data.students as { userId: string; online: boolean }[])
      .filter((s) => s.online)
      .map((s) => s.userId);
    expect(onlineIds.sort()).toEqual([w.ids.student.id, w.ids.student2.id].sort());

    await student.close();
    await teacher.next('presence', (m) => m.student.userId === w.ids.student.id && !m.student.online);
  });

  it('catches a process without Redis up from the database within seconds', async () => {
    const alone = await serve(false);
    const student = await joined(alone, w.tokens.student);
    await w.call('teacher', 'PUT', `${S}/sessions/${sessionId}/section`, { sectionId: sections()[0] });
    const caught = await student.next('session', (m) => m.session.sectionId === sections()[0], 3 * SESSION_POLL_MS);
    expect(caught.session.id).toBe(sessionId);
  });
});
