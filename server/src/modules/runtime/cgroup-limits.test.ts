import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cgroupLimitFiles, cgroupUsage, detectLimitsMode, joinCgroup, removeCgroup } from './cgroup-limits.js';

/** A folder shaped like a cgroup v2 mount: the code under test only reads and writes its files. */
describe('cgroup v2 limits, on a fake cgroup folder', () => {
  let root: string;
  const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
  const prlimit = '/usr/bin/prlimit';

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'aiedu-cgroup-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('uses cgroups on a v2 host as root and delegates memory, cpu and pids down to the runtimes group', () => {
    writeFileSync(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids');
    expect(detectLimitsMode({ root, isRoot: true, prlimit })).toBe('cgroup');
    expect(read('cgroup.subtree_control')).toBe('+memory +cpu +pids');
    expect(read('aiedu-runtimes', 'cgroup.subtree_control')).toBe('+memory +cpu +pids');
    // A host without the pids controller keeps the other limits.
    writeFileSync(path.join(root, 'cgroup.controllers'), 'cpu io memory');
    expect(detectLimitsMode({ root, isRoot: true, prlimit })).toBe('cgroup');
    expect(read('aiedu-runtimes', 'cgroup.subtree_control')).toBe('+memory +cpu');
  });

  it('falls back to process limits on a cgroup v1 host, without root, or where groups cannot be made', () => {
    const fallback = existsSync(prlimit) ? 'rlimit' : 'none';
    expect(detectLimitsMode({ root, isRoot: true, prlimit })).toBe(fallback);
    writeFileSync(path.join(root, 'cgroup.controllers'), 'cpu memory');
    expect(detectLimitsMode({ root, isRoot: false, prlimit })).toBe(fallback);
    // A file where the runtimes group should go: the group cannot be made.
    writeFileSync(path.join(root, 'aiedu-runtimes'), '');
    expect(detectLimitsMode({ root, isRoot: true, prlimit })).toBe(fallback);
    expect(detectLimitsMode({ root, isRoot: false, prlimit: path.join(root, 'no-prlimit') })).toBe('none');
  });

  it('writes the runtime type limits: memory in bytes, no swap, CPU as quota per 100 ms period, processes', () => {
    expect(cgroupLimitFiles({ cpu: 1.5, memoryMb: 2048 }, 512)).toEqual({
      'memory.max': String(2048 * 1024 * 1024),
      'memory.swap.max': '0',
      'cpu.max': '150000 100000',
      'pids.max': '512',
    });
    // Unbounded where the runtimes share the server's user.
    expect(cgroupLimitFiles({ cpu: 1, memoryMb: 1024 }, null)).not.toHaveProperty('pids.max');
    const group = path.join(root, 'aiedu-runtimes', 'slot-1');
    mkdirSync(group, { recursive: true });
    // The kernel creates memory.swap.max only where swap is accounted; the file exists here.
    writeFileSync(path.join(group, 'memory.swap.max'), 'max');
    // And pids.max only where the pids controller is delegated.
    writeFileSync(path.join(group, 'pids.max'), 'max');
    expect(joinCgroup(root, 'slot-1', 4242, { cpu: 0.5, memoryMb: 512 }, 300)).toBe(group);
    expect(read('aiedu-runtimes', 'slot-1', 'pids.max')).toBe('300');
    expect(read('aiedu-runtimes', 'slot-1', 'memory.max')).toBe(String(512 * 1024 * 1024));
    expect(read('aiedu-runtimes', 'slot-1', 'memory.swap.max')).toBe('0');
    expect(read('aiedu-runtimes', 'slot-1', 'cpu.max')).toBe('50000 100000');
    expect(read('aiedu-runtimes', 'slot-1', 'cgroup.procs')).toBe('4242');
  });

  it('skips swap where the host does not account it, and processes where it does not count them', () => {
    joinCgroup(root, 'slot-2', 7, { cpu: 2, memoryMb: 1024 }, 512);
    expect(existsSync(path.join(root, 'aiedu-runtimes', 'slot-2', 'memory.swap.max'))).toBe(false);
    expect(existsSync(path.join(root, 'aiedu-runtimes', 'slot-2', 'pids.max'))).toBe(false);
    expect(read('aiedu-runtimes', 'slot-2', 'cpu.max')).toBe('200000 100000');
  });

  it('reads memory and CPU use of a group, and removes an empty one', () => {
    const group = path.join(root, 'aiedu-runtimes', 'slot-3');
    mkdirSync(group, { recursive: true });
    writeFileSync(path.join(group, 'memory.current'), '157286400\n');
    writeFileSync(path.join(group, 'cpu.stat'), 'usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n');
    expect(cgroupUsage(group)).toEqual({ memoryBytes: 157_286_400, cpuSeconds: 2.5 });
    const empty = path.join(root, 'aiedu-runtimes', 'slot-4');
    mkdirSync(empty);
    removeCgroup(empty);
    expect(existsSync(empty)).toBe(false);
  });
});
