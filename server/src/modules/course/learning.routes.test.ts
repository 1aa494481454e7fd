import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseVersions } from '../../platform/db/schema/index.js';
import { createCourseWorld, QUIZ, type CourseWorld } from './course-test-world.js';

describe('course centre, joining, learning records and tasks', () => {
  let w: CourseWorld;
  let ids: Record<string, string>;

  const publish = async (info: Record<string, unknown>, who: 'teacher' | 'otherTeacher' = 'teacher') => {
    const course = await w.buildCourse(info, undefined, who);
    await w.call(who, 'POST', `/api/v1/courses/${course.id}/publish`);
    return course;
  };
  const names = (res: { body: { data: { list: { name: string }[] } } }) => res.body.data.list.map((c) => c.name);

  beforeAll(async () => {
    w = await createCourseWorld();
    const add = async (path: string, body: object) =>
      (await w.call('super', 'POST', `/api/v1/courses/${path}`, body)).body.data.id;
    ids = {
      ai: await add('categories', { name: 'AI', kind: 'direction' }),
      robots: await add('categories', { name: 'Robots', kind: 'direction' }),
      primary: await add('categories', { name: 'Primary', kind: 'stage' }),
      easy: await add('difficulties', { name: 'Easy' }),
      hard: await add('difficulties', { name: 'Hard' }),
    };
  });
  afterAll(() => w.t.close());

  it('keeps categories, difficulties and tags unique, for super administrators only', async () => {
    const again = await w.call('super', 'POST', '/api/v1/courses/difficulties', { name: 'Easy' });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('3015');
    expect((await w.call('super', 'POST', '/api/v1/courses/tags', { name: 'Python' })).status).toBe(200);
    expect((await w.call('super', 'POST', '/api/v1/courses/tags', { name: 'Python' })).body.errorCode).toBe('3015');
    expect((await w.call('teacher', 'POST', '/api/v1/courses/tags', { name: 'Mine' })).body.errorCode).toBe('1006');
    const filters = await w.call(null, 'GET', '/api/v1/courses/filters');
    const ours = (d: { id: string }) => d.id !== w.category.directionId;
    expect(filters.body.data.directions.filter(ours).map((d: { name: string }) => d.name)).toEqual(['AI', 'Robots']);
    expect(filters.body.data.tags.map((d: { name: string }) => d.name)).toEqual(['Python']);
  });

  it('lists the centre by scope, filters, search and sort', async () => {
    await publish({
      name: 'Vision Basics',
      publicScope: 'public',
      directionId: ids.ai,
      difficultyId: ids.easy,
      levels: ['grade4_6'],
      tags: ['Python'],
    });
    await publish({
      name: 'Robot Arms',
      publicScope: 'customer',
      directionId: ids.robots,
      difficultyId: ids.hard,
      stageId: ids.primary,
    });
    await publish({ name: 'Secret Club', publicScope: 'private' });
    await w.buildCourse({ name: 'Unpublished Draft', publicScope: 'public' });
    await publish({ name: 'Other Customer Course', publicScope: 'customer' }, 'otherTeacher');

    const centre = (who: Parameters<CourseWorld['call']>[0], query = '') =>
      w.call(who, 'GET', `/api/v1/courses/centre?size=100${query}`);
    expect(names(await centre(null))).toEqual(['Vision Basics']);
    expect(names(await centre('student')).sort()).toEqual(['Robot Arms', 'Vision Basics']);
    expect(names(await centre('otherStudent')).sort()).toEqual(['Other Customer Course', 'Vision Basics']);
    expect(names(await centre('student', `&directionId=${ids.robots}`))).toEqual(['Robot Arms']);
    expect(names(await centre('student', `&difficultyId=${ids.easy}`))).toEqual(['Vision Basics']);
    expect(names(await centre('student', `&stageId=${ids.primary}`))).toEqual(['Robot Arms']);
    expect(names(await centre('student', '&level=grade4_6'))).toEqual(['Vision Basics']);
    expect(names(await centre('student', '&tag=Python'))).toEqual(['Vision Basics']);
    expect(names(await centre('student', '&keyword=robot'))).toEqual(['Robot Arms']);
    expect(names(await centre('student', '&keyword=%25'))).toEqual([]);
    expect(names(await centre('student', '&sort=name,asc'))).toEqual(['Robot Arms', 'Vision Basics']);
    const paged = await w.call('student', 'GET', '/api/v1/courses/centre?size=1&page=2&sort=name,asc');
    expect(paged.body.data).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(names(paged)).toEqual(['Vision Basics']);
    expect((await centre('student', '&sort=hacked,asc')).body.errorCode).toBe('1001');
  });

  it('keeps a centre page a few seconds per viewer scope; a write through the course API drops it', async () => {
    const course = await publish({ name: 'Kept Page', publicScope: 'public' });
    const kept = (who: 'student' | null) => w.call(who, 'GET', '/api/v1/courses/centre?keyword=Kept');
    expect(names(await kept(null))).toEqual(['Kept Page']);
    // Changed behind the API's back: the page kept for visitors still shows the old name, a new scope reads anew.
    await w.t.database.db
      .update(courseVersions)
      .set({ name: 'Kept Page, renamed' })
      .where(eq(courseVersions.courseId, course.id));
    expect(names(await kept(null))).toEqual(['Kept Page']);
    expect(names(await kept('student'))).toEqual(['Kept Page, renamed']);
    // Any write the course API answers drops the kept pages before its answer leaves.
    expect((await w.call('super', 'POST', '/api/v1/courses/tags', { name: 'Kept' })).status).toBe(200);
    expect(names(await kept(null))).toEqual(['Kept Page, renamed']);
  });

  it('shows a course package’s courses to the customers it is assigned to', async () => {
    const course = await publish({ name: 'Packaged Course', publicScope: 'customer' }, 'otherTeacher');
    const pack = await w.call('super', 'POST', '/api/v1/courses/packages', { name: 'Pack', courseIds: [course.id] });
    expect((await w.call('student', 'GET', `/api/v1/courses/${course.id}`)).status).toBe(404);
    await w.call('super', 'PUT', `/api/v1/courses/packages/${pack.body.data.id}/customers`, {
      customerIds: [w.customerA.id],
    });
    expect((await w.call('student', 'GET', `/api/v1/courses/${course.id}`)).status).toBe(200);
    expect(names(await w.call('student', 'GET', '/api/v1/courses/centre?keyword=Packaged'))).toEqual([
      'Packaged Course',
    ]);
  });

  it('joins by course code: unknown codes, other customers’ private courses and drafts are refused', async () => {
    const secret = await publish({ name: 'Code Only', publicScope: 'private' });
    expect((await w.call('student', 'GET', `/api/v1/courses/${secret.id}`)).status).toBe(404);
    const unknown = await w.call('student', 'POST', '/api/v1/courses/join', { code: 'ZZZZZZ' });
    expect(unknown.body.errorCode).toBe('4106');
    expect((await w.call('otherStudent', 'POST', '/api/v1/courses/join', { code: secret.code })).body.errorCode).toBe(
      '4106',
    );
    const draft = await w.buildCourse({ publicScope: 'customer' });
    expect((await w.call('student', 'POST', '/api/v1/courses/join', { code: draft.code })).body.errorCode).toBe('4105');
    const joined = await w.call('student', 'POST', '/api/v1/courses/join', { code: secret.code.toLowerCase() });
    expect(joined.body.data).toMatchObject({ enrolled: true, learners: 1, progress: 0 });
    // Joining twice counts once.
    expect((await w.call('student', 'POST', '/api/v1/courses/join', { code: secret.code })).body.data.learners).toBe(1);
    expect(
      (await w.call('student', 'GET', '/api/v1/courses/study')).body.data.map((c: { id: string }) => c.id),
    ).toContain(secret.id);
  });

  it('enrols a whole class when the teacher gives it the course', async () => {
    const course = await publish({ name: 'For 4-1', publicScope: 'private' });
    expect(
      (await w.call('otherTeacher', 'POST', `/api/v1/courses/${course.id}/classes`, { classId: w.classId })).status,
    ).toBe(404);
    const given = await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/classes`, { classId: w.classId });
    expect(given.body.data.joined).toBe(2);
    const detail = await w.call('student2', 'GET', `/api/v1/courses/${course.id}`);
    expect(detail.body.data).toMatchObject({ enrolled: true, learners: 2 });
  });

  it('records visits, time and completion per section, and progress', async () => {
    const course = await w.buildCourse({ name: 'Records', publicScope: 'customer' }, [
      { title: 'A', sections: ['a1', 'a2'] },
      { title: 'B', sections: ['b1', 'b2'] },
    ]);
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    const [a1, a2] = course.sectionIds;
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${a1}/learn`)).body.errorCode).toBe('4107');
    await w.call('student', 'POST', `/api/v1/courses/${course.id}/join`);
    const first = await w.call('student', 'GET', `/api/v1/courses/sections/${a1}/learn`);
    expect(first.body.data).toMatchObject({ title: 'a1', nextSectionId: a2, completed: false });
    await w.call('student', 'POST', `/api/v1/courses/sections/${a1}/record`, { seconds: 40 });
    const done = await w.call('student', 'POST', `/api/v1/courses/sections/${a1}/record`, {
      seconds: 20,
      completed: true,
    });
    expect(done.body.data.progress).toBe(25);
    expect(done.body.data.catalogue[0].sections[0]).toMatchObject({ visited: true, completed: true });
    expect(done.body.data.catalogue[0].sections[1]).toMatchObject({ visited: false, completed: false });
    const record = await w.call('student', 'GET', `/api/v1/courses/${course.id}/record`);
    expect(record.body.data.sections[0]).toMatchObject({
      sectionId: a1,
      visited: true,
      secondsSpent: 60,
      completed: true,
    });
    expect(record.body.data.sections[1]).toMatchObject({ visited: false, secondsSpent: 0 });
    expect((await w.call('student2', 'GET', `/api/v1/courses/${course.id}/record`)).body.errorCode).toBe('4107');
    const last = await w.call('student', 'GET', `/api/v1/courses/sections/${course.sectionIds[3]}/learn`);
    expect(last.body.data.nextSectionId).toBeNull();
  });

  it('grades choice questions on submit, with partial credit for multiple choice, and hides the answers', async () => {
    const course = await w.buildCourse({ name: 'Quiz course', publicScope: 'customer' });
    await w.call('teacher', 'POST', `/api/v1/courses/sections/${course.sectionIds[0]}/tasks`, QUIZ);
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    await w.call('student', 'POST', `/api/v1/courses/${course.id}/join`);
    const section = await w.call('student', 'GET', `/api/v1/courses/sections/${course.sectionIds[0]}/learn`);
    const task = section.body.data.tasks[0];
    expect(JSON.stringify(task)).not.toContain('answer');
    const submit = (answers: object[]) =>
      w.call('student', 'POST', `/api/v1/courses/tasks/${task.id}/attempts`, { answers });

    const perfect = await submit([
      { questionId: 'q1', choices: [1] },
      { questionId: 'q2', choices: [0, 2, 3] },
    ]);
    expect(perfect.body.data).toMatchObject({ status: 'graded', score: 100, credits: { q1: 1, q2: 1 } });
    // Two of three right options and nothing wrong: two thirds of the question.
    const partial = await submit([
      { questionId: 'q1', choices: [1] },
      { questionId: 'q2', choices: [0, 3] },
    ]);
    expect(partial.body.data.credits.q2).toBeCloseTo(2 / 3);
    expect(partial.body.data.score).toBe(83);
    // Any wrong option chosen: nothing for the question.
    const wrong = await submit([
      { questionId: 'q1', choices: [0] },
      { questionId: 'q2', choices: [0, 1, 2, 3] },
    ]);
    expect(wrong.body.data).toMatchObject({ score: 0, credits: { q1: 0, q2: 0 } });
    expect((await submit([])).body.data.score).toBe(0);

    const record = await w.call('student', 'GET', `/api/v1/courses/${course.id}/record`);
    expect(record.body.data.attempts.map((a: { score: number }) => a.score)).toEqual([100, 83, 0, 0]);
    expect(
      (await w.call('student2', 'POST', `/api/v1/courses/tasks/${task.id}/attempts`, { answers: [] })).body.errorCode,
    ).toBe('4107');
    const results = await w.call('teacher', 'GET', `/api/v1/courses/${course.id}/results`);
    expect(results.body.data).toHaveLength(4);
    expect(results.body.data[0].learnerName).toBe('student');
    // Those who see the course but do not teach it are told they may not; another customer learns nothing of it.
    expect((await w.call('student', 'GET', `/api/v1/courses/${course.id}/results`)).body.errorCode).toBe('1007');
    expect((await w.call('editor', 'GET', `/api/v1/courses/${course.id}/results`)).body.errorCode).toBe('1007');
    expect((await w.call('otherTeacher', 'GET', `/api/v1/courses/${course.id}/results`)).status).toBe(404);
    const gradeChoice = await w.call('teacher', 'PUT', `/api/v1/courses/attempts/${perfect.body.data.id}/grade`, {
      score: 10,
    });
    expect(gradeChoice.body.errorCode).toBe('4109');
  });

  it('leaves short answers and experiments to the teacher: score 0–100 with a comment', async () => {
    const course = await w.buildCourse({ name: 'Essay course', publicScope: 'customer' });
    await w.call('teacher', 'POST', `/api/v1/courses/sections/${course.sectionIds[0]}/tasks`, {
      title: 'Essay',
      questions: [
        { id: 's1', type: 'single', prompt: 'Pick', options: ['a', 'b'], answer: [0] },
        { id: 'e1', type: 'short', prompt: 'Explain' },
        { id: 'x1', type: 'experiment', prompt: 'Build' },
      ],
    });
    await w.call('teacher', 'POST', `/api/v1/courses/${course.id}/publish`);
    await w.call('student', 'POST', `/api/v1/courses/${course.id}/join`);
    const section = await w.call('student', 'GET', `/api/v1/courses/sections/${course.sectionIds[0]}/learn`);
    const task = section.body.data.tasks[0];
    expect(task.questions[2]).toMatchObject({ type: 'experiment', experiment: { linked: false, projectId: null } });
    const attempt = await w.call('student', 'POST', `/api/v1/courses/tasks/${task.id}/attempts`, {
      answers: [
        { questionId: 's1', choices: [0] },
        { questionId: 'e1', text: 'Because.' },
        { questionId: 'x1', text: '/pjedu/projects/mine' },
      ],
    });
    expect(attempt.body.data).toMatchObject({ status: 'pending', score: null, credits: { s1: 1 } });
    const url = `/api/v1/courses/attempts/${attempt.body.data.id}/grade`;
    expect((await w.call('teacher', 'PUT', url, { score: 101 })).body.errorCode).toBe('1001');
    expect((await w.call('teacher', 'PUT', url, { score: -1 })).body.errorCode).toBe('1001');
    expect((await w.call('otherTeacher', 'PUT', url, { score: 90 })).status).toBe(404);
    const graded = await w.call('teacher', 'PUT', url, { score: 90, comment: 'Good work' });
    expect(graded.body.data).toMatchObject({ status: 'graded', score: 90, comment: 'Good work' });
    const mine = await w.call('student', 'GET', `/api/v1/courses/${course.id}/record`);
    expect(mine.body.data.attempts[0]).toMatchObject({ score: 90, comment: 'Good work' });
  });

  it('keeps course applications with format checks, for administrators', async () => {
    const bad = await w.call(null, 'POST', '/api/v1/courses/applications', {
      name: 'Li',
      phone: '123',
      email: 'a@b.cn',
    });
    expect(bad.body.errorCode).toBe('1001');
    const badMail = await w.call(null, 'POST', '/api/v1/courses/applications', {
      name: 'Li',
      phone: '13800000000',
      email: 'A@B',
    });
    expect(badMail.body.errorCode).toBe('1001');
    const ok = await w.call('teacher', 'POST', '/api/v1/courses/applications', {
      name: 'Li Lei',
      phone: '13800000000',
      email: 'lilei@school.cn',
    });
    expect(ok.body.data.followUpWorkingDays).toBe(3);
    expect((await w.call('admin', 'GET', '/api/v1/courses/applications')).body.errorCode).toBe('1006');
    const list = await w.call('super', 'GET', '/api/v1/courses/applications');
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'Li Lei', email: 'lilei@school.cn' })]);
  });
});
