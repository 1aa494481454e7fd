import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword, verifyPassword } from '../server/src/platform/passwords.js';
import { createScratchDatabase } from './scratch-database.js';
import { cpuSeconds, startServerProcess, stopServerProcess } from './server-process.js';

const USERS = 40;
const PASSWORD = 'Bench@2026x';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function storm(server: ChildProcess, url: string, connections: number, limit: number, label: string) {
  const cpuBefore = cpuSeconds(server.pid!);
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
  const cpuPerLogin = (1000 * (cpuSeconds(server.pid!) - cpuBefore)) / Math.max(1, result.requests.total);
  return `${label}, ${String(connections).padStart(2)} concurrent logins: ${rate.toFixed(1)} logins/s = ${((100 * rate) / limit).toFixed(0)} % of the limit (target ≥ 80 %), p95 ${percentile(times, 95).toFixed(0)} ms (target < 1000 ms), server CPU ${cpuPerLogin.toFixed(1)} ms a login, non-2xx ${result.non2xx}${result.non2xx > 0 ? ' — sign-ins failed, so this figure is not valid' : ''}`;
}

/**
 * A login storm: concurrent password sign-ins of different accounts against the built server running in its own
 * process (as deployed; the load generator here stays out of its event loop), next to the limit the password hash
 * sets (cores ÷ the time of one argon2id verify), measured in the same run. With `DATABASE_URL` it runs again on a
 * scratch database of that PostgreSQL server.
 */
export async function benchLogin(serverUrl?: string): Promise<string[]> {
  const hash = await hashPassword(PASSWORD);
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
  // The rate the hash alone reaches with every core busy (two verifies per core in flight, as in a storm): what a
  // sign-in could reach if it did nothing else. Cores sharing memory bandwidth make it lower than the limit.
  let verified = 0;
  const until = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: cores * 2 }, async () => {
      while (performance.now() < until) {
        await verifyPassword(hash, PASSWORD);
        verified++;
      }
    }),
  );
  const hashOnly = verified / 3;
  const lines = [
    `one argon2id verify: ${verifyMs.toFixed(1)} ms median → hash-bound limit ${limit.toFixed(0)} logins/s on ${cores} cores`,
    `argon2id verifies alone, ${cores * 2} at a time: ${hashOnly.toFixed(0)} a second (${((100 * hashOnly) / limit).toFixed(0)} % of the limit)`,
  ];

  const targets: { label: string; databaseUrl?: string }[] = [{ label: 'PGlite' }];
  if (serverUrl) targets.push({ label: 'PostgreSQL', databaseUrl: serverUrl });
  for (const target of targets) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-login-'));
    const scratch = target.databaseUrl ? await createScratchDatabase(target.databaseUrl) : undefined;
    let child: ChildProcess | undefined;
    try {
      const database = await openDatabase({ databaseUrl: scratch?.url, dataDir: path.join(dataDir, 'db') });
      try {
        await database.migrate(MIGRATIONS_FOLDER);
        const [customer] = await database.db.insert(customers).values({ code: 'bench2026', name: 'Bench' }).returning();
        await database.db.insert(users).values(
          Array.from({ length: USERS }, (_, i) => ({
            customerId: customer!.id,
            username: `bench${i}`,
            passwordHash: hash,
            roles: ['ROLE_STUDENT'],
          })),
        );
      } finally {
        await database.close();
      }
      const server = await startServerProcess({
        DATA_DIR: dataDir,
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
        // A storm from one address is what this measures, not the request shield's answer to it.
        SHIELD_LOGIN_FAILURES_PER_HOUR: '100000',
      });
      child = server.child;
      // One and two sign-ins per core, then a storm: eight per core, and a class of 40 pressing "sign in" together.
      for (const connections of [cores, cores * 2, cores * 8, 40])
        lines.push(await storm(server.child, server.url, connections, limit, target.label));
    } finally {
      if (child) await stopServerProcess(child);
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return lines;
}
