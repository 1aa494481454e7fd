import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { assertDiskRoom, diskSpace, diskUsage, sameDisk, watchDiskFloor } from './disk-space.js';

const MB = 2 ** 20;

/** 1 MiB chunks, `count` of them. */
const chunks = (count: number) => Readable.from(Array.from({ length: count }, () => Buffer.alloc(MB)));

/** Pipes `count` MiB through the watch into a sink; answers the bytes that reached it and how it ended. */
async function write(count: number, watch: ReturnType<typeof watchDiskFloor>) {
  let received = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback();
    },
  });
  const outcome = await pipeline(chunks(count), watch, sink).then(
    () => 'finished',
    (error: Error) => error.message,
  );
  return { received, outcome };
}

describe('the disk floor', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-disk-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops a long write once the disk falls below the floor, looking at the start and every 32 MiB', async () => {
    let free = 2000 * MB;
    const looked: number[] = [];
    let written = 0;
    const watch = watchDiskFloor(dir, 1024, async () => {
      looked.push(written);
      // The disk fills as the write goes on: 10 MiB less for each MiB written.
      return free - written * 10 * MB;
    });
    watch.on('data', () => void (written += 1));
    const { received, outcome } = await write(200, watch);
    // Free space: 2000 MiB at the start, 1680 after 32 MiB, 1360 after 64, 1040 after 96, 720 after 128.
    expect(looked).toEqual([0, 32, 64, 96, 128]);
    expect(received).toBe(128 * MB);
    expect(outcome).toMatch(/^The disk of .+ fell below MIN_FREE_DISK_MB \(720 MB free, 1024 MB kept\)/);

    free = 0;
    let measured = 0;
    const off = await write(
      100,
      watchDiskFloor(dir, 0, async () => ++measured),
    );
    expect(off).toEqual({ received: 100 * MB, outcome: 'finished' });
    expect(measured).toBe(0);
  });

  it('refuses work below the floor, counting what would arrive, with the free space in whole MiB', async () => {
    const { freeBytes } = await diskSpace(dir);
    await expect(assertDiskRoom(dir, 1)).resolves.toBeUndefined();
    await expect(assertDiskRoom(dir, 0, Number.MAX_SAFE_INTEGER)).resolves.toBeUndefined();
    const refusal = await assertDiskRoom(dir, 1, freeBytes).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ message: 'NO_SPACE', details: { disk: 'server' } });
    expect((refusal as { details: { freeMb: number } }).details.freeMb).toBeGreaterThan(0);
  });

  it('measures a folder not made yet on the disk it will be made on, and tells disks apart', async () => {
    const later = path.join(dir, 'not', 'yet');
    expect((await diskSpace(later)).totalBytes).toBe((await diskSpace(dir)).totalBytes);
    expect(sameDisk(later, dir)).toBe(true);
    const shm = '/dev/shm';
    const otherDisk = (() => {
      try {
        return statSync(shm).dev !== statSync(dir).dev;
      } catch {
        return false;
      }
    })();
    if (otherDisk) expect(sameDisk(shm, dir)).toBe(false);
  });

  it('counts what a folder tree takes on the disk: blocks, not sizes, and no link followed', async () => {
    const tree = path.join(dir, 'tree');
    mkdirSync(path.join(tree, 'deep', 'er'), { recursive: true });
    writeFileSync(path.join(tree, 'deep', 'er', 'data.bin'), randomBytes(MB));
    // A sparse file of 100 MiB holding 4 KiB, and a link to a file outside the tree.
    const sparse = path.join(tree, 'sparse.bin');
    writeFileSync(sparse, randomBytes(4096));
    truncateSync(sparse, 100 * MB);
    const outside = path.join(dir, 'outside.bin');
    writeFileSync(outside, randomBytes(8 * MB));
    symlinkSync(outside, path.join(tree, 'link.bin'));
    const used = await diskUsage(tree);
    expect(used).toBeGreaterThanOrEqual(MB + 4096);
    expect(used).toBeLessThan(2 * MB);
    expect(await diskUsage(path.join(dir, 'missing'))).toBe(0);
  });
});
