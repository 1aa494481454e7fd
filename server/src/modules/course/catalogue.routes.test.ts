import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

/** What super administrators keep: directions, stages, difficulties, tags and course packages. */
describe('course catalogue administration', () => {
  let w: CourseWorld;
  beforeAll(async () => {
    w = await createCourseWorld();
  });
  afterAll(() => w.t.close());

  const C = '/api/v1/courses';
  const add = async (path: string, body: object) => (await w.call('super', 'POST', `${C}/${path}`, body)).body.data;
  const list = async (path: string, query = '') =>
    (await w.call('super', 'GET', `${C}/${path}?size=100${query}`)).body.data;
  const published = async (info: Record<string, unknown>) => {
    const course = await w.buildCourse(info);
    await w.call('teacher', 'POST', `${C}/${course.id}/publish`);
    return course;
  };

  it('lists directions and stages with the courses using each, by kind and by name, a page at a time', async () => {
    const ai = await add('categories', { name: 'AI', kind: 'direction' });
    await add('categories', { name: 'Robotics', kind: 'direction' });
    const primary = await add('categories', { name: 'Primary', kind: 'stage' });
    await published({ directionId: ai.id, stageId: primary.id });
    await w.buildCourse({ directionId: ai.id });

    // The world's own direction and stage, which every other course of it carries, aside.
    const all = (await list('categories')).list.filter(
      (c: { id: string }) => c.id !== w.category.directionId && c.id !== w.category.stageId,
    );
    expect(all.map((c: { name: string; kind: string; courses: number }) => [c.name, c.kind, c.courses])).toEqual([
      ['AI', 'direction', 2],
      ['Robotics', 'direction', 0],
      ['Primary', 'stage', 1],
    ]);
    const stages = (await list('categories', '&kind=stage')).list.map((c: { name: string }) => c.name);
    expect(stages).toEqual(['World stage', 'Primary']);
    expect((await list('categories', '&keyword=rob')).list.map((c: { name: string }) => c.name)).toEqual(['Robotics']);
    const paged = (await w.call('super', 'GET', `${C}/categories?size=1&page=2`)).body.data;
    expect(paged).toMatchObject({ total: 5, page: 2, size: 1 });
    expect((await w.call('super', 'GET', `${C}/categories?kind=topic`)).body.errorCode).toBe('1001');
  });

  it('renames a category everywhere, refuses a name its kind already has, and moves kind only while unused', async () => {
    const vision = await add('categories', { name: 'Vision', kind: 'direction' });
    const spare = await add('categories', { name: 'Spare', kind: 'direction' });
    await add('categories', { name: 'Junior', kind: 'stage' });
    const course = await published({ directionId: vision.id, publicScope: 'public' });

    const renamed = await w.call('super', 'PUT', `${C}/categories/${vision.id}`, {
      name: 'Computer vision',
      kind: 'direction',
    });
    expect(renamed.body.data).toMatchObject({ name: 'Computer vision', kind: 'direction', courses: 1 });
    const filters = (await w.call(null, 'GET', `${C}/filters`)).body.data;
    expect(filters.directions.map((d: { name: string }) => d.name)).toContain('Computer vision');
    expect((await w.call('student', 'GET', `${C}/${course.id}`)).body.data.directionId).toBe(vision.id);

    const taken = await w.call('super', 'PUT', `${C}/categories/${spare.id}`, { name: 'AI', kind: 'direction' });
    expect(taken.status).toBe(409);
    expect(taken.body.errorCode).toBe('3015');
    // A stage may share a direction's name.
    expect(
      (await w.call('super', 'PUT', `${C}/categories/${spare.id}`, { name: 'Junior', kind: 'direction' })).status,
    ).toBe(200);
    const moved = await w.call('super', 'PUT', `${C}/categories/${vision.id}`, { name: 'Vision', kind: 'stage' });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ errorCode: '3109', data: { courses: 1 } });
    const unused = await w.call('super', 'PUT', `${C}/categories/${spare.id}`, { name: 'Senior', kind: 'stage' });
    expect(unused.body.data).toMatchObject({ name: 'Senior', kind: 'stage', courses: 0 });
  });

  it('refuses to delete a category or difficulty a course uses, with the number of courses; a closed course does not count', async () => {
    const maker = await add('categories', { name: 'Makers', kind: 'direction' });
    const hard = await add('difficulties', { name: 'Hard' });
    const course = await published({ directionId: maker.id, difficultyId: hard.id });

    const refused = await w.call('super', 'DELETE', `${C}/categories/${maker.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      errorCode: '3109',
      errorMsg: '仍有课程在使用此项，请先在这些课程中改用其他项',
    });
    expect(refused.body.data).toEqual({ courses: 1 });
    const inEnglish = await w.t.app.inject({
      method: 'DELETE',
      url: `${C}/difficulties/${hard.id}`,
      headers: { 'x-authorization': w.tokens.super, language: 'en' },
    });
    expect(inEnglish.json().errorMsg).toBe('Courses still use this item. Choose another one in those courses first');
    expect((await list('difficulties')).list.find((d: { id: string }) => d.id === hard.id).courses).toBe(1);

    await w.call('teacher', 'POST', `${C}/${course.id}/close`);
    expect((await w.call('super', 'DELETE', `${C}/categories/${maker.id}`)).status).toBe(200);
    expect((await w.call('super', 'DELETE', `${C}/difficulties/${hard.id}`)).status).toBe(200);
    const closed = (await w.call('teacher', 'GET', `${C}/${course.id}/edit`)).body.data;
    expect(closed).toMatchObject({ status: 'closed', directionId: null, difficultyId: null });
    expect((await w.call('super', 'DELETE', `${C}/categories/${maker.id}`)).status).toBe(404);
  });

  it('counts a tag where the published version or the draft carries it, and carries a rename into those courses', async () => {
    const typo = await add('tags', { name: 'Pyhton' });
    const unused = await add('tags', { name: 'Scratch' });
    const course = await published({ name: 'Snakes', tags: ['Pyhton', 'python'], publicScope: 'public' });
    await w.buildCourse({ name: 'Draft snakes', tags: ['Pyhton'] });
    await w.call('student', 'POST', `${C}/join`, { code: course.code });
    // The learner's detail is read once, so a cached catalogue must not keep the old tag.
    expect((await w.call('student', 'GET', `${C}/${course.id}`)).body.data.tags).toEqual(['Pyhton', 'python']);

    const tags = await list('tags', '&keyword=Pyh');
    expect(tags.list).toEqual([expect.objectContaining({ name: 'Pyhton', courses: 2 })]);
    expect((await w.call('super', 'DELETE', `${C}/tags/${typo.id}`)).body.errorCode).toBe('3109');
    expect((await w.call('super', 'PUT', `${C}/tags/${typo.id}`, { name: 'Scratch' })).body.errorCode).toBe('3015');

    const renamed = await w.call('super', 'PUT', `${C}/tags/${typo.id}`, { name: 'Python' });
    // "Python" and "python" would be the same tag twice: that course keeps its own spelling only, so it no longer
    // counts for the catalogue's "Python" (tags match exactly, as the centre's filter does).
    expect(renamed.body.data).toMatchObject({ name: 'Python', courses: 1 });
    expect((await w.call('student', 'GET', `${C}/${course.id}`)).body.data.tags).toEqual(['python']);
    const mine = (await w.call('teacher', 'GET', `${C}/mine`)).body.data;
    expect(mine.find((c: { name: string }) => c.name === 'Draft snakes').tags).toEqual(['Python']);
    expect((await w.call('super', 'DELETE', `${C}/tags/${unused.id}`)).status).toBe(200);
  });

  it('is for super administrators only', async () => {
    const item = await add('difficulties', { name: 'Medium' });
    for (const who of ['teacher', 'admin', 'student'] as const) {
      expect((await w.call(who, 'GET', `${C}/difficulties`)).body.errorCode).toBe('1006');
      expect((await w.call(who, 'PUT', `${C}/difficulties/${item.id}`, { name: 'X' })).body.errorCode).toBe('1006');
      expect((await w.call(who, 'GET', `${C}/packages`)).body.errorCode).toBe('1006');
    }
    expect((await w.call(null, 'GET', `${C}/tags`)).status).toBe(401);
  });

  it('keeps course packages: names of courses and customers, changes, assignment and deletion', async () => {
    const course = await published({ name: 'Packed course', publicScope: 'customer' });
    const other = await published({ name: 'Second course', publicScope: 'customer' });
    const unknown = '0192f7a0-0000-7000-8000-000000000000';
    const refused = await w.call('super', 'POST', `${C}/packages`, { name: 'Pack', courseIds: [course.id, unknown] });
    expect(refused.status).toBe(404);
    expect(refused.body.data).toEqual({ courseIds: [unknown] });

    const created = (await w.call('super', 'POST', `${C}/packages`, { name: 'Starter pack', courseIds: [course.id] }))
      .body.data;
    expect(created).toMatchObject({ name: 'Starter pack', courses: [{ id: course.id, name: 'Packed course' }] });
    const changed = await w.call('super', 'PUT', `${C}/packages/${created.id}`, {
      name: 'Robot pack',
      courseIds: [course.id, other.id, other.id],
    });
    expect(changed.body.data.courseIds).toEqual([course.id, other.id]);
    expect(
      (await w.call('super', 'PUT', `${C}/packages/${created.id}/customers`, { customerIds: [unknown] })).body.data,
    ).toEqual({ customerIds: [unknown] });
    await w.call('super', 'PUT', `${C}/packages/${created.id}/customers`, { customerIds: [w.customerB.id] });
    const listed = await list('packages', '&keyword=robot');
    expect(listed).toMatchObject({ total: 1 });
    expect(listed.list[0]).toMatchObject({
      name: 'Robot pack',
      courses: [
        { id: course.id, name: 'Packed course' },
        { id: other.id, name: 'Second course' },
      ],
      customers: [{ id: w.customerB.id, name: expect.any(String) }],
    });

    // Customer B's learners find the courses while the package gives them; one who joined keeps the course after.
    expect((await w.call('otherStudent', 'GET', `${C}/${other.id}`)).status).toBe(200);
    await w.call('otherStudent', 'POST', `${C}/${course.id}/join`);
    expect((await w.call('super', 'DELETE', `${C}/packages/${created.id}`)).status).toBe(200);
    expect((await w.call('otherStudent', 'GET', `${C}/${other.id}`)).status).toBe(404);
    expect((await w.call('otherStudent', 'GET', `${C}/${course.id}`)).body.data).toMatchObject({ enrolled: true });
    expect((await list('packages')).total).toBe(0);
    expect((await w.call('super', 'DELETE', `${C}/packages/${created.id}`)).status).toBe(404);
  });

  it('gives a customer packages from the customer’s side too: one record, and its learners see them at once', async () => {
    const course = await published({ name: 'Given course', publicScope: 'customer' });
    const pkg = (await w.call('super', 'POST', `${C}/packages`, { name: 'Given pack', courseIds: [course.id] })).body
      .data;
    const centre = async () =>
      ((await w.call('otherStudent', 'GET', `${C}/centre?keyword=Given`)).body.data.list as { id: string }[]).map(
        (c) => c.id,
      );
    expect(await centre()).toEqual([]);
    const given = await w.call('super', 'PUT', `/api/v1/admin_super/organizes/${w.customerB.id}`, {
      coursePackages: [pkg.id],
    });
    expect(given.body.data.coursePackages).toEqual([{ id: pkg.id, name: 'Given pack' }]);
    expect(await centre()).toEqual([course.id]);
    expect((await list('packages', '&keyword=Given')).list[0].customerIds).toEqual([w.customerB.id]);
  });
});
