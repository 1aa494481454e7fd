import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, taskAttempts } from '../../platform/db/schema/index.js';
import { createScheduleWorld, type ScheduleWorld, type Who } from './schedule-test-world.js';

const S = '/api/v1/schedules';
const T = '/api/v1/schedules/tasks';
const MINUTE = 60_000;

describe('schedule tasks, due times and scores', () => {
  let w: ScheduleWorld;
  const at = (minutes: number) => new Date(w.clock.now().getTime() + minutes * MINUTE).toISOString();
  const answer = (who: Who, text = 'A function fitted to data', taskId = w.course.shortTaskId) =>
    w.call(who, 'POST', `/api/v1/courses/tasks/${taskId}/attempts`, { answers: [{ questionId: 's1', text }] });
  const mine = async (who: Who, scheduleId: string) =>
    (await w.call(who, 'GET', `${S}/${scheduleId}/tasks`)).body.data[0].mine;

  // Each test's schedules are deleted after it, so a schedule of an earlier test never decides a later answer.
  const made: string[] = [];

  /** A schedule of class 4-1 that gave the short-answer task, due in `dueIn` minutes. */
  const scheduleWithTask = async (name: string, dueIn: number | null = 5, course = w.course) => {
    const id = (await w.createSchedule({ name, courses: [{ courseId: course.id }] })).body.data.id as string;
    made.push(id);
    const dueAt = dueIn === null ? null : at(dueIn);
    const given = await w.call('teacher', 'POST', `${S}/${id}/tasks`, { taskId: course.shortTaskId, dueAt });
    expect(given.status).toBe(200);
    return { id, taskId: given.body.data[0].id as string, dueAt };
  };

  beforeAll(async () => {
    w = await createScheduleWorld();
  });
  afterAll(() => w.t.close());
  afterEach(async () => {
    for (const id of made.splice(0)) await w.call('teacher', 'DELETE', `${S}/${id}`);
  });

  it('gives tasks of the pinned versions only, once each', async () => {
    const { id } = await scheduleWithTask('Giving');
    const list = (await w.call('teacher', 'GET', `${S}/${id}/tasks`)).body.data;
    expect(list).toEqual([
      expect.objectContaining({
        taskId: w.course.shortTaskId,
        title: 'Explain',
        sectionTitle: 'Model',
        courseName: 'Teach me',
        questionTypes: ['short'],
        counts: { students: 2, submitted: 0, graded: 0 },
        mine: null,
      }),
    ]);
    const again = await w.call('teacher', 'POST', `${S}/${id}/tasks`, { taskId: w.course.shortTaskId });
    expect(again.body).toMatchObject({ errorCode: '1009', data: { reason: 'assigned' } });
    const other = await w.publishCourse('Not pinned');
    const foreign = await w.call('teacher', 'POST', `${S}/${id}/tasks`, { taskId: other.shortTaskId });
    expect(foreign.body.errorCode).toBe('1004');
    expect((await w.call('student', 'POST', `${S}/${id}/tasks`, { taskId: w.course.quizTaskId })).status).toBe(403);
  });

  it('takes answers only while the schedule is in progress and before the due time, by the server’s clock', async () => {
    const { id, taskId, dueAt } = await scheduleWithTask('Due soon', 5);
    expect(await mine('student', id)).toMatchObject({ status: 'todo', open: false });
    const early = await answer('student');
    expect({ status: early.status, code: early.body.errorCode }).toEqual({ status: 409, code: '4203' });

    await w.call('teacher', 'POST', `${S}/${id}/start`);
    expect(await mine('student', id)).toMatchObject({ open: true });
    expect((await answer('student')).body.data).toMatchObject({ status: 'pending' });
    expect(await mine('student', id)).toMatchObject({ status: 'pending', score: null });

    w.clock.advance(5 * MINUTE);
    expect((await answer('student')).body.errorCode).toBe('1000');
    w.clock.advance(1);
    const late = await answer('student');
    expect(late.body).toMatchObject({ errorCode: '4202', data: { dueAt } });
    expect(late.body.errorMsg).toBe('该任务已过截止时间，无法再提交');
    expect(await mine('student', id)).toMatchObject({ open: false, status: 'pending' });

    // One student's task reopened; the others' due time stays.
    const reopened = await w.call('teacher', 'POST', `${T}/${taskId}/reopen`, {
      userId: w.ids.student2.id,
      dueAt: at(10),
    });
    expect(reopened.body.errorCode).toBe('1000');
    expect((await answer('student2')).body.errorCode).toBe('1000');
    expect((await answer('student')).body.errorCode).toBe('4202');
    // Extended for everyone.
    await w.call('teacher', 'PUT', `${T}/${taskId}`, { dueAt: at(30) });
    expect((await answer('student')).body.errorCode).toBe('1000');
    const counts = (await w.call('teacher', 'GET', `${S}/${id}/tasks`)).body.data[0].counts;
    expect(counts).toEqual({ students: 2, submitted: 2, graded: 0 });
    const logs = await w.db.select().from(operationLogs).where(eq(operationLogs.module, 'schedule'));
    expect(logs.map((l) => l.operation)).toEqual(expect.arrayContaining(['assignTask', 'reopen', 'changeDue']));
  });

  it('leaves answers of students no schedule gave the task to the course', async () => {
    await scheduleWithTask('Not for the loner', 1);
    w.clock.advance(2 * MINUTE);
    expect((await w.call('loner', 'POST', `/api/v1/courses/${w.course.id}/join`)).body.errorCode).toBe('1000');
    expect((await answer('loner')).body.errorCode).toBe('1000');
  });

  it('reopens a task only for a student of the schedule', async () => {
    const { taskId } = await scheduleWithTask('Reopen checks');
    const res = await w.call('teacher', 'POST', `${T}/${taskId}/reopen`, { userId: w.ids.loner.id, dueAt: null });
    expect(res.body).toMatchObject({ errorCode: '1004', data: { userId: w.ids.loner.id } });
    const other = await w.call('editor', 'POST', `${T}/${taskId}/reopen`, { userId: w.ids.student.id, dueAt: null });
    expect(other.body.errorCode).toBe('1004');
  });

  it('scores answers one by one or in bulk, and the student sees score and comment', async () => {
    // A course of its own: answers to the same task under other schedules would count here too.
    const course = await w.publishCourse('Scored course');
    const { id, taskId } = await scheduleWithTask('Scoring', null, course);
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    await answer('student', 'first', course.shortTaskId);
    await answer('student', 'second', course.shortTaskId);
    await answer('student2', 'only', course.shortTaskId);
    const submissions = (await w.call('teacher', 'GET', `${T}/${taskId}/submissions`)).body.data as {
      userId: string;
      attempts: number;
      attempt: { id: string; answers: { text: string }[]; autoScore: number | null };
    }[];
    const of = (who: 'student' | 'student2') => submissions.find((s) => s.userId === w.ids[who].id)!;
    expect(of('student')).toMatchObject({ attempts: 2, attempt: { answers: [{ text: 'second' }], autoScore: null } });
    expect(of('student2').attempts).toBe(1);

    const scored = await w.call('teacher', 'PUT', `${T}/${taskId}/scores`, {
      scores: [
        { attemptId: of('student').attempt.id, score: 88, comment: 'Clear' },
        { attemptId: of('student2').attempt.id, score: 61 },
      ],
    });
    expect(scored.body.data.map((s: { attempt: { score: number } }) => s.attempt.score).sort()).toEqual([61, 88]);
    expect(await mine('student', id)).toMatchObject({ status: 'graded', score: 88, comment: 'Clear' });
    const counts = (await w.call('teacher', 'GET', `${S}/${id}/tasks`)).body.data[0].counts;
    expect(counts).toMatchObject({ submitted: 2, graded: 2 });

    // One by one, overriding an automatic check's score.
    await w.db
      .update(taskAttempts)
      .set({ autoScore: 70 })
      .where(eq(taskAttempts.id, of('student2').attempt.id));
    const again = await w.call('teacher', 'PUT', `${T}/${taskId}/scores`, {
      scores: [{ attemptId: of('student2').attempt.id, score: 75, comment: 'Checked' }],
    });
    expect(again.body.data.find((s: { userId: string }) => s.userId === w.ids.student2.id).attempt).toMatchObject({
      score: 75,
      autoScore: 70,
      comment: 'Checked',
    });
  });

  it('refuses scores out of range, for another task or schedule, on choice tasks, and from outsiders', async () => {
    const { id, taskId } = await scheduleWithTask('Refusals', null);
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    const mineAnswer = (await answer('student')).body.data.id as string;
    const put = (who: Who, scheduleTaskId: string, attemptId: string, score: number) =>
      w.call(who, 'PUT', `${T}/${scheduleTaskId}/scores`, { scores: [{ attemptId, score }] });
    expect((await put('teacher', taskId, mineAnswer, 101)).body.errorCode).toBe('1001');
    expect((await put('teacher', taskId, mineAnswer, -1)).body.errorCode).toBe('1001');
    expect((await put('student', taskId, mineAnswer, 100)).body.errorCode).toBe('1006');
    expect((await put('editor', taskId, mineAnswer, 100)).body.errorCode).toBe('1004');

    const quiz = await w.call('teacher', 'POST', `${S}/${id}/tasks`, { taskId: w.course.quizTaskId });
    const quizTaskId = quiz.body.data.find((t: { taskId: string }) => t.taskId === w.course.quizTaskId).id;
    const graded = await w.call('student', 'POST', `/api/v1/courses/tasks/${w.course.quizTaskId}/attempts`, {
      answers: [{ questionId: 'q1', choices: [1] }],
    });
    expect(graded.body.data).toMatchObject({ status: 'graded', score: 50 });
    expect((await put('teacher', quizTaskId, graded.body.data.id, 100)).body.errorCode).toBe('4109');
    const wrongTask = await put('teacher', quizTaskId, mineAnswer, 100);
    expect(wrongTask.body).toMatchObject({ errorCode: '1004', data: { attemptIds: [mineAnswer] } });
    const [row] = await w.db.select().from(taskAttempts).where(eq(taskAttempts.id, mineAnswer));
    expect(row).toMatchObject({ score: null, status: 'pending' });
  });

  it('keeps a finished schedule read-only, with every answer and score kept', async () => {
    const { id, taskId } = await scheduleWithTask('Finishing', null);
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    const attemptId = (await answer('student')).body.data.id as string;
    await w.call('teacher', 'PUT', `${T}/${taskId}/scores`, { scores: [{ attemptId, score: 90 }] });
    await w.call('teacher', 'POST', `${S}/${id}/finish`);
    expect((await answer('student')).body.errorCode).toBe('4203');
    const rescore = await w.call('teacher', 'PUT', `${T}/${taskId}/scores`, { scores: [{ attemptId, score: 10 }] });
    expect(rescore.body).toMatchObject({ errorCode: '4201', data: { status: 'finished' } });
    expect((await w.call('teacher', 'PUT', `${T}/${taskId}`, { dueAt: null })).body.errorCode).toBe('4201');
    expect((await w.call('teacher', 'DELETE', `${T}/${taskId}`)).body.errorCode).toBe('4201');
    const add = await w.call('teacher', 'POST', `${S}/${id}/tasks`, { taskId: w.course.quizTaskId });
    expect(add.body.errorCode).toBe('4201');
    expect(await mine('student', id)).toMatchObject({ status: 'graded', score: 90, open: false });
    const study = (await w.call('student', 'GET', `${S}/study`)).body.data;
    expect(study.find((s: { id: string }) => s.id === id)).toMatchObject({ status: 'finished' });
  });

  it('shows a student their schedules in my study until one is deleted, keeping their record', async () => {
    const { id } = await scheduleWithTask('Study list', null);
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    await answer('student');
    const study = (await w.call('student', 'GET', `${S}/study`)).body.data;
    expect(study.find((s: { id: string }) => s.id === id)).toMatchObject({
      name: 'Study list',
      status: 'inProgress',
      teachers: [{ name: 'teacher' }],
      courses: [{ courseId: w.course.id, name: 'Teach me', versionNumber: 1, state: 'open' }],
      tasks: { assigned: 1, submitted: 1 },
    });
    expect((await w.call('loner', 'GET', `${S}/study`)).body.data).toEqual([]);
    await w.call('teacher', 'DELETE', `${S}/${id}`);
    const after = (await w.call('student', 'GET', `${S}/study`)).body.data;
    expect(after.map((s: { id: string }) => s.id)).not.toContain(id);
    const record = await w.call('student', 'GET', `/api/v1/courses/${w.course.id}/record`);
    expect(record.body.data.attempts.length).toBeGreaterThan(0);
    expect((await answer('student')).body.errorCode).toBe('1000');
  });
});
