import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/course-factories.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

const LIST = '/api/v1/admin_super/courses';

describe('the administrators’ course list (/api/v1/admin_super/courses)', () => {
  let w: CourseWorld;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    w = await createCourseWorld();
    const act = (id: string, action: string) => w.call('teacher', 'POST', `/api/v1/courses/${id}/${action}`);
    await w.buildCourse({ name: 'Alpha draft' });
    await act((await w.buildCourse({ name: 'Beta live' })).id, 'publish');
    const gamma = await w.buildCourse({ name: 'Gamma revised' });
    await act(gamma.id, 'publish');
    await act(gamma.id, 'revision');
    await w.call('teacher', 'PUT', `/api/v1/courses/${gamma.id}`, { name: 'Gamma, second edition' });
    await act((await w.buildCourse({ name: 'Delta closed' })).id, 'close');
    await w.buildCourse({ name: 'Other customer course' }, undefined, 'otherTeacher');
    // A sub-customer of A with its own course and administrator, and a course of the public space.
    const sub = await buildCustomer(w.db, { parentId: w.customerA.id });
    const subTeacher = await buildUser(w.db, { customerId: sub.id, roles: [ROLES.teacher] });
    await buildCourse(w.db, { customerId: sub.id, ownerId: subTeacher.id });
    const publicTeacher = await buildUser(w.db, { customerId: null, roles: [ROLES.teacher] });
    await buildCourse(w.db, { customerId: null, ownerId: publicTeacher.id });
    const subAdmin = await buildUser(w.db, {
      customerId: sub.id,
      username: 'subadmin',
      roles: [ROLES.subCustomerAdmin],
    });
    tokens.subAdmin = await signIn(w.t.app, sub.code, 'subadmin', subAdmin.password);
  });
  afterAll(() => w.t.close());

  const list = async (who: 'super' | 'admin' | 'subAdmin', query = '') => {
    const res = await w.t.app.inject({
      method: 'GET',
      url: `${LIST}?size=100${query}`,
      headers: { 'x-authorization': who === 'subAdmin' ? tokens.subAdmin! : w.tokens[who] },
    });
    return res.json().data as { list: { name: string; status: string }[]; total: number };
  };
  const names = (page: { list: { name: string }[] }) => page.list.map((c) => c.name).sort();

  it('shows super administrators every course, a customer administrator its subtree’s, a sub-customer’s its own', async () => {
    expect(names(await list('super'))).toEqual([
      'Alpha draft',
      'Beta live',
      'Delta closed',
      'Factory course',
      'Factory course',
      'Gamma revised',
      'Other customer course',
    ]);
    expect(names(await list('admin'))).toEqual([
      'Alpha draft',
      'Beta live',
      'Delta closed',
      'Factory course',
      'Gamma revised',
    ]);
    expect(names(await list('subAdmin'))).toEqual(['Factory course']);
  });

  it('refuses teachers, students and school staff with 1006', async () => {
    for (const who of ['teacher', 'student', 'uncertified'] as const) {
      const res = await w.call(who, 'GET', LIST);
      expect({ who, status: res.status, code: res.body.errorCode }).toEqual({ who, status: 403, code: '1006' });
    }
  });

  it('names each course as learners know it, with its state, owner, institution and learners', async () => {
    const gamma = (await list('admin', '&keyword=gamma')).list;
    expect(gamma).toEqual([
      expect.objectContaining({
        name: 'Gamma revised',
        status: 'modifying',
        versionNumber: 1,
        ownerName: 'teacher',
        customerName: w.customerA.name,
        takenDown: false,
        learners: 0,
      }),
    ]);
    const publicCourse = (await list('super', '&keyword=factory')).list.filter(
      (c) => (c as unknown as { customerName: string | null }).customerName === null,
    );
    expect(publicCourse).toHaveLength(1);
  });

  it('filters by state, searches name, code and owner, sorts and pages', async () => {
    const byStatus = async (status: string) => names(await list('admin', `&status=${status}`));
    expect(await byStatus('draft')).toEqual(['Alpha draft', 'Factory course']);
    expect(await byStatus('published')).toEqual(['Beta live']);
    expect(await byStatus('modifying')).toEqual(['Gamma revised']);
    expect(await byStatus('closed')).toEqual(['Delta closed']);
    expect((await w.call('admin', 'GET', `${LIST}?status=abandoned`)).body.errorCode).toBe('1001');

    const beta = (await list('admin', '&keyword=beta')).list[0] as unknown as { code: string };
    expect(names(await list('admin', `&keyword=${beta.code.toLowerCase()}`))).toEqual(['Beta live']);
    expect(names(await list('super', '&keyword=teacher')).length).toBeGreaterThanOrEqual(5);
    expect(names(await list('admin', '&keyword=%25'))).toEqual([]);

    const sorted = (await list('admin', '&sort=name,asc')).list.map((c) => c.name);
    expect(sorted).toEqual(['Alpha draft', 'Beta live', 'Delta closed', 'Factory course', 'Gamma revised']);
    const page = (await w.call('admin', 'GET', `${LIST}?sort=name,desc&size=2&page=2`)).body.data;
    expect(page).toMatchObject({ total: 5, page: 2, size: 2 });
    expect(page.list.map((c: { name: string }) => c.name)).toEqual(['Delta closed', 'Beta live']);
    expect((await w.call('admin', 'GET', `${LIST}?sort=code,asc`)).body.errorCode).toBe('1001');
  });
});
