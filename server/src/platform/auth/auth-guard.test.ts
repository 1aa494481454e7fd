import { randomUUID } from 'node:crypto';
import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { b64, buildCustomer, buildSchool, buildUser, testClock } from '../../test/factories.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { schools, students, teachers } from '../db/schema/index.js';
import { SESSION_RECHECK_MS } from './session-check.js';

/**
 * An access token lives 30 minutes, but the sign-in it names may end before: each of these refuses it on the next
 * request, in this process at once (the clock never moves unless a test says so), as the token refresh refuses it.
 */
describe('the access token of a sign-in that ended', () => {
  let t: TestApp;
  const clock = testClock();
  let top: { id: string; code: string };
  let sub: { id: string; code: string };
  let schoolId: string;
  let rootToken: string;
  let customerAdmin: { username: string; password: string };
  let customerAdminToken: string;

  const signInTo = async (custcode: string, username: string, password: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: { custcode, usernameOrEmailOrPhone: username, password: b64(password) },
    });
    expect(res.json().errorCode).toBe('1000');
    return res.json().data as { token: string; refreshToken: string };
  };
  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    app: FastifyInstance = t.app,
  ) => app.inject({ method, url, payload, headers: { 'x-authorization': token, language: 'en' } });
  /** An ordinary signed-in route: the caller's profile. */
  const profile = async (token: string, app: FastifyInstance = t.app) => {
    const res = await call(token, 'GET', '/gw/api/v1/user/userInfo', undefined, app);
    return { status: res.statusCode, code: res.json().errorCode as string };
  };
  const served = { status: 200, code: '1000' };
  const ended = { status: 401, code: 'E002' };
  const disabled = { status: 401, code: 'E003' };

  /** A student on the roster of `school` (of `customer`), signed in; `signIn` opens another sign-in. */
  const student = async (customer = top, school = schoolId) => {
    const user = await buildUser(t.database.db, { customerId: customer.id, schoolId: school, roles: [ROLES.student] });
    await t.database.db.insert(students).values({ userId: user.id, customerId: customer.id, schoolId: school });
    const signIn = () => signInTo(customer.code, user.username, user.password);
    return { ...user, signIn, session: await signIn() };
  };
  const teacher = async () => {
    const user = await buildUser(t.database.db, { customerId: top.id, schoolId, roles: [ROLES.teacher] });
    await t.database.db.insert(teachers).values({ userId: user.id, customerId: top.id, schoolId });
    return { ...user, session: await signInTo(top.code, user.username, user.password) };
  };
  const schoolAdmin = async () => {
    const user = await buildUser(t.database.db, { customerId: top.id, schoolId, roles: [ROLES.schoolAdmin] });
    return { ...user, session: await signInTo(top.code, user.username, user.password) };
  };

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true } });
    const db = t.database.db;
    top = await buildCustomer(db);
    sub = await buildCustomer(db, { parentId: top.id });
    schoolId = (await buildSchool(db, top.id)).id;
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    rootToken = (await signInTo('', 'root', root.password)).token;
    customerAdmin = await buildUser(db, { customerId: top.id, roles: [ROLES.customerAdmin] });
    customerAdminToken = (await signInTo(top.code, customerAdmin.username, customerAdmin.password)).token;
  });
  afterAll(() => t.close());

  it.each(['/gw/api/v1/auth/logout', '/gw/api/v1/auth/uaa_logout', '/api/v1/auth/logout'])(
    'is refused (E002) after %s, and another sign-in of the same account is not',
    async (logout) => {
      const kid = await student();
      const other = await kid.signIn();
      expect(await profile(kid.session.token)).toEqual(served);
      expect((await call(kid.session.token, 'POST', logout)).json().errorCode).toBe('1000');
      expect(await profile(kid.session.token)).toEqual(ended);
      expect(await profile(other.token)).toEqual(served);
    },
  );

  it('is refused (E002), with every token of its sign-in, once a refresh token is presented a second time', async () => {
    const kid = await student();
    const rotated = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/auth/token',
      headers: { 'x-authorization': kid.session.refreshToken },
    });
    const next = rotated.json().data as { token: string };
    expect(await profile(kid.session.token)).toEqual(served);
    expect(await profile(next.token)).toEqual(served);
    const replay = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/auth/token',
      headers: { 'x-authorization': kid.session.refreshToken },
    });
    expect(replay.json().errorCode).toBe('E002');
    expect(await profile(kid.session.token)).toEqual(ended);
    expect(await profile(next.token)).toEqual(ended);
  });

  it.each([
    ['PUT', '/gw/api/v1/auth/pwd', (old: string, next: string) => ({ oriPasswd: b64(old), newPasswd: b64(next) })],
    ['POST', '/api/v1/auth/pwd/modify', (old: string, next: string) => ({ pwd: b64(old), newPwd: b64(next) })],
  ] as const)(
    'is refused (E002) on every other device after a password change (%s %s); the new pair serves',
    async (method, url, body) => {
      const kid = await student();
      const otherDevice = await kid.signIn();
      expect(await profile(otherDevice.token)).toEqual(served);
      const changed = await call(kid.session.token, method, url, body(kid.password, 'Changed2026x'));
      expect(changed.json().errorCode).toBe('1000');
      expect(await profile(otherDevice.token)).toEqual(ended);
      expect(await profile(kid.session.token)).toEqual(ended);
      expect(await profile(changed.json().data.token)).toEqual(served);
    },
  );

  it('is refused (E002) after the change of a password an administrator set', async () => {
    const user = await buildUser(t.database.db, { customerId: top.id, mustChangePassword: true });
    const first = await signInTo(top.code, user.username, user.password);
    const second = await signInTo(top.code, user.username, user.password);
    expect(await profile(second.token)).toEqual(served);
    const changed = await call(first.token, 'PUT', '/gw/api/v1/auth/pwd/default', { newPasswd: b64('Mine2026ok') });
    expect(changed.json().errorCode).toBe('1000');
    expect(await profile(second.token)).toEqual(ended);
    expect(await profile(changed.json().data.token)).toEqual(served);
  });

  it('is refused (E002) on every device after a password reset with a code', async () => {
    const kid = await buildUser(t.database.db, { customerId: null, phone: '13700137001' });
    const session = await signInTo('', kid.username, kid.password);
    expect(await profile(session.token)).toEqual(served);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/verifyCode/send',
      payload: { scene: 'RESET_PWD', target: '13700137001', type: 'phone' },
    });
    expect(sent.json().errorCode).toBe('1000');
    const outbox = await call(rootToken, 'GET', '/gw/api/v1/sys/outbox?keyword=13700137001');
    const code = (outbox.json().data.list[0].body as string).match(/\b(\d{6})\b/)![1];
    const reset = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/register/password/update',
      payload: { user: '13700137001', password: b64('Reset2026ok'), verifyCode: code },
    });
    expect(reset.json().errorCode).toBe('1000');
    expect(await profile(session.token)).toEqual(ended);
  });

  it.each([
    ['a student', () => student(), (id: string) => `/gw/admin/api/v1/school/students/${id}`],
    ['a teacher', () => teacher(), (id: string) => `/gw/admin/api/v1/school/teachers/${id}`],
    ['an administrator', () => schoolAdmin(), (id: string) => `/api/v1/user/${id}`],
  ] as const)('of %s is refused (E002) once an administrator sets a new password', async (_who, build, path) => {
    const person = await build();
    expect(await profile(person.session.token)).toEqual(served);
    const reset = await call(customerAdminToken, 'PUT', `${path(person.id)}/password`, { password: b64('Given2026') });
    expect(reset.json().errorCode).toBe('1000');
    expect(await profile(person.session.token)).toEqual(ended);
  });

  it.each([
    ['a student', () => student(), (id: string) => `/gw/admin/api/v1/school/students/${id}`],
    ['a teacher', () => teacher(), (id: string) => `/gw/admin/api/v1/school/teachers/${id}`],
    ['an administrator', () => schoolAdmin(), (id: string) => `/api/v1/user/${id}`],
  ] as const)(
    'of %s is refused (E003) once the account is switched off, and stays ended (E002) when it is on again',
    async (_who, build, path) => {
      const person = await build();
      expect(await profile(person.session.token)).toEqual(served);
      const off = await call(customerAdminToken, 'PUT', `${path(person.id)}/status`, { enabled: false });
      expect(off.json().errorCode).toBe('1000');
      expect(await profile(person.session.token)).toEqual(disabled);
      const refreshed = await t.app.inject({
        method: 'GET',
        url: '/gw/api/v1/auth/token',
        headers: { 'x-authorization': person.session.refreshToken },
      });
      expect(refreshed.json().errorCode).toBe('E003');

      // Switched on again, its refusal may be remembered as it was for the time a standing session would be.
      await call(customerAdminToken, 'PUT', `${path(person.id)}/status`, { enabled: true });
      clock.advance(SESSION_RECHECK_MS);
      expect(await profile(person.session.token)).toEqual(ended);
      const again = await signInTo(top.code, person.username, person.password);
      expect(await profile(again.token)).toEqual(served);
    },
  );

  it('of a switched-off student creates no project', async () => {
    const kid = await student();
    await call(customerAdminToken, 'PUT', `/gw/admin/api/v1/school/students/${kid.id}/status`, { enabled: false });
    const created = await call(kid.session.token, 'POST', '/gw/api/v1/projects', { name: 'After hours' });
    expect(created.statusCode).toBe(401);
    expect(created.json().errorCode).toBe('E003');
  });

  it('of a deleted administrator is refused (E002)', async () => {
    const admin = await schoolAdmin();
    expect(await profile(admin.session.token)).toEqual(served);
    expect((await call(customerAdminToken, 'DELETE', `/api/v1/user/${admin.id}`)).json().errorCode).toBe('1000');
    expect(await profile(admin.session.token)).toEqual(ended);
  });

  it("of a school's teachers and students is refused (E003) once the school is switched off", async () => {
    const otherSchool = (await buildSchool(t.database.db, top.id)).id;
    const [kid, colleague, elsewhere] = [await student(), await teacher(), await student(top, otherSchool)];
    for (const person of [kid, colleague, elsewhere]) expect(await profile(person.session.token)).toEqual(served);
    // The student's notebook socket, which the gateway closes as soon as it hears that sign-ins ended.
    const closes: number[] = [];
    const claims = decodeJwt(kid.session.token);
    const forget = t.app.runtimeSockets.add({
      projectId: randomUUID(),
      auth: {
        userId: kid.id,
        customerId: top.id,
        roles: [ROLES.student],
        sessionId: String(claims.sid),
        mustChangePassword: false,
      },
      expiresAt: clock.now().getTime() + 600_000,
      upgradedAt: () => Date.now(),
      notify: () => undefined,
      close: (code) => void closes.push(code),
    });
    const off = await call(customerAdminToken, 'PUT', `/api/v1/admin_organize/schools/${schoolId}/status`, {
      enabled: false,
    });
    expect(off.json().errorCode).toBe('1000');
    // Found by the check the news starts, not by the next one of every 10 s.
    await waitFor(() => closes.length > 0, 5_000);
    forget();
    expect(closes).toEqual([4401]);
    expect(await profile(kid.session.token)).toEqual(disabled);
    expect(await profile(colleague.session.token)).toEqual(disabled);
    expect(await profile(elsewhere.session.token)).toEqual(served);

    await call(customerAdminToken, 'PUT', `/api/v1/admin_organize/schools/${schoolId}/status`, { enabled: true });
    clock.advance(SESSION_RECHECK_MS);
    expect(await profile(kid.session.token)).toEqual(ended);
    expect(await profile((await kid.signIn()).token)).toEqual(served);
  });

  it("of a customer's people and its sub-customers' is refused (E003) once it is switched off", async () => {
    const subSchool = (await buildSchool(t.database.db, sub.id)).id;
    const [kid, subKid] = [await student(), await student(sub, subSchool)];
    const strangers = await buildCustomer(t.database.db);
    const stranger = await student(strangers, (await buildSchool(t.database.db, strangers.id)).id);
    for (const person of [kid, subKid, stranger]) expect(await profile(person.session.token)).toEqual(served);
    const off = await call(rootToken, 'PUT', `/api/v1/admin_super/organizes/${top.id}/status`, { enabled: false });
    expect(off.json().errorCode).toBe('1000');
    expect(await profile(kid.session.token)).toEqual(disabled);
    expect(await profile(subKid.session.token)).toEqual(disabled);
    expect(await profile(customerAdminToken)).toEqual(disabled);
    expect(await profile(stranger.session.token)).toEqual(served);

    await call(rootToken, 'PUT', `/api/v1/admin_super/organizes/${top.id}/status`, { enabled: true });
    clock.advance(SESSION_RECHECK_MS);
    expect(await profile(kid.session.token)).toEqual(ended);
    expect(await profile(customerAdminToken)).toEqual(ended);
    customerAdminToken = (await signInTo(top.code, customerAdmin.username, customerAdmin.password)).token;
  });

  it("of a sub-customer's people is refused (E003) once its parent's administrator switches it off", async () => {
    const subSchool = (await buildSchool(t.database.db, sub.id)).id;
    const [subKid, kid] = [await student(sub, subSchool), await student()];
    expect(await profile(subKid.session.token)).toEqual(served);
    const off = await call(customerAdminToken, 'PUT', `/api/v1/admin/sub-customers/${sub.id}/status`, {
      enabled: false,
    });
    expect(off.json().errorCode).toBe('1000');
    expect(await profile(subKid.session.token)).toEqual(disabled);
    expect(await profile(kid.session.token)).toEqual(served);
    await call(customerAdminToken, 'PUT', `/api/v1/admin/sub-customers/${sub.id}/status`, { enabled: true });
  });

  it(`is refused within ${SESSION_RECHECK_MS} ms when the database changes where this process is not told`, async () => {
    const kid = await student();
    expect(await profile(kid.session.token)).toEqual(served);
    await t.database.db.update(schools).set({ enabled: false }).where(eq(schools.id, schoolId));
    try {
      // Up to the bound this process answers from what the database said last.
      clock.advance(SESSION_RECHECK_MS - 1);
      expect(await profile(kid.session.token)).toEqual(served);
      clock.advance(1);
      expect(await profile(kid.session.token)).toEqual(disabled);
    } finally {
      await t.database.db.update(schools).set({ enabled: true }).where(eq(schools.id, schoolId));
    }
    clock.advance(SESSION_RECHECK_MS);
    expect(await profile(kid.session.token)).toEqual(served);
  });

  it(`is refused by another process on the same database within ${SESSION_RECHECK_MS} ms, without Redis`, async () => {
    const other = await buildApp({
      config: t.config,
      database: t.database,
      storage: t.storage,
      logger: false,
      now: clock.now,
    });
    try {
      const kid = await student();
      expect(await profile(kid.session.token, other)).toEqual(served);
      expect((await call(kid.session.token, 'POST', '/gw/api/v1/auth/logout')).json().errorCode).toBe('1000');
      expect(await profile(kid.session.token)).toEqual(ended);
      clock.advance(SESSION_RECHECK_MS - 1);
      expect(await profile(kid.session.token, other)).toEqual(served);
      clock.advance(1);
      expect(await profile(kid.session.token, other)).toEqual(ended);
    } finally {
      await other.close();
    }
  });

  it('leaves the public routes to a visitor: a token of an ended sign-in is not refused there', async () => {
    const kid = await student();
    await call(kid.session.token, 'POST', '/gw/api/v1/auth/logout');
    const setting = await call(kid.session.token, 'GET', '/gw/api/v1/sys/setting');
    expect(setting.json().errorCode).toBe('1000');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      headers: { 'x-authorization': kid.session.token },
      payload: { custcode: top.code, usernameOrEmailOrPhone: kid.username, password: b64(kid.password) },
    });
    expect(signIn.json().errorCode).toBe('1000');
  });
});
