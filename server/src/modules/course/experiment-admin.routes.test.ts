import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

const LIST = '/api/v1/admin_super/experiments';
const P = '/gw/api/v1/projects';
const C = '/api/v1/courses';

describe('super administrators’ list of experiments (/api/v1/admin_super/experiments)', () => {
  let w: CourseWorld;
  let iris: string;
  let digits: string;

  /** A course of the teacher whose one task is an experiment on `projectId`. */
  const courseWith = async (name: string, projectId: string) => {
    const built = await w.buildCourse({ name, publicScope: 'customer' });
    const added = await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Experiment',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Try it', projectId }],
    });
    expect(added.status).toBe(200);
    return built;
  };

  beforeAll(async () => {
    w = await createCourseWorld();
    iris = (await w.call('teacher', 'POST', P, { name: 'Iris template' })).body.data.id;
    digits = (await w.call('teacher', 'POST', P, { name: 'Digits template' })).body.data.id;
    // A project no course uses is no experiment.
    await w.call('teacher', 'POST', P, { name: 'Scratch pad' });

    const live = await courseWith('Flowers', iris);
    await w.call('teacher', 'POST', `${C}/${live.id}/publish`);
    await w.call('student', 'POST', `${C}/join`, { code: live.code });
    const taskId = (await w.call('student', 'GET', `${C}/sections/${live.sectionIds[0]}/learn`)).body.data.tasks[0].id;
    const started = await w.call('student', 'POST', `${C}/tasks/${taskId}/experiment/start`, { questionId: 'x' });
    expect(started.body.data.created).toBe(true);
    await courseWith('Vision', digits);
    await courseWith('Petals', iris);
  });
  afterAll(() => w.t.close());

  const list = async (query = '') => (await w.call('super', 'GET', `${LIST}?size=100${query}`)).body;

  it('shows each template project with its owner, the courses using it and the copies made', async () => {
    const body = await list();
    expect(body.errorCode).toBe('1000');
    expect(body.data).toMatchObject({ total: 2, page: 1, size: 100 });
    expect(body.data.list).toEqual([
      {
        projectId: digits,
        name: 'Digits template',
        owner: 'teacher',
        courses: [expect.objectContaining({ name: 'Vision' })],
        copies: 0,
      },
      {
        projectId: iris,
        name: 'Iris template',
        owner: 'teacher',
        courses: [expect.objectContaining({ name: 'Flowers' }), expect.objectContaining({ name: 'Petals' })],
        copies: 1,
      },
    ]);
  });

  it('finds them by the project’s name or a course’s name, and pages', async () => {
    const names = async (query: string) => ((await list(query)).data.list as { name: string }[]).map((e) => e.name);
    expect(await names('&keyword=IRIS')).toEqual(['Iris template']);
    expect(await names('&keyword=vision')).toEqual(['Digits template']);
    expect(await names('&keyword=scratch')).toEqual([]);
    expect(await names('&keyword=%25')).toEqual([]);
    const second = (await w.call('super', 'GET', `${LIST}?size=1&page=2`)).body.data;
    expect(second).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(second.list.map((e: { name: string }) => e.name)).toEqual(['Iris template']);
  });

  it('refuses everyone but super administrators with 1006', async () => {
    for (const who of ['admin', 'teacher', 'student'] as const) {
      const res = await w.call(who, 'GET', LIST);
      expect({ who, status: res.status, code: res.body.errorCode }).toEqual({ who, status: 403, code: '1006' });
    }
    expect((await w.call(null, 'GET', LIST)).body.errorCode).toBe('1107');
  });
});
