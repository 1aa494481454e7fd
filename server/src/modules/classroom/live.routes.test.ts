import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../test/factories.js';
import { createScheduleWorld, type ScheduleWorld } from '../schedule/schedule-test-world.js';
import { LiveTestClient } from './live-test-client.js';

const S = '/api/v1/schedules';

describe('the live classroom socket', () => {
  let w: ScheduleWorld;
  let base: string;
  let scheduleId: string;
  let sessionId: string;
  const open: LiveTestClient[] = [];
  const connect = async (token: string, language = 'en') => {
    const client = await LiveTestClient.connect(base, token, language);
    open.push(client);
    return client;
  };
  /** A client that joined the classroom and got its answer. */
  const joined = async (token: string) => {
    const client = await connect(token);
    client.send({ type: 'join', scheduleId });
    await client.next('joined');
    return client;
  };
  const [first, second] = [0, 1];

  beforeAll(async () => {
    w = await createScheduleWorld();
    scheduleId = (await w.createSchedule({ name: 'Live' })).body.data.id;
    await w.call('teacher', 'POST', `${S}/${scheduleId}/start`);
    sessionId = (await w.call('teacher', 'POST', `${S}/${scheduleId}/classroom/sessions`)).body.data.id;
    await w.call('teacher', 'POST', `${S}/sessions/${sessionId}/start`);
    base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const client of open) client.socket.terminate();
    await w.t.close();
  });

  it('opens only with an access token whose sign-in stands, on its own path', async () => {
    expect(await LiveTestClient.refusal(base, '')).toBe(401);
    expect(await LiveTestClient.refusal(base, '?token=not-a-token')).toBe(401);
    expect(await LiveTestClient.refusal(base, `?token=${w.tokens.student}`)).toBeNull();
    const other = await LiveTestClient.refusal(base, `x?token=${w.tokens.student}`);
    expect(other).toBe(404);
  });

  it('refuses a classroom to anyone outside the schedule, with the catalogue message in their language', async () => {
    const loner = await connect(w.tokens.loner, 'zh_CHS');
    loner.send({ type: 'join', scheduleId });
    expect(await loner.next('refused')).toEqual({
      type: 'refused',
      scheduleId,
      errorCode: '1004',
      errorMsg: '页面或资源不存在',
    });
    const outsider = await connect(w.tokens.otherTeacher);
    outsider.send({ type: 'join', scheduleId });
    expect((await outsider.next('refused')).errorCode).toBe('1004');
    // Nothing of the classroom reaches them when it moves.
    outsider.send({ type: 'show', scheduleId, sessionId, sectionId: w.course.sectionIds[second]! });
    expect((await outsider.next('refused')).errorCode).toBe('1004');
    outsider.send({ type: 'bogus' });
    expect((await outsider.next('refused')).errorCode).toBe('1001');
    expect(outsider.messages.some((m) => m.type === 'session' || m.type === 'joined')).toBe(false);
  });

  it('moves a following student to the section the teacher shows, and keeps the teacher’s roster live', async () => {
    const teacher = await connect(w.tokens.teacher);
    teacher.send({ type: 'join', scheduleId });
    expect(await teacher.next('joined')).toMatchObject({
      role: 'teacher',
      session: { id: sessionId, status: 'teaching', sectionId: w.course.sectionIds[first] },
    });
    await teacher.next('roster');
    const student = await joined(w.tokens.student);
    expect(student.messages[0]).toMatchObject({ role: 'student', session: { sectionId: w.course.sectionIds[first] } });
    const online = await teacher.next('presence', (m) => m.student.userId === w.ids.student.id && m.student.online);
    expect(online.student).toMatchObject({ name: 'student', className: '4-1', submitted: false });
    student.send({ type: 'at', scheduleId, sectionId: w.course.sectionIds[first]! });
    await teacher.next('presence', (m) => m.student.sectionId === w.course.sectionIds[first]);

    teacher.send({ type: 'show', scheduleId, sessionId, sectionId: w.course.sectionIds[second]! });
    const moved = await student.next('session');
    expect(moved.session).toMatchObject({ id: sessionId, sectionId: w.course.sectionIds[second] });
    // The Quiz section has a task: nobody has answered it yet.
    const roster = await teacher.next('roster', (m) => m.roster.sectionId === w.course.sectionIds[second]);
    expect(roster.roster.students.find((s) => s.userId === w.ids.student.id)).toMatchObject({
      online: true,
      submitted: false,
    });

    // A student may not move the class.
    student.send({ type: 'show', scheduleId, sessionId, sectionId: w.course.sectionIds[first]! });
    expect((await student.next('refused')).errorCode).toBe('1007');

    // An answer to the section's task shows on the roster.
    const answers = [
      { questionId: 'q1', choices: [1] },
      { questionId: 'q2', choices: [0, 2, 3] },
    ];
    await w.call('student', 'POST', `/api/v1/courses/tasks/${w.course.quizTaskId}/attempts`, { answers });
    student.send({ type: 'submitted', scheduleId });
    const answered = await teacher.next('presence', (m) => m.student.submitted === true);
    expect(answered.student.userId).toBe(w.ids.student.id);

    // A move by the HTTP call reaches the sockets as well; the student then leaves.
    await w.call('teacher', 'PUT', `${S}/sessions/${sessionId}/section`, { sectionId: w.course.sectionIds[first] });
    expect((await student.next('session')).session.sectionId).toBe(w.course.sectionIds[first]);
    await student.close();
    const gone = await teacher.next('presence', (m) => m.student.userId === w.ids.student.id && !m.student.online);
    expect(gone.student.sectionId).toBeNull();
  });

  it('lands a student who reconnects where the class is', async () => {
    await w.call('teacher', 'PUT', `${S}/sessions/${sessionId}/section`, { sectionId: w.course.sectionIds[second] });
    const again = await joined(w.tokens.student2);
    expect(again.messages.find((m) => m.type === 'joined')).toMatchObject({
      session: { sectionId: w.course.sectionIds[second] },
    });
  });

  it('asks for a fresh token when the socket’s expires, and closes it (4401) when none comes', async () => {
    w.t.app.classroom.renewWindowMs = 1_000;
    const token = await signIn(w.t.app, w.users.student2.code, 'student2', w.users.student2.password);
    // Within a second of its expiry.
    w.clock.advance(30 * 60_000 - 1_000);
    const kept = await joined(token);
    const dropped = await joined(token);
    w.clock.advance(2_000);
    await kept.next('renew-token');
    await dropped.next('renew-token');
    kept.send({
      type: 'token',
      token: await signIn(w.t.app, w.users.student2.code, 'student2', w.users.student2.password),
    });
    expect((await dropped.closed).code).toBe(4401);
    // The renewed socket still hears the class.
    w.tokens.teacher = await signIn(w.t.app, w.users.teacher.code, 'teacher', w.users.teacher.password);
    await w.call('teacher', 'PUT', `${S}/sessions/${sessionId}/section`, { sectionId: w.course.sectionIds[first] });
    expect((await kept.next('session')).session.sectionId).toBe(w.course.sectionIds[first]);
  });

  it('closes a socket at once (4401) when its sign-in ends', async () => {
    const token = await signIn(w.t.app, w.users.student.code, 'student', w.users.student.password);
    const client = await joined(token);
    await w.t.app.inject({ method: 'POST', url: '/gw/api/v1/auth/logout', headers: { 'x-authorization': token } });
    expect((await client.closed).code).toBe(4401);
    expect(await LiveTestClient.refusal(base, `?token=${token}`)).toBe(401);
  });
});
