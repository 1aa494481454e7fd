import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { customers, users } from '../server/src/platform/db/schema/index.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';
import type { LocalRuntimeDriver } from '../server/src/modules/runtime/local-driver.js';
import { processTreeUsage } from '../server/src/modules/runtime/process-usage.js';
import { JUPYTER_MISSING, KernelChannel } from '../server/src/test/jupyter-kit.js';

const STARTS = 20;
const COLD_STARTS = 5;
const ROUND_TRIPS = 200;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Resident memory of the pool's waiting servers (each with its kernel started ahead). */
function poolServersUsage(poolDir: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(poolDir))
        total += processTreeUsage(Number(pid)).memoryBytes;
    } catch {
      // ended while read
    }
  }
  return total;
}

/** A platform with a warm pool for Basic, one signed-in student, and what the runtime benchmarks do through it. */
export async function openRuntimeWorld(prefix: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  // A warm pool for Basic only: Basic starts take a waiting server, Advanced starts launch one (the cold path).
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }),
    runtimeWarmPool: { BASIC: 1, ADVANCED: 0, GPU: 0 },
  };
  const database = await openDatabase({ databaseUrl: undefined, dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const others: FastifyInstance[] = [];
  const close = async () => {
    for (const other of others) await other.close();
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const code = `rt${Date.now().toString(36)}`;
    const [customer] = await database.db
      .insert(customers)
      .values({ code, name: 'Runtime bench', containerTypes: ['BASIC', 'ADVANCED', 'GPU'] })
      .returning();
    await database.db.insert(users).values({
      customerId: customer!.id,
      username: 'kid',
      passwordHash: await hashPassword('Kid#2026pass'),
      roles: ['ROLE_STUDENT'],
    });
    const login = await app.inject({
      method: 'POST',
      url: '/gw/api/v1/auth/login',
      payload: {
        custcode: code,
        usernameOrEmailOrPhone: 'kid',
        password: Buffer.from('Kid#2026pass').toString('base64'),
      },
    });
    const token = login.json().data.token as string;
    const headers = { 'x-authorization': token };
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const call = (method: 'POST' | 'GET' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url, payload, headers });
    const pool = app.runtimes.driver as LocalRuntimeDriver;
    const channelsUrl = (server: string, id: string, kernel: string) =>
      `${server.replace('http', 'ws')}/gw/api/v1/runtime/${id}/api/kernels/${kernel}/channels?token=${encodeURIComponent(token)}`;
    const world = {
      app,
      dataDir,
      close,
      customerId: customer!.id,
      /** A call of the signed-in student's. */
      call,
      createProject: async (name: string) =>
        (await call('POST', '/gw/api/v1/projects', { name })).json().data.id as string,
      /** Until a Basic server waits in the pool, as after any pause longer than a refill (about a second). */
      poolReady: async () => {
        while (pool.warmCounts().BASIC < 1) await new Promise((r) => setTimeout(r, 100));
      },
      /** Start → a kernel answering its first cell through the gateway; the channel stays open. */
      kernelReady: async (id: string, runtimeType: 'BASIC' | 'ADVANCED' = 'BASIC') => {
        const proxy = `/gw/api/v1/runtime/${id}`;
        const started = performance.now();
        await call('POST', `/gw/api/v1/projects/${id}/runtime/start`, { runtimeType });
        const kernel = (await call('POST', `${proxy}/api/kernels`, { name: 'python3' })).json().id as string;
        const channel = await KernelChannel.open(channelsUrl(base, id, kernel));
        await channel.execute('1+1');
        return { elapsed: performance.now() - started, channel, kernel };
      },
      stop: (id: string) => call('POST', `/gw/api/v1/projects/${id}/runtime/stop`),
      /** A kernel's channels opened through a second server process on the same database, which forwards them. */
      throughAnotherProcess: async (id: string, kernel: string) => {
        // No pool of its own: it runs nothing here, and a launch would take a core from the measurement.
        const idle = { BASIC: 0, ADVANCED: 0, GPU: 0 };
        const other = await buildApp({
          config: { ...config, runtimeWarmPool: idle },
          database,
          storage,
          logger: false,
        });
        others.push(other);
        return KernelChannel.open(channelsUrl(await other.listen({ port: 0, host: '127.0.0.1' }), id, kernel));
      },
    };
    /** `count` starts of a project, each with a pool server waiting, each stopped again: their times. */
    const startTimes = async (id: string, count: number, runtimeType: 'BASIC' | 'ADVANCED' = 'BASIC') => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        await world.poolReady();
        const run = await world.kernelReady(id, runtimeType);
        times.push(run.elapsed);
        run.channel.close();
        await world.stop(id);
      }
      return times;
    };
    return { ...world, startTimes };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Notebook runtimes on this machine: time from "start" to a kernel answering its first cell over 20 starts,
 * a trivial cell's round trip through the gateway against straight to Jupyter and through a second server process
 * (which forwards to the one running the runtime), and the memory of an idle project.
 */
export async function benchRuntime(): Promise<string[]> {
  if (JUPYTER_MISSING) return ['(skipped: Debian jupyter-server is not installed)'];
  const world = await openRuntimeWorld('aiedu-bench-runtime-');
  const { app, poolReady, kernelReady, stop } = world;
  try {
    const id = await world.createProject('Bench');
    // The first start creates the project's virtual environment; it is reported on its own.
    const first = await kernelReady(id);
    first.channel.close();
    await stop(id);
    const times = await world.startTimes(id, STARTS);
    const coldTimes = await world.startTimes(id, COLD_STARTS, 'ADVANCED');
    await poolReady();
    const waiting = poolServersUsage(path.join(world.dataDir, 'runtime', 'pool'));

    await poolReady();
    const { channel, kernel } = await kernelReady(id);
    const roundTrips = async (c: KernelChannel) => {
      const samples: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        const started = performance.now();
        await c.execute('1+1');
        samples.push(performance.now() - started);
      }
      return samples;
    };
    const viaGateway = await roundTrips(channel);
    const endpoint = app.runtimes.endpoint(id)!;
    const direct = await KernelChannel.open(
      `${endpoint.baseUrl.replace('http', 'ws')}/api/kernels/${kernel}/channels?token=${endpoint.token}`,
    );
    const straight = await roundTrips(direct);
    const forwarded = await world.throughAnotherProcess(id, kernel);
    const viaOther = await roundTrips(forwarded);
    const usage = await app.runtimes.driver.usage(id);
    channel.close();
    direct.close();
    forwarded.close();
    return [
      `first start (creates the virtual environment): ${ms(first.elapsed)}`,
      `start → kernel answers its first cell, ${STARTS} starts from the warm pool: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}`,
      `the same without a waiting server (launched at the start), ${COLD_STARTS} starts: p50 ${ms(quantile(coldTimes, 0.5))}, p95 ${ms(quantile(coldTimes, 0.95))}`,
      `memory of a waiting pool server and its kernel started ahead (RSS): ${(waiting / 1024 / 1024).toFixed(0)} MB`,
      `trivial cell round trip (${ROUND_TRIPS}×): through the gateway p50 ${ms(quantile(viaGateway, 0.5))} (p95 ${ms(quantile(viaGateway, 0.95))}), straight to Jupyter p50 ${ms(quantile(straight, 0.5))} (p95 ${ms(quantile(straight, 0.95))}), through another server process that passes it to the one running the runtime p50 ${ms(quantile(viaOther, 0.5))} (p95 ${ms(quantile(viaOther, 0.95))}) = ${(quantile(viaOther, 0.5) / quantile(viaGateway, 0.5)).toFixed(2)}× the gateway's`,
      `memory of an idle project (Jupyter server + one kernel, RSS): ${((usage?.memoryBytes ?? 0) / 1024 / 1024).toFixed(0)} MB`,
    ];
  } finally {
    await world.close();
  }
}
