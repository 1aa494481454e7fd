import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../test/factories.js';
import { createScheduleWorld, type ScheduleWorld } from './schedule-test-world.js';

const S = '/api/v1/schedules';

describe('schedule students, export and statistics', () => {
  let w: ScheduleWorld;
  let scheduleId: string;
  let shortId: string;
  let quizId: string;

  beforeAll(async () => {
    w = await createScheduleWorld();
    scheduleId = (await w.createSchedule({ name: 'Reported' })).body.data.id;
    await w.call('teacher', 'POST', `${S}/${scheduleId}/start`);
    const given = async (taskId: string) =>
      (await w.call('teacher', 'POST', `${S}/${scheduleId}/tasks`, { taskId })).body.data.at(-1).id as string;
    shortId = await given(w.course.shortTaskId);
    quizId = await given(w.course.quizTaskId);
    // The student completes the first section in 2 minutes, answers both tasks and gets the short answer scored.
    await w.call('student', 'GET', `/api/v1/courses/sections/${w.course.sectionIds[0]}/learn`);
    await w.call('student', 'POST', `/api/v1/courses/sections/${w.course.sectionIds[0]}/record`, {
      seconds: 120,
      completed: true,
    });
    const short = await w.call('student', 'POST', `/api/v1/courses/tasks/${w.course.shortTaskId}/attempts`, {
      answers: [{ questionId: 's1', text: 'A fitted function' }],
    });
    await w.call('student', 'POST', `/api/v1/courses/tasks/${w.course.quizTaskId}/attempts`, {
      answers: [
        { questionId: 'q1', choices: [1] },
        { questionId: 'q2', choices: [0, 2, 3] },
      ],
    });
    await w.call('teacher', 'PUT', `${S}/tasks/${shortId}/scores`, {
      scores: [{ attemptId: short.body.data.id, score: 65 }],
    });
    // student2 only opens the second section.
    await w.call('student2', 'GET', `/api/v1/courses/sections/${w.course.sectionIds[1]}/learn`);
  });
  afterAll(() => w.t.close());

  it('lists each student’s progress per section, time spent, last activity and task results', async () => {
    const res = await w.call('teacher', 'GET', `${S}/${scheduleId}/students`);
    const rows = res.body.data as { username: string }[];
    expect(rows.map((r) => r.username)).toEqual(['student', 'student2']);
    expect(rows[0]).toMatchObject({
      className: '4-1',
      progress: 50,
      completedSections: 1,
      secondsSpent: 120,
      lastActiveAt: expect.any(String),
      sections: [
        { sectionId: w.course.sectionIds[0], completed: true, secondsSpent: 120 },
        { sectionId: w.course.sectionIds[1], completed: false, secondsSpent: 0 },
      ],
      tasks: [
        { scheduleTaskId: shortId, status: 'graded', score: 65 },
        { scheduleTaskId: quizId, status: 'graded', score: 100 },
      ],
    });
    expect(rows[1]).toMatchObject({
      progress: 0,
      secondsSpent: 0,
      lastActiveAt: expect.any(String),
      tasks: [{ status: 'todo', score: null }, { status: 'todo' }],
    });
    expect((await w.call('student', 'GET', `${S}/${scheduleId}/students`)).body.errorCode).toBe('1006');
    expect((await w.call('editor', 'GET', `${S}/${scheduleId}/students`)).body.errorCode).toBe('1004');
  });

  it.each([
    ['en', ['Username', 'Name', 'Class', 'School number', 'Progress (%)'], 'Not submitted'],
    ['ja', ['ユーザー名', '氏名', 'クラス', '学籍番号', '進捗（%）'], '未提出'],
  ])('exports the students to xlsx in the teacher’s language (%s)', async (language, headers, todo) => {
    const res = await w.t.app.inject({
      method: 'GET',
      url: `${S}/${scheduleId}/students/export`,
      headers: { 'x-authorization': w.tokens.teacher, language },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(row(1).slice(0, 5)).toEqual(headers);
    expect(row(1).slice(-2)).toEqual(['Explain', 'Quiz']);
    expect(row(2)).toEqual(['student', 'student', '4-1', undefined, 50, 1, 2, expect.any(String), 65, 100]);
    expect(row(3).slice(-2)).toEqual([todo, todo]);
  });

  it('gives class statistics: completion per task, score bands and progress per student', async () => {
    const res = await w.call('teacher', 'GET', `${S}/${scheduleId}/statistics`);
    expect(res.body.data).toEqual({
      students: 2,
      tasks: [
        { id: shortId, title: 'Explain', submitted: 1, graded: 1, completion: 50, averageScore: 65 },
        { id: quizId, title: 'Quiz', submitted: 1, graded: 1, completion: 50, averageScore: 100 },
      ],
      distribution: [
        { band: '0-59', count: 0 },
        { band: '60-69', count: 1 },
        { band: '70-79', count: 0 },
        { band: '80-89', count: 0 },
        { band: '90-100', count: 1 },
      ],
      progress: [
        { userId: w.ids.student.id, name: 'student', progress: 50 },
        { userId: w.ids.student2.id, name: 'student2', progress: 0 },
      ],
    });
  });

  it('shows administrators the schedules and teaching statistics of their scope only', async () => {
    await w.createSchedule({ name: 'Idle' });
    const list = await w.call('admin', 'GET', '/api/v1/admin_organize/schedule?keyword=Reported');
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id: scheduleId, schoolName: 'Test School' }] });
    const stats = await w.call('admin', 'GET', '/es/exprep/teaching?days=7');
    expect(stats.body.data).toEqual({
      schedules: { notStarted: 1, inProgress: 1, finished: 0 },
      schools: [{ schoolId: w.schoolId, schoolName: 'Test School', schedules: 2, activeStudents: 2 }],
      teachers: [
        { teacherId: w.ids.teacher.id, name: 'teacher', schoolName: 'Test School', schedules: 2, activeStudents: 2 },
      ],
    });
    expect((await w.call('teacher', 'GET', '/api/v1/admin_organize/schedule')).body.errorCode).toBe('1006');
    expect((await w.call('otherTeacher', 'GET', '/es/exprep/teaching')).body.errorCode).toBe('1006');
    // Visits older than the window do not count (a fresh sign-in: the clock moved past the old token).
    w.clock.advance(8 * 86_400_000);
    const { code, username, password } = w.users.admin;
    const later = await w.t.app.inject({
      method: 'GET',
      url: '/es/exprep/teaching?days=7',
      headers: { 'x-authorization': await signIn(w.t.app, code, username, password) },
    });
    expect(later.json().data.schools[0]).toMatchObject({ schedules: 2, activeStudents: 0 });
  });
});
