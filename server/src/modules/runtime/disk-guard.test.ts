import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { DISK_GRACE_BYTES, DiskGuard, type DiskGuardOptions } from './disk-guard.js';
import { processTreeWrittenBytes } from './process-usage.js';

const MB = 2 ** 20;

/** A guard over a pretend disk: free space and each runtime's written bytes are set by the test. */
function pretendDisk(floorMb: number) {
  const state = { free: 10_000 * MB, floorMb, written: new Map<string, number>(), reads: 0 };
  const stopped: string[] = [];
  const logs: string[] = [];
  const options: DiskGuardOptions = {
    dir: '/',
    floorMb: () => state.floorMb,
    running: () => [...state.written.keys()],
    written: async (projectId) => {
      state.reads += 1;
      return state.written.get(projectId) ?? null;
    },
    stop: async (projectId) => {
      stopped.push(projectId);
      state.written.delete(projectId);
    },
    log: { info: (_o, m) => void logs.push(m), warn: (_o, m) => void logs.push(m) },
    freeBytes: async () => state.free,
  };
  const guard = new DiskGuard(options);
  const write = (projectId: string, bytes: number) =>
    state.written.set(projectId, (state.written.get(projectId) ?? 0) + bytes);
  return { guard, options, state, stopped, logs, write };
}

describe('the disk guard', () => {
  it('reads no runtime while the disk is far above the floor, and nothing at all with the floor at 0', async () => {
    const disk = pretendDisk(1024);
    disk.write('busy', 5000 * MB);
    expect(await disk.guard.check()).toEqual([]);
    expect(disk.state.reads).toBe(0);
    await expect(disk.guard.assertRoom()).resolves.toBeUndefined();

    disk.state.floorMb = 0;
    disk.state.free = 0;
    expect(await disk.guard.check()).toEqual([]);
    await expect(disk.guard.assertRoom()).resolves.toBeUndefined();
    expect(disk.state.reads).toBe(0);
  });

  it('refuses starts below the floor with NO_SPACE and the free space', async () => {
    const disk = pretendDisk(1024);
    disk.state.free = 700.5 * MB;
    const refusal = await disk.guard.assertRoom().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ message: 'NO_SPACE', code: '2003', details: { disk: 'server', freeMb: 700 } });
  });

  it('stops the runtimes that keep writing below the floor, counting from the reading before it was crossed', async () => {
    const disk = pretendDisk(1024);
    disk.write('writer', 100 * MB);
    disk.write('saver', 100 * MB);
    disk.write('quiet', 100 * MB);
    // Near the floor: every runtime's count is read, nothing is stopped.
    disk.state.free = 1500 * MB;
    expect(await disk.guard.check()).toEqual([]);
    expect(disk.state.reads).toBe(3);

    // The writer fills the disk past the floor between two checks: those bytes count.
    disk.write('writer', 600 * MB);
    disk.write('saver', DISK_GRACE_BYTES);
    disk.state.free = 900 * MB;
    expect(await disk.guard.check()).toEqual(['writer']);
    expect(disk.logs).toContain('disk below the runtimes floor: starts refused');
    await expect(disk.guard.assertRoom()).rejects.toMatchObject({ message: 'NO_SPACE' });

    // A notebook save is within the grace; more than that, and the saver is stopped too.
    disk.write('saver', 1);
    expect(await disk.guard.check()).toEqual(['saver']);
    expect(await disk.guard.check()).toEqual([]);
    expect(disk.stopped).toEqual(['writer', 'saver']);
  });

  it('counts a runtime first seen below the floor from that reading, and lowers its baseline when its sum falls', async () => {
    const disk = pretendDisk(1024);
    disk.state.free = 500 * MB;
    disk.write('late', 900 * MB);
    expect(await disk.guard.check()).toEqual([]);
    // A daemon that wrote 800 MB ended with no parent to reap it: its bytes leave the sum.
    disk.state.written.set('late', 100 * MB);
    expect(await disk.guard.check()).toEqual([]);
    disk.write('late', DISK_GRACE_BYTES + 1);
    expect(await disk.guard.check()).toEqual(['late']);
  });

  it('forgets the baselines once the disk is back above the floor', async () => {
    const disk = pretendDisk(1024);
    disk.write('student', 0);
    disk.state.free = 900 * MB;
    await disk.guard.check();
    disk.write('student', 10 * MB);
    disk.state.free = 1100 * MB;
    expect(await disk.guard.check()).toEqual([]);
    expect(disk.logs).toContain('disk back above the runtimes floor');
    // Below again: what was written before the last reading above the floor is not held against it.
    disk.write('student', 10 * MB);
    disk.state.free = 1000 * MB;
    expect(await disk.guard.check()).toEqual([]);
    disk.write('student', 5 * MB);
    expect(await disk.guard.check()).toEqual([]);
    disk.write('student', 2 * MB);
    expect(await disk.guard.check()).toEqual(['student']);
  });

  it('checks near the floor as often as the driver asks', async () => {
    vi.useFakeTimers();
    const disk = pretendDisk(1024);
    const guard = new DiskGuard({ ...disk.options, watchMs: 2000 });
    try {
      disk.write('writer', 0);
      disk.state.free = 900 * MB;
      guard.open();
      await vi.advanceTimersByTimeAsync(1000);
      expect(disk.state.reads).toBe(1);
      await vi.advanceTimersByTimeAsync(1999);
      expect(disk.state.reads).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(disk.state.reads).toBe(2);
    } finally {
      guard.close();
      vi.useRealTimers();
    }
  });

  it('checks every second, every quarter second near the floor, and not at all once closed', async () => {
    vi.useFakeTimers();
    try {
      const disk = pretendDisk(1024);
      disk.write('writer', 0);
      disk.guard.open();
      // Far above the floor: free space only, once a second.
      await vi.advanceTimersByTimeAsync(999);
      expect(disk.state.reads).toBe(0);
      disk.state.free = 900 * MB;
      await vi.advanceTimersByTimeAsync(1);
      expect(disk.state.reads).toBe(1);
      // Below it: the runtime's count every quarter second, and the writer stopped at the first check after it wrote.
      await vi.advanceTimersByTimeAsync(250);
      expect(disk.state.reads).toBe(2);
      disk.write('writer', 64 * MB);
      await vi.advanceTimersByTimeAsync(250);
      expect(disk.stopped).toEqual(['writer']);
      disk.write('other', 0);
      disk.guard.close();
      const reads = disk.state.reads;
      await vi.advanceTimersByTimeAsync(5000);
      expect(disk.state.reads).toBe(reads);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('bytes written by a process tree', () => {
  // Writes to tmpfs reach no disk and are not counted: the test writes to a real disk.
  const TMPFS = 0x01021994;
  const base = statfsSync(os.tmpdir()).type === TMPFS ? process.cwd() : os.tmpdir();
  const dir = mkdtempSync(path.join(base, 'aiedu-writes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts what a process and the children it reaped added to the disk, less what it deleted', async () => {
    // A shell that waits for a line, then has a child write 8 MiB, waits again, then deletes the file.
    const shell = spawn(
      'sh',
      [
        '-c',
        'read go; dd if=/dev/zero of=big.bin bs=1M count=8 2>/dev/null; echo wrote; read go; rm big.bin; echo removed; read go',
      ],
      { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const lines: string[] = [];
    shell.stdout.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
    const before = processTreeWrittenBytes(shell.pid!);
    shell.stdin.write('\n');
    await waitFor(() => lines.includes('wrote'));
    const after = processTreeWrittenBytes(shell.pid!);
    expect(after - before).toBeGreaterThanOrEqual(8 * MB);
    shell.stdin.write('\n');
    await waitFor(() => lines.includes('removed'));
    // rm is another child: the dirty pages it cancelled are reaped into the shell's count too (none if written back).
    expect(processTreeWrittenBytes(shell.pid!)).toBeLessThanOrEqual(after);
    shell.stdin.end('\n');
    await new Promise((resolve) => shell.once('exit', resolve));
    expect(processTreeWrittenBytes(shell.pid!)).toBe(0);
  });
});
