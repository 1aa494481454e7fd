import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword, verifyPassword } from '../server/src/platform/passwords.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';

const USERS = 40;
const PASSWORD = 'Bench@2026x';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * A login storm: concurrent password sign-ins of different accounts, next to the limit the password hash sets
 * (cores ÷ the time of one argon2id verify), measured in the same run.
 */
export async function benchLogin(): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-login-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }) };
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const [customer] = await database.db.insert(customers).values({ code: 'bench2026', name: 'Bench' }).returning();
  const hash = await hashPassword(PASSWORD);
  await database.db.insert(users).values(
    Array.from({ length: USERS }, (_, i) => ({
      customerId: customer!.id,
      username: `bench${i}`,
      passwordHash: hash,
      roles: ['ROLE_STUDENT'],
    })),
  );
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  try {
    const verifyTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      await verifyPassword(hash, PASSWORD);
      verifyTimes.push(performance.now() - started);
    }
    verifyTimes.sort((a, b) => a - b);
    const verifyMs = percentile(verifyTimes, 50);
    const cores = os.availableParallelism();
    const limit = (cores * 1000) / verifyMs;
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const lines = [
      `one argon2id verify: ${verifyMs.toFixed(1)} ms median → hash-bound limit ${limit.toFixed(0)} logins/s on ${cores} cores`,
    ];
    for (const connections of [cores, cores * 2]) {
      let n = 0;
      const times: number[] = [];
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${url}/gw/api/v1/auth/login`,
            method: 'POST',
            connections,
            duration: 6,
            headers: { 'content-type': 'application/json' },
            setupClient: (client) => {
              client.setBody(
                JSON.stringify({
                  custcode: 'bench2026',
                  usernameOrEmailOrPhone: `bench${n++ % USERS}`,
                  password: Buffer.from(PASSWORD).toString('base64'),
                }),
              );
            },
          },
          (error, r) => (error ? reject(error) : resolve(r)),
        );
        instance.on('response', (_c, _s, _b, ms) => times.push(ms));
      });
      times.sort((a, b) => a - b);
      const rate = result.requests.average;
      lines.push(
        `${String(connections).padStart(2)} concurrent logins: ${rate.toFixed(1)} logins/s = ${((100 * rate) / limit).toFixed(0)} % of the limit (target ≥ 80 %), p95 ${percentile(times, 95).toFixed(0)} ms (target < 1000 ms), non-2xx ${result.non2xx}`,
      );
    }
    return lines;
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
