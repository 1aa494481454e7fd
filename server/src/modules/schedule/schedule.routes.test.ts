import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseEnrolments, operationLogs } from '../../platform/db/schema/index.js';
import { createScheduleWorld, type ScheduleWorld } from './schedule-test-world.js';

const S = '/api/v1/schedules';

describe('teaching schedules', () => {
  let w: ScheduleWorld;

  beforeAll(async () => {
    w = await createScheduleWorld();
  });
  afterAll(() => w.t.close());

  const enrolment = async (userId: string, courseId: string) => {
    const [row] = await w.db
      .select()
      .from(courseEnrolments)
      .where(and(eq(courseEnrolments.userId, userId), eq(courseEnrolments.courseId, courseId)));
    return row ?? null;
  };

  it('creates a schedule pinning the published version, and enrols the class on it', async () => {
    const created = await w.createSchedule();
    expect(created.status).toBe(200);
    const detail = created.body.data;
    expect(detail).toMatchObject({
      name: 'Autumn AI',
      status: 'notStarted',
      role: 'teacher',
      studentCount: 2,
      teachers: [{ id: w.ids.teacher.id, name: 'teacher' }],
      classes: [{ id: w.classId, name: '4-1' }],
    });
    expect(detail.courses).toEqual([
      expect.objectContaining({
        courseId: w.course.id,
        versionId: w.course.versionId,
        versionNumber: 1,
        state: 'open',
        latestVersionNumber: 1,
      }),
    ]);
    expect(detail.courses[0].sections.map((s: { title: string }) => s.title)).toEqual(['Model', 'Quiz']);
    expect(detail.courses[0].sections[0].tasks[0]).toMatchObject({ title: 'Explain', questionTypes: ['short'] });
    expect(await enrolment(w.ids.student.id, w.course.id)).toMatchObject({
      versionId: w.course.versionId,
      joinedVia: 'schedule',
    });
    expect(await enrolment(w.ids.loner.id, w.course.id)).toBeNull();
    const logs = await w.db.select().from(operationLogs).where(eq(operationLogs.module, 'schedule'));
    expect(logs.map((l) => [l.operation, (l.params as { id: string }).id])).toEqual([['create', detail.id]]);
  });

  it('lets any teacher of the school teach, certified or not, and names co-teachers of the school only', async () => {
    const made = await w.createSchedule({ name: 'Uncertified', teacherIds: [w.ids.editor.id] }, 'uncertified');
    expect(made.status).toBe(200);
    expect(made.body.data.teachers.map((t: { id: string }) => t.id).sort()).toEqual(
      [w.ids.uncertified.id, w.ids.editor.id].sort(),
    );
    expect((await w.call('editor', 'GET', `${S}/${made.body.data.id}`)).body.data.role).toBe('teacher');
    const sibling = await w.createSchedule({ teacherIds: [w.ids.siblingTeacher.id] });
    expect(sibling.status).toBe(404);
    expect(sibling.body.data).toEqual({ teacherIds: [w.ids.siblingTeacher.id] });
    const foreignClass = await w.createSchedule({ classIds: [w.classId] }, 'siblingTeacher');
    expect(foreignClass.body).toMatchObject({ errorCode: '1004', data: { classIds: [w.classId] } });
    const foreignStudent = await w.createSchedule({ studentIds: [w.ids.otherStudent.id] });
    expect(foreignStudent.body.errorCode).toBe('1004');
    expect((await w.createSchedule({}, 'student')).body.errorCode).toBe('1006');
  });

  it('shows a schedule to its teachers and students only', async () => {
    const id = (await w.createSchedule({ name: 'Private view' })).body.data.id;
    const student = await w.call('student', 'GET', `${S}/${id}`);
    expect(student.body.data).toMatchObject({ role: 'student', students: [] });
    for (const who of ['loner', 'editor', 'siblingTeacher', 'otherTeacher', 'otherStudent', 'admin'] as const) {
      const res = await w.call(who, 'GET', `${S}/${id}`);
      expect({ who, status: res.status, code: res.body.errorCode }).toEqual({ who, status: 404, code: '1004' });
    }
    const list = await w.call('editor', 'GET', `${S}?keyword=Private`);
    expect(list.body.data.total).toBe(0);
    // A student of the schedule may look but not change it.
    expect((await w.call('student', 'POST', `${S}/${id}/start`)).body.errorCode).toBe('1006');
  });

  it('lists the caller’s schedules with search, state filter and paging', async () => {
    const a = (await w.createSchedule({ name: 'List Alpha' })).body.data.id;
    await w.createSchedule({ name: 'List Beta' });
    await w.call('teacher', 'POST', `${S}/${a}/start`);
    const found = await w.call('teacher', 'GET', `${S}?keyword=list&size=1&page=2`);
    expect(found.body.data).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(found.body.data.list.map((s: { name: string }) => s.name)).toEqual(['List Alpha']);
    const started = await w.call('teacher', 'GET', `${S}?keyword=list&status=inProgress`);
    expect(started.body.data.list.map((s: { name: string }) => s.name)).toEqual(['List Alpha']);
    expect(started.body.data.list[0]).toMatchObject({ studentCount: 2, courses: [{ name: 'Teach me' }] });
  });

  it('moves not started → in progress → finished, and refuses every other move with 4201', async () => {
    const id = (await w.createSchedule({ name: 'Moves' })).body.data.id;
    const refused = async (path: string, method: 'POST' | 'PUT' = 'POST', body?: object) => {
      const res = await w.call('teacher', method, `${S}/${id}${path}`, body);
      return { status: res.status, code: res.body.errorCode, state: res.body.data?.status };
    };
    expect(await refused('/finish')).toEqual({ status: 409, code: '4201', state: 'notStarted' });
    const started = await w.call('teacher', 'POST', `${S}/${id}/start`);
    expect(started.body.data).toMatchObject({ status: 'inProgress', startedAt: '2026-11-22T01:00:00.000Z' });
    expect(await refused('/start')).toEqual({ status: 409, code: '4201', state: 'inProgress' });
    w.clock.advance(600_000);
    const finished = await w.call('teacher', 'POST', `${S}/${id}/finish`);
    expect(finished.body.data).toMatchObject({ status: 'finished', finishedAt: '2026-11-22T01:10:00.000Z' });
    expect(await refused('/finish')).toEqual({ status: 409, code: '4201', state: 'finished' });
    expect(await refused('/start')).toEqual({ status: 409, code: '4201', state: 'finished' });
    expect(await refused('', 'PUT', { name: 'Late' })).toEqual({ status: 409, code: '4201', state: 'finished' });
    // Students see it finished.
    expect((await w.call('student', 'GET', `${S}/${id}`)).body.data.status).toBe('finished');
  });

  it('deletes in any state: gone for teachers and students, enrolments kept', async () => {
    const id = (await w.createSchedule({ name: 'Doomed' })).body.data.id;
    await w.call('teacher', 'POST', `${S}/${id}/start`);
    expect((await w.call('student', 'DELETE', `${S}/${id}`)).body.errorCode).toBe('1006');
    expect((await w.call('teacher', 'DELETE', `${S}/${id}`)).body.errorCode).toBe('1000');
    expect((await w.call('teacher', 'GET', `${S}/${id}`)).status).toBe(404);
    expect((await w.call('student', 'GET', `${S}/${id}`)).status).toBe(404);
    expect((await w.call('teacher', 'DELETE', `${S}/${id}`)).status).toBe(404);
    expect((await w.call('teacher', 'GET', `${S}?keyword=Doomed`)).body.data.total).toBe(0);
    expect(await enrolment(w.ids.student.id, w.course.id)).not.toBeNull();
  });

  it('changes only what is sent and enrols students who come in', async () => {
    const id = (await w.createSchedule({ name: 'Grows' })).body.data.id;
    const renamed = await w.call('teacher', 'PUT', `${S}/${id}`, { name: 'Grown' });
    expect(renamed.body.data).toMatchObject({ name: 'Grown', studentCount: 2, classes: [{ id: w.classId }] });
    const more = await w.call('teacher', 'PUT', `${S}/${id}`, { classIds: [w.classId, w.otherClassId] });
    expect(more.body.data.studentCount).toBe(3);
    expect(await enrolment(w.ids.loner.id, w.course.id)).toMatchObject({ versionId: w.course.versionId });
    expect((await w.call('loner', 'GET', `${S}/${id}`)).body.data.role).toBe('student');
    const picked = await w.call('teacher', 'PUT', `${S}/${id}`, {
      classIds: [w.classId],
      studentIds: [w.ids.loner.id],
    });
    expect(picked.body.data).toMatchObject({ studentCount: 3, students: [{ id: w.ids.loner.id }] });
  });

  it('keeps the pinned version when the course is revised, until the teacher moves the schedule', async () => {
    const course = await w.publishCourse('Revised later');
    const id = (await w.createSchedule({ name: 'Pinned', courses: [{ courseId: course.id }] })).body.data.id;
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/revision`);
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    const before = (await w.call('teacher', 'GET', `${S}/${id}`)).body.data.courses[0];
    expect(before).toMatchObject({ versionId: course.versionId, versionNumber: 1, latestVersionNumber: 2 });
    expect((await enrolment(w.ids.student.id, course.id))!.versionId).toBe(course.versionId);
    const moved = await w.call('teacher', 'PUT', `${S}/${id}`, {
      courses: [{ courseId: course.id, versionId: before.latestVersionId }],
    });
    expect(moved.body.data.courses[0]).toMatchObject({ versionNumber: 2, versionId: before.latestVersionId });
    expect((await enrolment(w.ids.student.id, course.id))!.versionId).toBe(before.latestVersionId);
  });

  it('refuses courses that cannot be taught: closed, unknown, or another customer’s', async () => {
    const closed = await w.publishCourse('Closing');
    await w.call('teacher', 'POST', `/api/v1/courses/${closed.id}/close`);
    expect((await w.createSchedule({ courses: [{ courseId: closed.id }] })).body.errorCode).toBe('4002');
    const draft = await w.buildCourse({ name: 'Draft only' });
    expect((await w.createSchedule({ courses: [{ courseId: draft.id }] })).body.errorCode).toBe('4105');
    const theirs = await w.call('otherTeacher', 'POST', '/api/v1/courses', { name: 'Theirs', ...w.category });
    expect((await w.createSchedule({ courses: [{ courseId: theirs.body.data.id }] })).body.errorCode).toBe('1004');
    const twice = await w.createSchedule({ courses: [{ courseId: w.course.id }, { courseId: w.course.id }] });
    expect(twice.body.errorCode).toBe('1001');
  });

  it('offers the school’s teachers, classes, students and the courses the teacher may teach', async () => {
    const options = await w.call('teacher', 'GET', `${S}/options`);
    expect(options.body.data.classes.map((c: { name: string }) => c.name)).toEqual(['4-1', '5-2']);
    expect(options.body.data.classes[0]).toMatchObject({ stuCount: 2, grade: 4 });
    expect(options.body.data.teachers.map((t: { name: string }) => t.name)).not.toContain('sibling');
    const courses = await w.call('teacher', 'GET', `${S}/options/courses?keyword=teach`);
    expect(courses.body.data).toEqual([
      expect.objectContaining({ id: w.course.id, currentVersionId: w.course.versionId, versions: [expect.anything()] }),
    ]);
    const students = await w.call('teacher', 'GET', `${S}/options/students?keyword=lon`);
    expect(students.body.data).toEqual([{ id: w.ids.loner.id, name: 'loner', username: 'loner', className: '5-2' }]);
  });
});
