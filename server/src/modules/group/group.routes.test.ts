import { GROUP_API, GROUP_INVITE_CODE, ROLES, groupApi } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses, projects } from '../../platform/db/schema/index.js';
import { buildCourse } from '../../test/course-factories.js';
import { buildCustomer, buildSchool, buildUser, createProjectAs, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('groups', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });
  const data = async (res: Awaited<ReturnType<typeof call>>) => {
    expect({ status: res.statusCode, body: res.json().errorCode }).toEqual({ status: 200, body: '1000' });
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const a = await buildCustomer(db);
    const b = await buildCustomer(db);
    const schoolA = await buildSchool(db, a.id);
    const otherSchoolA = await buildSchool(db, a.id);
    const schoolB = await buildSchool(db, b.id);
    ids.customerA = a.id;
    const people: [string, string, string | null, string][] = [
      ['teach', ROLES.teacher, schoolA.id, a.code],
      ['kid', ROLES.student, schoolA.id, a.code],
      ['kid2', ROLES.student, schoolA.id, a.code],
      ['far', ROLES.student, otherSchoolA.id, a.code],
      ['stranger', ROLES.student, schoolB.id, b.code],
      ['outsider', ROLES.student, schoolB.id, b.code],
    ];
    for (const [username, role, schoolId, code] of people) {
      const customerId = code === a.code ? a.id : b.id;
      const user = await buildUser(db, { customerId, schoolId, username, roles: [role] });
      ids[username] = user.id;
      tokens[username] = await signIn(t.app, code, username, user.password);
    }
    const publicUser = await buildUser(db, { username: 'walker', roles: [ROLES.student] });
    ids.walker = publicUser.id;
    tokens.walker = await signIn(t.app, '', 'walker', publicUser.password);
  });
  afterAll(() => t.close());

  it('creates a group, lists it by scope, and shows the invitation to its owner only', async () => {
    const created = await data(
      await call('teach', 'POST', GROUP_API.base, { name: '  Robotics club ', description: 'Builds robots' }),
    );
    ids.group = created.id;
    expect(created).toMatchObject({ name: 'Robotics club', myRole: 'owner', memberCount: 1, joinReview: false });
    expect(created.invitation.code).toMatch(GROUP_INVITE_CODE);
    expect(created.invitation.enabled).toBe(true);

    expect((await call('teach', 'POST', GROUP_API.base, { name: '   ' })).json().errorCode).toBe('1001');
    expect((await call('teach', 'POST', GROUP_API.base, { name: 'x'.repeat(51) })).json().errorCode).toBe('1001');

    const join = await data(await call('kid', 'POST', GROUP_API.join, { code: created.invitation.code.toLowerCase() }));
    expect(join).toEqual({ state: 'joined', groupId: ids.group });

    const mine = await data(await call('teach', 'GET', `${GROUP_API.base}?scope=mine`));
    expect(mine.list.map((g: { id: string }) => g.id)).toEqual([ids.group]);
    expect((await data(await call('teach', 'GET', `${GROUP_API.base}?scope=joined`))).total).toBe(0);
    const joined = await data(await call('kid', 'GET', `${GROUP_API.base}?scope=joined`));
    expect(joined.list).toMatchObject([{ id: ids.group, myRole: 'member', memberCount: 2 }]);
    expect((await data(await call('kid', 'GET', `${GROUP_API.base}?scope=mine`))).total).toBe(0);
    expect((await data(await call('kid', 'GET', GROUP_API.base))).total).toBe(1);

    const seen = await data(await call('kid', 'GET', groupApi(ids.group!).base));
    expect(seen.invitation).toBeNull();
    expect((await call('stranger', 'GET', groupApi(ids.group!).base)).statusCode).toBe(404);
    expect((await call('kid', 'PUT', groupApi(ids.group!).base, { name: 'Mine now' })).json().errorCode).toBe('1007');
    expect((await call('kid', 'POST', groupApi(ids.group!).invitationReset)).json().errorCode).toBe('1007');
  });

  it('disables and resets the invitation code: the old code is refused at once, the new one works', async () => {
    const g = groupApi(ids.group!);
    const { invitation } = await data(await call('teach', 'GET', g.base));
    await data(await call('teach', 'PUT', g.invitation, { enabled: false }));
    expect((await call('far', 'POST', GROUP_API.join, { code: invitation.code })).json().errorCode).toBe('6001');
    await data(await call('teach', 'PUT', g.invitation, { enabled: true }));
    const fresh = await data(await call('teach', 'POST', g.invitationReset));
    expect(fresh.code).not.toBe(invitation.code);
    expect(fresh.code).toMatch(GROUP_INVITE_CODE);
    expect((await call('far', 'POST', GROUP_API.join, { code: invitation.code })).json().errorCode).toBe('6001');
    expect((await call('far', 'POST', GROUP_API.join, { code: 'NOSUCH22' })).json().errorCode).toBe('6001');
    expect(await data(await call('far', 'POST', GROUP_API.join, { code: fresh.code }))).toMatchObject({
      state: 'joined',
    });
    expect((await call('far', 'POST', GROUP_API.join, { code: fresh.code })).json().errorCode).toBe('6002');
  });

  it('joins with review: pending, then approved or refused, and the applicant sees the outcome', async () => {
    const g = groupApi(ids.group!);
    await data(await call('teach', 'PUT', g.base, { joinReview: true }));
    const { invitation } = await data(await call('teach', 'GET', g.base));
    expect(await data(await call('stranger', 'POST', GROUP_API.join, { code: invitation.code }))).toEqual({
      state: 'pending',
      groupId: ids.group,
    });
    expect((await call('stranger', 'POST', GROUP_API.join, { code: invitation.code })).json().errorCode).toBe('6003');
    expect(await data(await call('walker', 'POST', GROUP_API.join, { code: invitation.code }))).toMatchObject({
      state: 'pending',
    });
    expect((await call('stranger', 'GET', g.base)).statusCode).toBe(404);

    const pending = await data(await call('teach', 'GET', g.requests));
    expect(pending.list.map((r: { username: string }) => r.username).sort()).toEqual(['stranger', 'walker']);
    const byName = Object.fromEntries(pending.list.map((r: { username: string; id: string }) => [r.username, r.id]));
    expect((await data(await call('teach', 'GET', g.base))).pendingRequests).toBe(2);

    await data(await call('teach', 'POST', g.approve(byName.stranger)));
    expect((await call('teach', 'POST', g.approve(byName.stranger))).json().errorCode).toBe('6009');
    await data(await call('teach', 'POST', g.refuse(byName.walker), { reason: 'Club is full' }));
    expect((await call('teach', 'POST', g.approve(byName.walker))).json().errorCode).toBe('6009');

    expect(await data(await call('stranger', 'GET', g.base))).toMatchObject({ myRole: 'member' });
    const outcome = await data(await call('walker', 'GET', GROUP_API.myRequests));
    expect(outcome.list).toMatchObject([{ groupName: 'Robotics club', state: 'refused', reason: 'Club is full' }]);
    expect((await call('walker', 'GET', g.base)).statusCode).toBe(404);
    expect((await data(await call('teach', 'GET', `${g.requests}?state=approved`))).total).toBe(1);
    await data(await call('teach', 'PUT', g.base, { joinReview: false }));
  });

  it('adds people of the owner’s school directly and refuses another school’s', async () => {
    const g = groupApi(ids.group!);
    const added = await data(await call('teach', 'POST', g.members, { usernames: ['kid2', 'kid'] }));
    expect(added).toEqual({ added: ['kid2'], alreadyMembers: ['kid'] });
    // "far" is of the same customer but another school; "outsider" is another customer's (unknown here).
    const other = await call('teach', 'POST', g.members, { usernames: ['far'] });
    expect(other.json()).toMatchObject({ errorCode: '6006', data: { usernames: ['far'] } });
    expect((await call('teach', 'POST', g.members, { usernames: ['outsider'] })).statusCode).toBe(404);
    expect((await call('kid', 'POST', g.members, { usernames: ['kid2'] })).json().errorCode).toBe('1007');
    const members = await data(await call('kid', 'GET', g.members));
    expect(members.list[0]).toMatchObject({ username: 'teach', role: 'owner', joinedVia: 'created' });
    const via = Object.fromEntries(
      members.list.map((m: { username: string; joinedVia: string }) => [m.username, m.joinedVia]),
    );
    expect(via).toMatchObject({ kid: 'code', kid2: 'added', far: 'code', stranger: 'code' });
  });

  it('shares a project with a member of another customer, who may view and fork it; a non-member may not', async () => {
    const g = groupApi(ids.group!);
    const projectId = await createProjectAs(t.app, tokens.kid!, 'Line follower');
    expect((await call('stranger', 'GET', `/gw/api/v1/projects/${projectId}`)).statusCode).toBe(404);
    expect((await call('kid2', 'POST', g.projects, { projectId })).statusCode).toBe(404);
    await data(await call('kid', 'POST', g.projects, { projectId }));
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, projectId));
    expect(row).toMatchObject({ access: 'group', groupId: ids.group });

    const listed = await data(await call('stranger', 'GET', g.projects));
    expect(listed.list).toMatchObject([{ id: projectId, ownerName: 'kid', canUnshare: false }]);
    expect((await data(await call('teach', 'GET', g.projects))).list[0].canUnshare).toBe(true);
    expect(await data(await call('stranger', 'GET', `/gw/api/v1/projects/${projectId}`))).toMatchObject({
      access: 'group',
      canEdit: false,
    });
    const edit = await call('stranger', 'PUT', `/gw/api/v1/projects/${projectId}`, { name: 'Mine' });
    expect(edit.json().errorCode).toBe('1007');
    const fork = await data(await call('stranger', 'POST', `/gw/api/v1/projects/${projectId}/fork`));
    expect(fork).toMatchObject({ isOwner: true, access: 'private' });
    expect((await call('outsider', 'GET', `/gw/api/v1/projects/${projectId}`)).statusCode).toBe(404);
    expect((await call('outsider', 'POST', `/gw/api/v1/projects/${projectId}/fork`)).statusCode).toBe(404);
    expect((await call('outsider', 'GET', g.projects)).statusCode).toBe(404);
    expect((await data(await call('kid', 'GET', g.base))).projectCount).toBe(1);
    ids.project = projectId;
  });

  it('refuses to share a public project with a group (a public project stays public)', async () => {
    const projectId = await createProjectAs(t.app, tokens.kid!, 'Shown to all');
    await data(await call('kid', 'PUT', `/gw/api/v1/projects/${projectId}`, { access: 'public' }));
    const res = await call('kid', 'POST', groupApi(ids.group!).projects, { projectId });
    expect(res.json().errorCode).toBe('3103');
  });

  it('opens a shared course to members only, while they are members', async () => {
    const db = t.database.db;
    const course = await buildCourse(db, { customerId: ids.customerA!, ownerId: ids.teach!, publicScope: 'private' });
    await db
      .update(courses)
      .set({ status: 'published', publishedVersionId: course.versionId, draftVersionId: null })
      .where(eq(courses.id, course.courseId));
    const url = `/api/v1/courses/${course.courseId}`;
    expect((await call('stranger', 'GET', url)).statusCode).toBe(404);
    await data(await call('teach', 'POST', groupApi(ids.group!).courses, { courseId: course.courseId }));
    expect(await data(await call('stranger', 'GET', url))).toMatchObject({ id: course.courseId });
    await data(await call('stranger', 'POST', `${url}/join`));
    expect((await call('outsider', 'GET', url)).statusCode).toBe(404);
    expect((await call('kid', 'POST', groupApi(ids.group!).courses, { courseId: course.courseId })).statusCode).toBe(
      403,
    );
    const listed = await data(await call('stranger', 'GET', groupApi(ids.group!).courses));
    expect(listed.list).toMatchObject([{ id: course.courseId, name: 'Factory course', published: true }]);
    ids.course = course.courseId;
  });

  it('lets members quit and the owner remove, never the owner quitting; access ends at once', async () => {
    const g = groupApi(ids.group!);
    expect((await call('teach', 'POST', g.quit)).json().errorCode).toBe('6005');
    await data(await call('stranger', 'POST', g.quit));
    expect((await call('stranger', 'GET', `/api/v1/courses/${ids.course}`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', `/gw/api/v1/projects/${ids.project}`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', g.base)).statusCode).toBe(404);

    await data(await call('teach', 'DELETE', g.member(ids.kid2!)));
    expect((await call('kid2', 'GET', g.base)).statusCode).toBe(404);
    expect((await call('teach', 'DELETE', g.member(ids.teach!))).json().errorCode).toBe('6005');
    expect((await call('teach', 'DELETE', g.member(ids.kid2!))).statusCode).toBe(404);
  });

  it('dismisses a group: members lose access, the shared project goes back to its owner, nothing is deleted', async () => {
    const g = groupApi(ids.group!);
    expect(await data(await call('far', 'GET', `/gw/api/v1/projects/${ids.project}`))).toMatchObject({
      id: ids.project,
    });
    expect((await call('kid', 'DELETE', g.base)).json().errorCode).toBe('1007');
    const { invitation } = await data(await call('teach', 'GET', g.base));
    await data(await call('teach', 'DELETE', g.base));
    expect((await call('far', 'GET', `/gw/api/v1/projects/${ids.project}`)).statusCode).toBe(404);
    expect((await call('far', 'GET', g.base)).statusCode).toBe(404);
    expect((await call('teach', 'GET', g.base)).statusCode).toBe(404);
    expect((await call('walker', 'POST', GROUP_API.join, { code: invitation.code })).json().errorCode).toBe('6004');
    expect((await data(await call('kid', 'GET', GROUP_API.base))).total).toBe(0);
    expect(await data(await call('kid', 'GET', `/gw/api/v1/projects/${ids.project}`))).toMatchObject({
      access: 'private',
      isOwner: true,
    });
    const [course] = await t.database.db.select().from(courses).where(eq(courses.id, ids.course!));
    expect(course).toMatchObject({ publicScope: 'private', groupId: null });
  });
});
