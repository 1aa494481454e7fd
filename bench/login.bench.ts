import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword, verifyPassword } from '../server/src/platform/passwords.js';
import { createScratchDatabase } from './scratch-database.js';

const USERS = 40;
const PASSWORD = 'Bench@2026x';
const SERVER_MAIN = fileURLToPath(new URL('../server/dist/main.js', import.meta.url));

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built server (`server/dist/main.js`, as `npm start` runs it) in a process of its own, ready to answer. */
async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // The embedded database unless the target names one: never the DATABASE_URL the benchmark itself was given.
  const { DATABASE_URL: _given, ...inherited } = process.env;
  const child = spawn(process.execPath, [SERVER_MAIN], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...inherited,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      SUPER_ADMIN_PASSWORD: 'Bench@2026super',
      RUNTIME_AUTO_INSTALL: 'false',
      // No notebook servers started ahead: they would share the cores with the storm.
      RUNTIME_WARM_POOL: '0',
      // A storm from one address is what this measures, not the request shield's answer to it.
      SHIELD_LOGIN_FAILURES_PER_HOUR: '100000',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`))),
  );
  const ready = (async () => {
    for (;;) {
      const ok = await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await Promise.race([ready, exited]);
  return { url, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
      const server = await startServer({ DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
      child = server.child;
      // One and two sign-ins per core, then a storm: eight per core, and a class of 40 pressing "sign in" together.
      for (const connections of [cores, cores * 2, cores * 8, 40])
        lines.push(await storm(server.child, server.url, connections, limit, target.label));
    } finally {
      if (child) await stopServer(child);
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return lines;
}
