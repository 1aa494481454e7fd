import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { AccessTokens } from '../server/src/platform/auth/tokens.js';
import { loadOrCreateSecret } from '../server/src/platform/secrets.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import { formatLoad, load, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';

/**
 * GET /gw/api/v1/sys/setting through the whole app (security headers, envelope, zod serializer, request ids)
 * next to a bare Fastify route answering the same JSON, in the same run.
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
    // The same route for a signed-in caller: the auth guard verifies the access token (HS256) first.
    const tokens = new AccessTokens(loadOrCreateSecret(dataDir, 'jwt.key', config.jwtSecret), 1800, () => new Date());
    const token = await tokens.sign({
      userId: randomUUID(),
      customerId: null,
      roles: ['ROLE_STUDENT'],
      sessionId: randomUUID(),
      mustChangePassword: false,
    });
    const signedIn = await load(`  the same, signed in (${kind})`, `${appUrl}/gw/api/v1/sys/setting`, {
      headers: { language: 'en', 'x-authorization': token },
    });
    return [
      formatLoad(bareResult),
      formatLoad(appResult),
      ratio(appResult, bareResult),
      formatLoad(signedIn),
      ratio(signedIn, bareResult).replace('the real route', 'a signed-in caller'),
    ];
  } finally {
    await app.close();
    await bare.close();
    await database.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ratio(app: LoadResult, bare: LoadResult): string {
  const pct = (100 * app.requestsPerSecond) / bare.requestsPerSecond;
  return `ratio: the real route serves ${pct.toFixed(0)} % of the bare route's req/s (target ≥ 50 %)`;
}
