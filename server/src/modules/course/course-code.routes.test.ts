import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_CODE_ATTEMPTS, randomCourseCode } from './course-code.js';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

describe('course codes stay unique when the generator repeats itself', () => {
  let w: CourseWorld;
  /** The codes the generator hands out next; once empty it is random again. */
  const queue: string[] = [];
  beforeAll(async () => {
    w = await createCourseWorld({ courseCode: () => queue.shift() ?? randomCourseCode() });
  });
  afterAll(() => w.t.close());

  const rows = async (table: string) =>
    ((await w.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] })
      .rows[0]!.n;

  it('answers the next free code when the first one drawn is taken, across customers too', async () => {
    queue.push('AAAAAA');
    const first = await w.call('teacher', 'POST', '/api/v1/courses', { name: 'First', ...w.category });
    expect(first.body.data.code).toBe('AAAAAA');

    queue.push('AAAAAA', 'AAAAAA', 'BBBBBB');
    const second = await w.call('otherTeacher', 'POST', '/api/v1/courses', { name: 'Second', ...w.category });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ name: 'Second', code: 'BBBBBB' });
    expect(queue).toEqual([]);
    // The refused draws left nothing behind: one course and one draft each.
    expect(await rows('courses')).toBe(2);
    expect(await rows('course_versions')).toBe(2);
    // The code finds its own course.
    const id: string = first.body.data.id;
    const chapter = await w.call('teacher', 'POST', `/api/v1/courses/${id}/chapters`, { title: 'C' });
    await w.call('teacher', 'POST', `/api/v1/courses/chapters/${chapter.body.data.chapters[0].id}/sections`, {
      title: 'S',
    });
    await w.call('teacher', 'POST', `/api/v1/courses/${id}/publish`);
    const joined = await w.call('student', 'POST', '/api/v1/courses/join', { code: 'aaaaaa' });
    expect(joined.body.data).toMatchObject({ id, name: 'First', enrolled: true });
  });

  it('gives up with "no free course code" after every draw is taken, and creates nothing', async () => {
    queue.push(...Array.from({ length: COURSE_CODE_ATTEMPTS }, () => 'AAAAAA'));
    const refused = await w.call('teacher', 'POST', '/api/v1/courses', { name: 'Third', ...w.category });
    expect(refused.status).toBe(503);
    expect(refused.body.errorCode).toBe('4108');
    expect(queue).toEqual([]);
    expect(await rows('courses')).toBe(2);
    expect(await rows('course_versions')).toBe(2);
    // The next draw is random again, and free.
    expect((await w.call('teacher', 'POST', '/api/v1/courses', { name: 'Third', ...w.category })).status).toBe(200);
  });
});
