import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classroomSessions, operationLogs } from '../../platform/db/schema/index.js';
import { createScheduleWorld, type ScheduleWorld } from '../schedule/schedule-test-world.js';

const S = '/api/v1/schedules';
const SESSIONS = `${S}/sessions`;

describe('the live classroom over HTTP', () => {
  let w: ScheduleWorld;
  let scheduleId: string;
  /** A schedule that is in progress, with the world's course (sections "Model" and "Quiz"). */
  const inProgress = async (name: string) => {
    const id = (await w.createSchedule({ name, teacherIds: [w.ids.editor.id] })).body.data.id as string;
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    return id;
  };
  const open = (id: string, who: Parameters<ScheduleWorld['call']>[0] = 'teacher') =>
    w.call(who, 'POST', `${S}/${id}/classroom/sessions`);

  beforeAll(async () => {
    w = await createScheduleWorld();
    scheduleId = await inProgress('Live');
  });
  afterAll(() => w.t.close());

  it('opens, starts on the first section, moves, releases and finishes a lesson, logging start and finish', async () => {
    const opened = await open(scheduleId);
    expect(opened.body.data).toMatchObject({ status: 'notStarted', mode: 'follow', sectionId: null, revision: 0 });
    const id = opened.body.data.id as string;
    const started = await w.call('teacher', 'POST', `${SESSIONS}/${id}/start`);
    expect(started.body.data).toMatchObject({
      status: 'teaching',
      sectionId: w.course.sectionIds[0],
      startedBy: w.ids.teacher.id,
      revision: 1,
    });
    const moved = await w.call('editor', 'PUT', `${SESSIONS}/${id}/section`, { sectionId: w.course.sectionIds[1] });
    expect(moved.body.data).toMatchObject({ sectionId: w.course.sectionIds[1], revision: 2 });
    const free = await w.call('teacher', 'PUT', `${SESSIONS}/${id}/mode`, { mode: 'free' });
    expect(free.body.data).toMatchObject({ mode: 'free', revision: 3 });
    // Students see the same lesson where the class is.
    const view = await w.call('student', 'GET', `${S}/${scheduleId}/classroom`);
    expect(view.body.data).toMatchObject({
      role: 'student',
      scheduleStatus: 'inProgress',
      session: { id, status: 'teaching', mode: 'free', sectionId: w.course.sectionIds[1] },
    });
    expect(view.body.data.courses[0].sections.map((s: { id: string }) => s.id)).toEqual(w.course.sectionIds);
    const finished = await w.call('teacher', 'POST', `${SESSIONS}/${id}/finish`);
    expect(finished.body.data).toMatchObject({ status: 'finished' });
    expect(finished.body.data.finishedAt).not.toBeNull();
    const logs = await w.db.select().from(operationLogs).where(eq(operationLogs.module, 'classroom'));
    expect(logs.map((l) => [l.operation, (l.params as { id: string }).id])).toEqual([
      ['start', id],
      ['finish', id],
    ]);
  });

  it('refuses every move the state does not allow, naming the state, and changes nothing', async () => {
    const id = await inProgress('Illegal');
    const session = (await open(id)).body.data.id as string;
    const refused = async (method: 'POST' | 'PUT', path: string, body?: object) => {
      const res = await w.call('teacher', method, `${SESSIONS}/${session}/${path}`, body);
      return { status: res.status, code: res.body.errorCode, data: res.body.data };
    };
    const notTeaching = { status: 409, code: '4301', data: { status: 'notStarted' } };
    expect(await refused('POST', 'finish')).toEqual(notTeaching);
    expect(await refused('PUT', 'section', { sectionId: w.course.sectionIds[1] })).toEqual(notTeaching);
    // A second lesson while one is open.
    expect((await open(id)).body).toMatchObject({
      errorCode: '4301',
      data: { status: 'notStarted', sessionId: session },
    });
    await w.call('teacher', 'POST', `${SESSIONS}/${session}/start`);
    expect(await refused('POST', 'start')).toEqual({ ...notTeaching, data: { status: 'teaching' } });
    // A section of no course of the schedule.
    const other = await w.publishCourse('Not in it');
    expect(await refused('PUT', 'section', { sectionId: other.sectionIds[0] })).toMatchObject({ status: 404 });
    await w.call('teacher', 'POST', `${SESSIONS}/${session}/finish`);
    const finished = { status: 409, code: '4301', data: { status: 'finished' } };
    expect(await refused('POST', 'start')).toEqual(finished);
    expect(await refused('POST', 'finish')).toEqual(finished);
    expect(await refused('PUT', 'mode', { mode: 'free' })).toEqual(finished);
    const [row] = await w.db.select().from(classroomSessions).where(eq(classroomSessions.id, session));
    expect(row).toMatchObject({ status: 'finished', sectionId: w.course.sectionIds[0], mode: 'follow' });
    // After a finished lesson, the next one may open.
    expect((await open(id)).body.data.status).toBe('notStarted');
  });

  it('opens lessons only while the schedule is in progress', async () => {
    const notStarted = (await w.createSchedule({ name: 'Later' })).body.data.id as string;
    expect((await open(notStarted)).body).toMatchObject({ errorCode: '4201', data: { status: 'notStarted' } });
    const id = await inProgress('Ends');
    const session = (await open(id)).body.data.id as string;
    await w.call('teacher', 'POST', `${S}/${id}/finish`);
    const start = await w.call('teacher', 'POST', `${SESSIONS}/${session}/start`);
    expect(start.body).toMatchObject({ errorCode: '4201', data: { status: 'finished' } });
  });

  it('leaves the lesson to the schedule’s teachers: students get 1006, others see nothing', async () => {
    const session = (await open(await inProgress('Theirs'))).body.data.id as string;
    const start = (who: Parameters<ScheduleWorld['call']>[0]) => w.call(who, 'POST', `${SESSIONS}/${session}/start`);
    expect((await start('student')).body.errorCode).toBe('1006');
    for (const who of ['uncertified', 'siblingTeacher', 'otherTeacher'] as const) {
      expect({ who, code: (await start(who)).body.errorCode }).toEqual({ who, code: '1004' });
    }
    for (const who of ['loner', 'otherStudent', 'admin'] as const) {
      const res = await w.call(who, 'GET', `${S}/${scheduleId}/classroom`);
      expect({ who, status: res.status }).toEqual({ who, status: 404 });
    }
    const [row] = await w.db.select().from(classroomSessions).where(eq(classroomSessions.id, session));
    expect(row!.status).toBe('notStarted');
  });

  it('keeps lesson notes per section for the schedule’s teachers only, never its students', async () => {
    const notes = `${S}/${scheduleId}/classroom/notes`;
    const [first, second] = w.course.sectionIds;
    const saved = await w.call('teacher', 'PUT', notes, { sectionId: first, body: '# Ask about *models*' });
    expect(saved.body.data).toMatchObject({ sectionId: first, body: '# Ask about *models*', updatedBy: 'teacher' });
    await w.call('editor', 'PUT', notes, { sectionId: second, body: 'Quiz: 5 minutes' });
    await w.call('editor', 'PUT', notes, { sectionId: first, body: 'Rewritten' });
    const read = await w.call('teacher', 'GET', notes);
    expect(
      (read.body.data as { sectionId: string; body: string; updatedBy: string }[])
        .map(({ sectionId, body, updatedBy }) => ({ sectionId, body, updatedBy }))
        .sort((a, b) => a.body.localeCompare(b.body)),
    ).toEqual([
      { sectionId: second, body: 'Quiz: 5 minutes', updatedBy: 'editor' },
      { sectionId: first, body: 'Rewritten', updatedBy: 'editor' },
    ]);
    expect((await w.call('student', 'GET', notes)).body.errorCode).toBe('1006');
    expect((await w.call('student', 'PUT', notes, { sectionId: first, body: 'mine' })).body.errorCode).toBe('1006');
    for (const who of ['uncertified', 'siblingTeacher', 'otherTeacher'] as const) {
      expect({ who, status: (await w.call(who, 'GET', notes)).status }).toEqual({ who, status: 404 });
    }
    const foreign = await w.publishCourse('Foreign notes');
    expect((await w.call('teacher', 'PUT', notes, { sectionId: foreign.sectionIds[0], body: 'x' })).status).toBe(404);
    expect((await w.call('teacher', 'PUT', notes, { sectionId: first, body: 'x'.repeat(20_001) })).status).toBe(400);
  });

  it('shows a teacher the sections of the schedule’s courses, and no other', async () => {
    const section = `${S}/${scheduleId}/classroom/section`;
    const shown = await w.call('uncertified', 'GET', `${S}/${scheduleId}/classroom`);
    expect(shown.status).toBe(404);
    const res = await w.call('teacher', 'GET', `${section}?sectionId=${w.course.sectionIds[1]}`);
    expect(res.body.data).toMatchObject({ id: w.course.sectionIds[1], title: 'Quiz', completed: false });
    expect(res.body.data.tasks[0].questions[0]).not.toHaveProperty('answer');
    const other = await w.publishCourse('Elsewhere');
    expect((await w.call('teacher', 'GET', `${section}?sectionId=${other.sectionIds[0]}`)).status).toBe(404);
    expect((await w.call('student', 'GET', `${section}?sectionId=${w.course.sectionIds[0]}`)).status).toBe(403);
  });

  it('counts the lessons taught per school and teacher for administrators of the scope', async () => {
    const res = await w.call('admin', 'GET', '/es/exprep/sessions?days=30');
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.teachers).toEqual([
      expect.objectContaining({ teacherId: w.ids.teacher.id, name: 'teacher', sessions: 2 }),
    ]);
    expect(res.body.data.schools).toEqual([expect.objectContaining({ schoolId: w.schoolId })]);
    const other = await w.call('otherTeacher', 'GET', '/es/exprep/sessions');
    expect(other.body.errorCode).toBe('1006');
  });
});
