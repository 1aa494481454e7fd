import { randomUUID } from 'node:crypto';
import { CERT_API } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A real Redis (`.ci/run` gives one to the server suites); without one this test does not run. */
const REDIS_URL = process.env.TEST_REDIS_URL;
const LIMIT = 4;

/** Two processes of one deployment count one address's verifications together. */
describe.skipIf(!REDIS_URL)('the verification limit across processes', () => {
  let t: TestApp;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const config = {
      ...t.config,
      redisUrl: REDIS_URL,
      redisKeyPrefix: `aiedu-test:${randomUUID()}:`,
      certificates: { ...t.config.certificates, verifyPerMinute: LIMIT },
    };
    for (let i = 0; i < 2; i++) {
      apps.push(await buildApp({ config, database: t.database, storage: t.storage, logger: false }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t.close();
  });

  it(`answers 429 once ${LIMIT} verifications reached either process within a minute`, async () => {
    const verify = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url: `${CERT_API.verify}?number=ZZ20261120${randomUUID().slice(0, 4)}` });
    const codes = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await verify(apps[i % 2]!)).statusCode);
    expect(codes).toEqual(Array(LIMIT).fill(404));
    for (const app of apps) expect((await verify(app)).statusCode).toBe(429);
  });
});
