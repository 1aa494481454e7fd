import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeLimits } from '../../config.js';
import type { RuntimeUsage } from './runtime-driver.js';

export type LimitsMode = 'cgroup' | 'rlimit' | 'none';

/** The group every runtime's group lives under, below the cgroup v2 root. */
export const RUNTIME_GROUP = 'aiedu-runtimes';
const CPU_PERIOD_US = 100_000;

/**
 * How this host can limit memory and CPU: cgroups v2 when the unified hierarchy is mounted at `root` and we may
 * create a group and delegate the memory and cpu controllers to it; otherwise process limits (`prlimit`), and
 * nothing without prlimit. A cgroup v1 host (no `cgroup.controllers` file) gets process limits.
 */
export function detectLimitsMode(options: { root: string; isRoot: boolean; prlimit: string }): LimitsMode {
  const fallback = existsSync(options.prlimit) ? 'rlimit' : 'none';
  if (!options.isRoot) return fallback;
  try {
    if (!existsSync(path.join(options.root, 'cgroup.controllers'))) return fallback;
    mkdirSync(path.join(options.root, RUNTIME_GROUP), { recursive: true });
    // The pids controller bounds how many processes a runtime may have (a fork bomb in a notebook); a host without
    // it keeps the other limits.
    const available = readFileSync(path.join(options.root, 'cgroup.controllers'), 'utf8').split(/\s+/);
    const controllers = available.includes('pids') ? '+memory +cpu +pids' : '+memory +cpu';
    writeFileSync(path.join(options.root, 'cgroup.subtree_control'), controllers);
    writeFileSync(path.join(options.root, RUNTIME_GROUP, 'cgroup.subtree_control'), controllers);
    return 'cgroup';
  } catch {
    return fallback;
  }
}

/**
 * The cgroup v2 files of a runtime type's limits: `memory.max` in bytes, `cpu.max` as "quota period" (µs), and
 * `pids.max`, the processes and threads it may have at once (when bounded).
 */
export function cgroupLimitFiles(limits: RuntimeLimits, maxProcesses: number | null): Record<string, string> {
  return {
    'memory.max': String(limits.memoryMb * 1024 * 1024),
    // Without this the kernel swaps a runtime out instead of stopping it at its limit.
    'memory.swap.max': '0',
    'cpu.max': `${Math.round(limits.cpu * CPU_PERIOD_US)} ${CPU_PERIOD_US}`,
    ...(maxProcesses ? { 'pids.max': String(maxProcesses) } : {}),
  };
}

/**
 * Creates `root/aiedu-runtimes/<name>` with the limits and moves `pid` into it; answers the group's path, or null
 * (with the reason logged by the caller) when the host refused. A missing `memory.swap.max` (no swap accounting)
 * or `pids.max` (no pids controller) is not an error.
 */
export function joinCgroup(
  root: string,
  name: string,
  pid: number,
  limits: RuntimeLimits,
  maxProcesses: number | null,
): string {
  const group = path.join(root, RUNTIME_GROUP, name);
  mkdirSync(group, { recursive: true });
  for (const [file, value] of Object.entries(cgroupLimitFiles(limits, maxProcesses))) {
    const target = path.join(group, file);
    if ((file === 'memory.swap.max' || file === 'pids.max') && !existsSync(target)) continue;
    writeFileSync(target, value);
  }
  writeFileSync(path.join(group, 'cgroup.procs'), String(pid));
  return group;
}

/** Memory now in use and CPU time used by every process of a group. */
export function cgroupUsage(group: string): RuntimeUsage {
  const memoryBytes = Number(readFileSync(path.join(group, 'memory.current'), 'utf8').trim());
  const cpu = /usage_usec (\d+)/.exec(readFileSync(path.join(group, 'cpu.stat'), 'utf8'));
  return { memoryBytes, cpuSeconds: Number(cpu?.[1] ?? 0) / 1e6 };
}

/**
 * Removes a runtime's group. Processes left in it (a kernel that outlived its server's SIGKILL) are killed through
 * `cgroup.kill` first, and the empty group is removed a moment later.
 */
export function removeCgroup(group: string | null): void {
  if (!group) return;
  try {
    rmdirSync(group);
  } catch {
    try {
      writeFileSync(path.join(group, 'cgroup.kill'), '1');
    } catch {
      // an older kernel without cgroup.kill: the processes end with their server
    }
    setTimeout(() => {
      try {
        rmdirSync(group);
      } catch {
        // still busy: left for the administrator; it holds no limits of a live runtime
      }
    }, 1000).unref();
  }
}
