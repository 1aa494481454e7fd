import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as argon2 from '@node-rs/argon2';
import autocannon from 'autocannon';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword, hugePagesSetting, verifyPassword } from '../server/src/platform/passwords.js';
import { createScratchDatabase } from './scratch-database.js';
import { cpuSeconds, machineSeconds, settled, startServerProcess, stopServerProcess } from './server-process.js';

const USERS = 40;
const PASSWORD = 'Bench@2026x';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The median time of one argon2id verify, in milliseconds, on an otherwise idle machine. */
async function verifyMs(hash: string, samples: number) {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await verifyPassword(hash, PASSWORD);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * Runs `measure` between two sets of verifies and returns its result with the hash-bound limit (cores ÷ the median
 * verify of both sets). A shared machine's speed drifts by a fifth within a minute, so a limit measured once at the
 * start says little about a storm a minute later: each figure is divided by the limit measured around it.
 */
async function aroundLimit<T>(hash: string, measure: () => Promise<T>) {
  const before = await verifyMs(hash, 20);
  const result = await measure();
  const times = [...before, ...(await verifyMs(hash, 20))].sort((a, b) => a - b);
  const verify = percentile(times, 50);
  return { result, verify, limit: (os.availableParallelism() * 1000) / verify };
}

interface StormResult {
  rate: number;
  p95: number;
  cpuPerLogin: number;
  /** The main thread's share: HTTP, JSON, the queries (all of the embedded database), the token; not the hash. */
  mainPerLogin: number;
  non2xx: number;
  /** Where the machine's cores went during the storm, as shares of all of them: the server, this benchmark (the load generator), everything else busy (the database server, the system), idle, stolen by the host. The server's own share is there too. */
  machine: { server: number; bench: number; others: number; idle: number; steal: number };
}

async function storm(server: ChildProcess, url: string, connections: number, accounts = 'bench'): Promise<StormResult> {
  const cpuBefore = cpuSeconds(server.pid!);
  const mainBefore = cpuSeconds(server.pid!, server.pid!);
  const machineBefore = machineSeconds();
  const benchBefore = process.cpuUsage();
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
              usernameOrEmailOrPhone: `${accounts}${n++ % USERS}`,
              password: Buffer.from(PASSWORD).toString('base64'),
            }),
          );
        },
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
    instance.on('response', (_c, _s, _b, ms) => times.push(ms));
  });
  const machineAfter = machineSeconds();
  const benchCpu = process.cpuUsage(benchBefore);
  const serverCpu = cpuSeconds(server.pid!) - cpuBefore;
  const all =
    machineAfter.busy -
    machineBefore.busy +
    (machineAfter.idle - machineBefore.idle) +
    (machineAfter.steal - machineBefore.steal);
  const benchSeconds = (benchCpu.user + benchCpu.system) / 1e6;
  const machine = {
    server: serverCpu / all,
    bench: benchSeconds / all,
    others: Math.max(0, machineAfter.busy - machineBefore.busy - serverCpu - benchSeconds) / all,
    idle: (machineAfter.idle - machineBefore.idle) / all,
    steal: (machineAfter.steal - machineBefore.steal) / all,
  };
  times.sort((a, b) => a - b);
  const logins = Math.max(1, result.requests.total);
  const cpuPerLogin = (1000 * serverCpu) / logins;
  const mainPerLogin = (1000 * (cpuSeconds(server.pid!, server.pid!) - mainBefore)) / logins;
  await settled(server);
  return {
    rate: result.requests.average,
    p95: percentile(times, 95),
    cpuPerLogin,
    mainPerLogin,
    non2xx: result.non2xx,
    machine,
  };
}

const percent = (share: number) => `${(100 * share).toFixed(0)} %`;

const share = (rate: number, limit: number) => `${((100 * rate) / limit).toFixed(0)} %`;

/**
 * A login storm: concurrent password sign-ins of different accounts against the built server running in its own
 * process (as deployed; the load generator here stays out of its event loop), next to the limit the password hash
 * sets (cores ÷ the time of one argon2id verify), measured just before and after each figure. With `DATABASE_URL` it runs again on a
 * scratch database of that PostgreSQL server.
 */
export async function benchLogin(serverUrl?: string): Promise<string[]> {
  const hash = await hashPassword(PASSWORD);
  // Accounts whose stored hash asks argon2id for almost nothing (8 KiB, one pass): a storm of their sign-ins
  // measures everything a sign-in does besides the hash.
  const lightHash = await argon2.hash(PASSWORD, { algorithm: 2, memoryCost: 8, timeCost: 1, parallelism: 1 });
  const cores = os.availableParallelism();
  // The rate the hash alone reaches with every core busy (two verifies per core in flight, as in a storm): what a
  // sign-in could reach if it did nothing else. Cores sharing memory bandwidth make it lower than the limit.
  const hashOnly = await aroundLimit(hash, async () => {
    let verified = 0;
    const until = performance.now() + 4000;
    await Promise.all(
      Array.from({ length: cores * 2 }, async () => {
        while (performance.now() < until) {
          await verifyPassword(hash, PASSWORD);
          verified++;
        }
      }),
    );
    return verified / 4;
  });
  const lines = [
    `hash-bound limit = ${cores} cores ÷ one argon2id verify (median of 40, measured around each figure); transparent huge pages: ${hugePagesSetting() ?? 'unknown'}`,
    `argon2id verifies alone, ${cores * 2} at a time: ${hashOnly.result.toFixed(0)} a second = ${share(hashOnly.result, hashOnly.limit)} of the limit (${hashOnly.limit.toFixed(0)}/s, one verify ${hashOnly.verify.toFixed(1)} ms)`,
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
          [hash, lightHash].flatMap((passwordHash, light) =>
            Array.from({ length: USERS }, (_, i) => ({
              customerId: customer!.id,
              username: `${light ? 'light' : 'bench'}${i}`,
              passwordHash,
              roles: ['ROLE_STUDENT'],
            })),
          ),
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
      for (const connections of [cores, cores * 2, cores * 8, 40]) {
        const { result, limit, verify } = await aroundLimit(hash, () => storm(server.child, server.url, connections));
        lines.push(
          `${target.label}, ${String(connections).padStart(2)} concurrent logins: ${result.rate.toFixed(1)} logins/s = ${share(result.rate, limit)} of the limit (${limit.toFixed(0)}/s, one verify ${verify.toFixed(1)} ms; target ≥ 80 %), p95 ${result.p95.toFixed(0)} ms (target < 1000 ms), server CPU ${result.cpuPerLogin.toFixed(1)} ms a login (main thread ${result.mainPerLogin.toFixed(1)}), machine: server ${percent(result.machine.server)}, load generator ${percent(result.machine.bench)}, database and system ${percent(result.machine.others)}, idle ${percent(result.machine.idle)}, stolen ${percent(result.machine.steal)}; non-2xx ${result.non2xx}${result.non2xx > 0 ? ' — sign-ins failed, so this figure is not valid' : ''}`,
        );
      }
      const bare = await storm(server.child, server.url, cores * 8, 'light');
      lines.push(
        `${target.label}, everything but the hash (accounts hashed with 8 KiB, one pass), ${cores * 8} concurrent: ${bare.rate.toFixed(0)} logins/s, server CPU ${bare.cpuPerLogin.toFixed(2)} ms a login (main thread ${bare.mainPerLogin.toFixed(2)}), non-2xx ${bare.non2xx}`,
      );
    } finally {
      if (child) await stopServerProcess(child);
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return lines;
}
