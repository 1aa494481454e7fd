import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { ROLES } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { GatewaySocket } from '../modules/runtime/gateway-sockets.js';
import { b64, buildCustomer, buildSchool, buildUser, signIn } from '../test/factories.js';
import { waitFor } from '../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { RedisCluster } from './cluster.js';
import { RequestShield } from './shield.js';
import { centrePage, followCentreWrites } from '../modules/course/centre-cache.js';
import { keptInstitutionHomes } from '../modules/institution/home.service.js';
import type { AppContext } from './context.js';
import type { Db } from './db/client.js';

/** A real Redis, as `.ci/run` gives the server suites on PostgreSQL; without one these tests do not run. */
const REDIS_URL = process.env.TEST_REDIS_URL;

/**
 * Server processes that share a Redis (`REDIS_URL`) as processes of one deployment: the request shield counts and
 * blocks for all of them, and a sign-in that ends in one closes what the others hold open for it at once.
 */
describe.skipIf(!REDIS_URL)('processes sharing a Redis', () => {
  let t: TestApp;
  const others: FastifyInstance[] = [];
  let custcode: string;
  let customerId: string;
  let kid: { password: string };
  // Keys and channels of this run only, so runs on the same Redis never meet.
  const prefix = `aiedu-test:${randomUUID()}:`;
  const config = (): Partial<Config> => ({
    redisUrl: REDIS_URL,
    redisKeyPrefix: prefix,
    trustProxy: true,
    shieldLoginFailuresPerHour: 4,
    captchaAfterAccountFailures: 100,
    captchaAfterAddressFailures: 100,
  });
  /** Another process: the same database and configuration, its own memory (and clock, when given). */
  const anotherProcess = async (now?: () => Date) => {
    const app = await buildApp({ config: t.config, database: t.database, storage: t.storage, logger: false, now });
    others.push(app);
    return app;
  };
  const failLogin = (app: FastifyInstance, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      headers: { 'x-forwarded-for': ip },
      payload: { custcode, usernameOrEmailOrPhone: 'nobody', password: b64('wrong-wrong') },
    });
  const setting = (app: FastifyInstance, ip: string) =>
    app.inject({ method: 'GET', url: '/gw/api/v1/sys/setting', headers: { 'x-forwarded-for': ip } });

  beforeAll(async () => {
    t = await createTestApp({ config: config() });
    const customer = await buildCustomer(t.database.db);
    custcode = customer.code;
    customerId = customer.id;
    kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t?.close();
    // What this run left in Redis goes with it.
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('blocks an address whose failed sign-ins, spread over the processes, pass the limit, in every process', async () => {
    const other = await anotherProcess();
    // Four failures (the limit) split between the two processes: each saw two, and nothing is blocked yet.
    for (const app of [t.app, other, t.app, other]) await failLogin(app, '198.51.100.23');
    expect((await setting(t.app, '198.51.100.23')).statusCode).toBe(200);
    expect((await setting(other, '198.51.100.23')).statusCode).toBe(200);
    // The fifth, in one process, blocks the address in both: the other hears of it.
    await failLogin(t.app, '198.51.100.23');
    expect((await setting(t.app, '198.51.100.23')).statusCode).toBe(403);
    await waitFor(async () => (await setting(other, '198.51.100.23')).statusCode === 403, 5_000);
    // Another address is not touched.
    expect((await setting(other, '198.51.100.24')).statusCode).toBe(200);

    // A process that starts later reads the blocks still running.
    const late = await anotherProcess();
    const blocked = await setting(late, '198.51.100.23');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.headers['content-type']).toContain('text/plain');
  });

  it('closes at once, in another process, a socket whose sign-in ended with a logout here', async () => {
    const other = await anotherProcess();
    const token = await signIn(t.app, custcode, 'kid', kid.password);
    const claims = decodeJwt(token);
    const closes: number[] = [];
    const socket: GatewaySocket = {
      projectId: randomUUID(),
      auth: {
        userId: claims.sub!,
        customerId: String(claims.cid),
        roles: [ROLES.student],
        sessionId: String(claims.sid),
        mustChangePassword: false,
      },
      expiresAt: Date.now() + 600_000,
      upgradedAt: () => Date.now(),
      notify: () => undefined,
      close: (code) => void closes.push(code),
    };
    const forget = other.runtimeSockets.add(socket);
    try {
      const out = await t.app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/logout',
        headers: { 'x-authorization': token },
      });
      expect(out.json()).toMatchObject({ errorCode: '1000' });
      // Told through Redis, not found by the other process's 10-second check.
      await waitFor(() => closes.length > 0, 5_000);
      expect(closes).toEqual([4401]);
    } finally {
      forget();
    }
  });

  it('refuses at once, in another process, the access token of a sign-in that ended here', async () => {
    // Clocks that stand still: the other process keeps what the database said until it is told, however long.
    const still = new Date();
    const here = await anotherProcess(() => still);
    const there = await anotherProcess(() => still);
    const school = await buildSchool(t.database.db, customerId);
    const pupil = await buildUser(t.database.db, { customerId, schoolId: school.id, roles: [ROLES.student] });
    const admin = await buildUser(t.database.db, { customerId, roles: [ROLES.customerAdmin] });
    const adminToken = await signIn(here, custcode, admin.username, admin.password);
    const profile = async (token: string) =>
      (
        await there.inject({ method: 'GET', url: '/gw/api/v1/user/userInfo', headers: { 'x-authorization': token } })
      ).json().errorCode as string;

    const token = await signIn(here, custcode, 'kid', kid.password);
    expect(await profile(token)).toBe('1000');
    await here.inject({ method: 'POST', url: '/gw/api/v1/auth/logout', headers: { 'x-authorization': token } });
    await waitFor(async () => (await profile(token)) === 'E002', 5_000);

    // A school switched off here: every process checks the sessions it keeps again.
    const pupilToken = await signIn(here, custcode, pupil.username, pupil.password);
    expect(await profile(pupilToken)).toBe('1000');
    const off = await here.inject({
      method: 'PUT',
      url: `/api/v1/admin_organize/schools/${school.id}/status`,
      payload: { enabled: false },
      headers: { 'x-authorization': adminToken },
    });
    expect(off.json().errorCode).toBe('1000');
    await waitFor(async () => (await profile(pupilToken)) === 'E003', 5_000);
  });

  it('drops, in another process, the course centre pages it kept when a course is changed here', async () => {
    // The other process's own page cache (in one test process, apps on one database would share theirs).
    const listener = await RedisCluster.connect(REDIS_URL!, prefix);
    const otherDb = {} as Db;
    try {
      followCentreWrites({ db: otherDb, cluster: listener } as AppContext);
      let loads = 0;
      const page = () => centrePage(otherDb, 'public\n{}', 300, async () => ++loads);
      expect(await page()).toBe(1);
      expect(await page()).toBe(1); // kept for 300 s
      // A super administrator adds a tag in the first process.
      const root = await buildUser(t.database.db, { customerId: null, username: 'root', roles: [ROLES.super] });
      const token = await signIn(t.app, '', 'root', root.password);
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/v1/courses/tags',
        payload: { name: 'Robotics' },
        headers: { 'x-authorization': token },
      });
      expect(added.json()).toMatchObject({ errorCode: '1000' });
      await waitFor(async () => (await page()) === 2, 5_000);
    } finally {
      await listener.close();
    }
  });

  it('drops, in another process, the institution homes it kept when an administrator edits one here', async () => {
    const listener = await RedisCluster.connect(REDIS_URL!, prefix);
    try {
      const kept = keptInstitutionHomes({ db: {} as Db, cluster: listener } as AppContext);
      let loads = 0;
      const home = () => kept.get(custcode, async () => String(++loads));
      expect(await home()).toBe('1');
      expect(await home()).toBe('1'); // kept for a minute
      const admin = await buildUser(t.database.db, { customerId, username: 'homeadmin', roles: [ROLES.customerAdmin] });
      const token = await signIn(t.app, custcode, 'homeadmin', admin.password);
      const edited = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/institution-home',
        payload: { projectTypes: ['Robots'] },
        headers: { 'x-authorization': token },
      });
      expect(edited.json()).toMatchObject({ errorCode: '1000' });
      await waitFor(async () => (await home()) === '2', 5_000);
    } finally {
      await listener.close();
    }
  });

  it('keeps shielding on its own while its Redis is away', async () => {
    // Redis reached through a relay this test can cut, as a network would.
    const target = new URL(REDIS_URL!);
    const links = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        links.add(s);
        s.on('error', () => undefined);
        s.on('close', () => (client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as net.AddressInfo).port;
    const cluster = await RedisCluster.connect(`redis://127.0.0.1:${port}`, prefix);
    const shield = new RequestShield(
      { limits: { loginFailure: 2, codeRequest: 100 }, blockMs: 60_000, now: () => new Date() },
      cluster,
    );
    try {
      await shield.record('203.0.113.9', 'loginFailure');
      relay.close();
      for (const s of links) s.destroy();
      // From the cut on, failures are counted in this process: past the limit there, it blocks at once.
      await shield.record('203.0.113.9', 'loginFailure');
      expect(shield.isBlocked('203.0.113.9')).toBe(false);
      await shield.record('203.0.113.9', 'loginFailure');
      await shield.record('203.0.113.9', 'loginFailure');
      expect(shield.isBlocked('203.0.113.9')).toBe(true);
    } finally {
      await cluster.close();
    }
  });

  it('refuses to start when its Redis cannot be reached', async () => {
    const refused = await RedisCluster.connect('redis://:secret@127.0.0.1:1', prefix).catch((error: Error) => error);
    expect((refused as Error).message).toMatch(/^Redis at 127\.0\.0\.1:1 \(REDIS_URL\) could not be reached/);
    expect((refused as Error).message).not.toContain('secret');
  });
});
