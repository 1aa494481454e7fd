import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built server, as `npm start` runs it. */
export const SERVER_MAIN = fileURLToPath(new URL('../server/dist/main.js', import.meta.url));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A server in a process of its own, ready to answer `/readyz`: the load generator stays out of its event loop, as
 * it would be in a deployment. `args` is what Node runs (the built server unless told otherwise); `env` is added to
 * this process's environment, without the `DATABASE_URL` the benchmark itself was given.
 */
export async function startServerProcess(
  env: Record<string, string>,
  args: string[] = [SERVER_MAIN],
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { DATABASE_URL: _given, ...inherited } = process.env;
  // BENCH_CPU_PROFILE=<folder>: each server writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiled = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, ...args] : args;
  const child = spawn(process.execPath, profiled, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      SUPER_ADMIN_PASSWORD: 'Bench@2026super',
      RUNTIME_AUTO_INSTALL: 'false',
      // No notebook servers started ahead: they would share the cores with the load.
      RUNTIME_WARM_POOL: '0',
      ...env,
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

export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * CPU seconds a process has used (user + system), from /proc; with `thread`, that thread's alone (a process's main
 * thread has the process's id).
 */
export function cpuSeconds(pid: number, thread?: number): number {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits until a server has finished what was still in flight (its CPU stands still). */
export async function settled(server: ChildProcess) {
  for (let last = cpuSeconds(server.pid!); ;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpuSeconds(server.pid!);
    if (now - last < 0.02) return;
    last = now;
  }
}

/** The whole machine's CPU time since boot, in seconds: busy (every state but idle and I/O wait), idle, and stolen by the host. */
export function machineSeconds(): { busy: number; idle: number; steal: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  return {
    busy: (user! + nice! + system! + irq! + softirq!) / 100,
    idle: (idle! + iowait!) / 100,
    steal: steal! / 100,
  };
}
