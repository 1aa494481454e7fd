import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeUsage } from './runtime-driver.js';

interface ProcStat {
  ppid: number;
  rss: number;
  cpu: number;
}

const TICKS = 100;
const PAGE_SIZE = 4096;

/** Every process's parent, resident memory and CPU time, from /proc. */
function scanProc(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of safeReaddir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(pid, {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / TICKS,
        rss: Number(fields[21]) * PAGE_SIZE,
      });
    } catch {
      // the process ended while we read
    }
  }
  return stats;
}

/** A process and its descendants. */
function treeOf(rootPid: number, stats: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    if (stats.has(pid)) tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory and CPU time of a process and its descendants, from /proc. */
export function processTreeUsage(rootPid: number): RuntimeUsage {
  const stats = scanProc();
  let memoryBytes = 0;
  let cpuSeconds = 0;
  for (const pid of treeOf(rootPid, stats)) {
    memoryBytes += stats.get(pid)!.rss;
    cpuSeconds += stats.get(pid)!.cpu;
  }
  return { memoryBytes, cpuSeconds };
}

/**
 * The bytes a process has added to disks so far: `write_bytes` (counted as pages are dirtied, so at once, not at
 * write-back) less `cancelled_write_bytes` (dirty pages of files it truncated or deleted). The counters include the
 * process's ended threads and the children it has reaped, so a cell's `!dd` counts in its kernel once it ends.
 * Writes to memory-backed file systems (tmpfs) are not counted: they never reach a disk.
 */
export function writtenBytes(pid: number): number {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? 0);
    return Math.max(0, field('write_bytes') - field('cancelled_write_bytes'));
  } catch {
    // the process ended while we read, or it is another user's and we are not root
    return 0;
  }
}

/** The latest scan of /proc, which the counts of every runtime in one check share. */
let recent: { at: number; stats: Map<number, ProcStat> } | null = null;
const SCAN_REUSE_MS = 100;

/**
 * The bytes a process and its descendants have added to disks so far (see `writtenBytes`). The tree comes from a
 * scan of /proc at most 100 ms old, so counting every runtime of a machine reads each process's parent once.
 */
export function processTreeWrittenBytes(rootPid: number): number {
  const now = Date.now();
  if (!recent || now - recent.at > SCAN_REUSE_MS) recent = { at: now, stats: scanProc() };
  return treeOf(rootPid, recent.stats).reduce((sum, pid) => sum + writtenBytes(pid), 0);
}

/** The bytes every process of a cgroup has added to disks so far, daemons that left their parent included. */
export function cgroupWrittenBytes(group: string): number {
  const procs = readFileSync(path.join(group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
  return procs.reduce((sum, pid) => sum + writtenBytes(Number(pid)), 0);
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
