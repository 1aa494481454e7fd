import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teachers, users } from '../../platform/db/schema/index.js';
import { buildUser } from '../../test/factories.js';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

const C = '/api/v1/courses';

describe('course collaborators: who is found, who edits, who is refused', () => {
  let w: CourseWorld;
  beforeAll(async () => {
    w = await createCourseWorld();
    // Another teacher of customer A, found by her name, and one whose account is switched off.
    const [school] = await w.db.select({ id: users.schoolId }).from(users).where(eq(users.id, w.users.teacher.id));
    for (const [username, realName, enabled] of [
      ['wang', 'Wang Fang', true],
      ['gone', 'Gone Teacher', false],
    ] as const) {
      const user = await buildUser(w.db, {
        customerId: w.customerA.id,
        schoolId: school!.id,
        username,
        realName,
        enabled,
        roles: [ROLES.teacher],
      });
      await w.db.insert(teachers).values({ userId: user.id, customerId: w.customerA.id, schoolId: school!.id! });
    }
  });
  afterAll(() => w.t.close());

  const found = async (courseId: string, keyword: string) =>
    (await w.call('teacher', 'GET', `${C}/${courseId}/collaborators/candidates?keyword=${keyword}`)).body.data.map(
      (u: { username: string }) => u.username,
    );

  it('finds switched-on teachers of the owner’s institution by username or name, leaving out those already in', async () => {
    const { id } = await w.buildCourse();
    expect(await found(id, '')).toEqual(['editor', 'uncertified', 'wang']);
    expect(await found(id, 'fang')).toEqual(['wang']);
    expect(await found(id, 'EDI')).toEqual(['editor']);
    // Students, administrators, another customer's teacher ("teacher" of B) and the owner are never found.
    expect(await found(id, 'teacher')).toEqual([]);
    await w.call('teacher', 'PUT', `${C}/${id}/collaborators`, { usernames: ['editor'] });
    expect(await found(id, '')).toEqual(['uncertified', 'wang']);
    const asEditor = await w.call('editor', 'GET', `${C}/${id}/collaborators/candidates`);
    expect({ status: asEditor.status, code: asEditor.body.errorCode }).toEqual({ status: 403, code: '1007' });
  });

  it('adds and removes collaborators: an added teacher edits, a removed one no longer does', async () => {
    const { id, sectionIds } = await w.buildCourse();
    const add = await w.call('teacher', 'PUT', `${C}/${id}/collaborators`, { usernames: ['wang', 'editor'] });
    expect(add.body.data.collaborators.map((c: { username: string; name: string }) => [c.username, c.name])).toEqual([
      ['editor', 'editor'],
      ['wang', 'Wang Fang'],
    ]);
    const edited = await w.call('editor', 'PUT', `${C}/sections/${sectionIds[0]}`, { title: 'By the editor' });
    expect(edited.body.data).toMatchObject({ isOwner: false });
    const removed = await w.call('teacher', 'PUT', `${C}/${id}/collaborators`, { usernames: ['wang'] });
    expect(removed.body.data.collaborators.map((c: { username: string }) => c.username)).toEqual(['wang']);
    // The draft is no longer theirs to see.
    expect((await w.call('editor', 'PUT', `${C}/sections/${sectionIds[0]}`, { title: 'Again' })).status).toBe(404);
    expect((await w.call('teacher', 'PUT', `${C}/${id}/collaborators`, { usernames: ['gone'] })).status).toBe(200);
  });

  it('lets collaborators edit but not publish, revise, close, move learners or choose collaborators (1007)', async () => {
    const { id } = await w.buildCourse();
    await w.call('teacher', 'PUT', `${C}/${id}/collaborators`, { usernames: ['editor'] });
    expect((await w.call('editor', 'PUT', `${C}/${id}`, { description: 'Shared work' })).status).toBe(200);
    expect((await w.call('editor', 'POST', `${C}/${id}/chapters`, { title: 'More' })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', 'publish'],
      ['POST', 'close'],
      ['POST', 'learners/move', {}],
      ['PUT', 'collaborators', { usernames: [] }],
    ] as const) {
      const res = await w.call('editor', method, `${C}/${id}/${path}`, body);
      expect({ path, status: res.status, code: res.body.errorCode }).toEqual({ path, status: 403, code: '1007' });
    }
  });

  it('answers 1007 to anyone who sees the published course but does not write it, 1004 to others', async () => {
    const { id, sectionIds } = await w.buildCourse({ publicScope: 'customer' });
    const draftEdit = await w.call('uncertified', 'PUT', `${C}/${id}`, { name: 'Mine now' });
    expect(draftEdit.status).toBe(404);
    await w.call('teacher', 'POST', `${C}/${id}/publish`);
    await w.call('teacher', 'POST', `${C}/${id}/revision`);
    const attempts = [
      ['PUT', `${C}/${id}`, { name: 'Mine now' }],
      ['GET', `${C}/${id}/edit`],
      ['POST', `${C}/${id}/chapters`, { title: 'Mine' }],
      ['GET', `${C}/${id}/versions`],
      ['PUT', `${C}/sections/${sectionIds[0]}`, { title: 'Mine' }],
    ] as const;
    for (const who of ['uncertified', 'student', 'admin', 'super'] as const) {
      for (const [method, url, body] of attempts) {
        const res = await w.call(who, method, url, body);
        expect({ who, url, status: res.status, code: res.body.errorCode, msg: res.body.errorMsg }).toEqual({
          who,
          url,
          status: 403,
          code: '1007',
          msg: '该用户没有编辑权限',
        });
      }
    }
    for (const who of ['otherTeacher', 'otherStudent'] as const) {
      expect((await w.call(who, 'PUT', `${C}/${id}`, { name: 'Mine now' })).status).toBe(404);
    }
  });
});
