import { readdirSync, readFileSync } from 'node:fs';
import type { RuntimeUsage } from './runtime-driver.js';

/** Resident memory and CPU time of a process and its descendants, from /proc. */
export function processTreeUsage(rootPid: number): RuntimeUsage {
  const children = new Map<number, number[]>();
  const stats = new Map<number, { rss: number; cpu: number }>();
  const ticks = 100;
  const pageSize = 4096;
  for (const entry of safeReaddir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const cpu = (Number(fields[11]) + Number(fields[12])) / ticks;
      const rss = Number(fields[21]) * pageSize;
      stats.set(pid, { rss, cpu });
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // the process ended while we read
    }
  }
  let memoryBytes = 0;
  let cpuSeconds = 0;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    const s = stats.get(pid);
    if (s) {
      memoryBytes += s.rss;
      cpuSeconds += s.cpu;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return { memoryBytes, cpuSeconds };
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
