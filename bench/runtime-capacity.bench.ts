import { readFileSync } from 'node:fs';
import { JUPYTER_MISSING } from '../server/src/test/jupyter-kit.js';
import { openRuntimeWorld } from './runtime.bench.js';

/** Idle projects added between two measurements of the start latency. */
const STEP = 5;
/** Starts of the probe project per measurement; their median is the figure. */
const PROBES = 3;
/** Bounds: at most this many idle projects (override with BENCH_RUNTIME_MAX), and never below 1 GiB available. */
const MAX_IDLE = Number(process.env.BENCH_RUNTIME_MAX ?? 60);
const MIN_AVAILABLE_BYTES = 1024 ** 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const memAvailable = () =>
  Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) * 1024;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * How many projects run at once on this machine before a start takes twice as long: idle projects (Jupyter
 * server + a kernel that ran a cell) are added five at a time, and after each five a probe project is started and
 * stopped three times from the warm pool, as a student's start would be. Stops when the median start doubles the
 * first one, at the bound, or when memory runs short. The memory each idle project costs the machine is the fall
 * of MemAvailable divided by their number (shared libraries counted once, as the kernel counts them).
 */
export async function benchRuntimeCapacity(): Promise<string[]> {
  if (JUPYTER_MISSING) return ['(skipped: Debian jupyter-server is not installed)'];
  // Idle projects must neither be culled nor run out of compute time (one student starts them all) during the run.
  const world = await openRuntimeWorld('aiedu-bench-capacity-', {
    RUNTIME_IDLE_MINUTES: '600',
    COMPUTE_WEEKLY_MINUTES_BASIC: '1000000',
  });
  const { poolReady, kernelReady, stop } = world;
  const lines: string[] = [];
  try {
    const probe = await world.createProject('Probe');
    // The probe's first start creates its virtual environment: not a start a student waits for twice.
    (await kernelReady(probe)).channel.close();
    await stop(probe);
    const measure = async () => median(await world.startTimes(probe, PROBES));
    await poolReady();
    const availableBefore = memAvailable();
    const baseline = await measure();
    lines.push(`start → first cell with no other project running: median ${baseline.toFixed(0)} ms`);
    const idle: string[] = [];
    let doubledAt: number | null = null;
    let stoppedBy = `the bound of ${MAX_IDLE} idle projects`;
    while (idle.length < MAX_IDLE) {
      for (let i = 0; i < STEP && idle.length < MAX_IDLE; i++) {
        const id = await world.createProject(`Idle ${idle.length + 1}`);
        await poolReady();
        // The kernel ran a cell and stays; its channel closes as a closed browser tab's would.
        (await kernelReady(id)).channel.close();
        idle.push(id);
      }
      const latency = await measure();
      const perProject = (availableBefore - memAvailable()) / idle.length;
      lines.push(
        `${String(idle.length).padStart(3)} idle projects running: start median ${latency.toFixed(0)} ms (${(latency / baseline).toFixed(2)}× the first), ${mb(perProject)} of memory each`,
      );
      if (latency >= 2 * baseline) {
        doubledAt = idle.length;
        break;
      }
      if (memAvailable() < MIN_AVAILABLE_BYTES) {
        stoppedBy = 'available memory below 1 GiB';
        break;
      }
    }
    lines.push(
      doubledAt === null
        ? `start latency did not double with ${idle.length} idle projects running (stopped at ${stoppedBy})`
        : `start latency doubled with ${doubledAt} idle projects running: this machine runs about ${doubledAt - STEP}–${doubledAt} at once before starts slow to twice their time`,
    );
    for (const id of idle) await stop(id);
    return lines;
  } finally {
    await world.close();
  }
}
