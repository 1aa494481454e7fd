import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase, type Database } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { users } from '../server/src/platform/db/schema/index.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { SessionCheck } from '../server/src/platform/auth/session-check.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import { formatLoad, load, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';

/**
 * GET /gw/api/v1/sys/setting through the whole app (security headers, envelope, zod serializer, request ids)
 * next to a bare Fastify route answering the same JSON, in the same run; then for a signed-in caller, and that
 * caller without and with the check that the sign-in stands.
 */
export async function benchApi(serverUrl: string | undefined): Promise<string[]> {
  // On PostgreSQL, a database of its own: nothing is migrated or written into the one DATABASE_URL names.
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUNTIME_WARM_POOL: '0' }), databaseUrl };
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const bare = Fastify();
  bare.get('/bare', async () => ({
    errorCode: '1000',
    errorMsg: '',
    data: { isCustomerSingle: false, isVerifyCode: false },
  }));
  try {
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const kind = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
    // Warm both up so the JIT sees each path before measuring.
    await load('warm-up', `${bareUrl}/bare`, { seconds: 1 });
    await load('warm-up', `${appUrl}/gw/api/v1/sys/setting`, { seconds: 1 });
    const bareResult = await load('bare Fastify route', `${bareUrl}/bare`);
    const appResult = await load(`GET /gw/api/v1/sys/setting (${kind})`, `${appUrl}/gw/api/v1/sys/setting`, {
      headers: { language: 'en' },
    });
    // The same route for a signed-in caller: the auth guard verifies the access token (HS256) and checks that its
    // sign-in stands (the database, at most every few seconds), so the caller signs in for real.
    const token = await signInOnce(app, database);
    const signedIn = await load(`  the same, signed in (${kind})`, `${appUrl}/gw/api/v1/sys/setting`, {
      headers: { language: 'en', 'x-authorization': token },
    });
    const check = await sessionCheckCost(`${appUrl}/gw/api/v1/sys/setting`, {
      language: 'en',
      'x-authorization': token,
    });
    return [
      formatLoad(bareResult),
      formatLoad(appResult),
      ratio(appResult, bareResult),
      formatLoad(signedIn),
      ratio(signedIn, bareResult).replace('the real route', 'a signed-in caller'),
      `  signed in, without / with the session check, ${ROUNDS} pairs of 2-second turns: ` +
        `${check.without.toFixed(0)} / ${check.with.toFixed(0)} req/s; median of the pairs ` +
        `${(100 * check.medianRatio).toFixed(1)} % (target ≥ 90 %)`,
    ];
  } finally {
    await app.close();
    await bare.close();
    await database.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ROUNDS = 10;

/**
 * The signed-in route without and with the check that its sign-in stands, in pairs of 2-second turns in the same
 * process (for the turns without, the check is replaced by one that always answers "stands"), each pair in the other
 * order than the one before, so that whatever else the machine does falls on both alike: the mean req/s of each and
 * the median of the pairs' ratios.
 */
async function sessionCheckCost(url: string, headers: Record<string, string>) {
  const real = SessionCheck.prototype.refusal;
  const turn = async (check: boolean) => {
    SessionCheck.prototype.refusal = check ? real : () => null;
    return (await load(check ? 'with' : 'without', url, { headers, seconds: 2 })).requestsPerSecond;
  };
  const pairs: { without: number; with: number }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const checkFirst = round % 2 === 1;
      const first = await turn(checkFirst);
      const second = await turn(!checkFirst);
      pairs.push(checkFirst ? { with: first, without: second } : { without: first, with: second });
    }
  } finally {
    SessionCheck.prototype.refusal = real;
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const ratios = pairs.map((p) => p.with / p.without).sort((x, y) => x - y);
  return {
    without: mean(pairs.map((p) => p.without)),
    with: mean(pairs.map((p) => p.with)),
    medianRatio: (ratios[ROUNDS / 2 - 1]! + ratios[ROUNDS / 2]!) / 2,
  };
}

/** A public-space learner signed in through the API; answers the access token, checked on a signed-in route. */
async function signInOnce(app: FastifyInstance, database: Database): Promise<string> {
  const password = 'Bench2026pass';
  await database.db.insert(users).values({ username: 'bench-learner', passwordHash: await hashPassword(password) });
  const login = await app.inject({
    method: 'POST',
    url: '/gw/api/v1/auth/login',
    payload: {
      custcode: '',
      usernameOrEmailOrPhone: 'bench-learner',
      password: Buffer.from(password).toString('base64'),
    },
  });
  const token = (login.json() as { data: { token: string } }).data.token;
  const profile = await app.inject({
    method: 'GET',
    url: '/gw/api/v1/user/userInfo',
    headers: { 'x-authorization': token },
  });
  if (profile.json().errorCode !== '1000') throw new Error(`the bench's sign-in does not stand: ${profile.body}`);
  return token;
}

function ratio(app: LoadResult, bare: LoadResult): string {
  const pct = (100 * app.requestsPerSecond) / bare.requestsPerSecond;
  return `ratio: the real route serves ${pct.toFixed(0)} % of the bare route's req/s (target ≥ 50 %)`;
}
