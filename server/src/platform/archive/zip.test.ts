import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildZip, deflatedPart, repeatedPart, type ZipPart } from '../../test/zip-builder.js';
import { ArchiveRefusal } from './refusal.js';
import { openZip, openZipFile, type ZipLimits } from './zip.js';

const MiB = 1024 * 1024;
const LIMITS: ZipLimits = { maxEntries: 10, maxEntryBytes: 8 * MiB, maxTotalBytes: 12 * MiB, maxRatio: 100 };

/** The refusal an archive meets, or null when it opens. */
async function refusalOf(parts: ZipPart[], limits = LIMITS) {
  try {
    (await openZip(buildZip(parts), limits)).close();
    return null;
  } catch (error) {
    return error instanceof ArchiveRefusal ? error.toData() : error;
  }
}

/** An entry stored as it is (no compression), `size` bytes. */
const stored = (name: string, size: number): ZipPart => ({
  name,
  data: Buffer.alloc(size),
  size,
  crc: 0,
  stored: true,
});

describe('a zip checked before it is inflated', () => {
  it('lists its entries and reads each one whole', async () => {
    const zip = await openZip(buildZip([deflatedPart('a.txt', 'hello'), deflatedPart('dir/b.xml', '<b/>')]), LIMITS);
    expect(zip.entries.map((e) => [e.name, e.size])).toEqual([
      ['a.txt', 5],
      ['dir/b.xml', 4],
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.open(zip.entry('dir/b.xml')!)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('<b/>');
    zip.close();
  });

  it('refuses more entries than allowed from the directory’s count alone', async () => {
    const parts = Array.from({ length: 11 }, (_, i) => deflatedPart(`f${i}.txt`, 'x'));
    expect(await refusalOf(parts)).toEqual({ reason: 'entries', max: 10 });
  });

  it('refuses an entry, or entries together, declared larger than allowed', async () => {
    expect(await refusalOf([stored('big.bin', 9 * MiB)])).toEqual({ reason: 'bytes', max: 8 * MiB });
    const parts = [stored('one.bin', 7 * MiB), stored('two.bin', 7 * MiB)];
    expect(await refusalOf(parts)).toEqual({ reason: 'bytes', max: 12 * MiB });
  });

  it('refuses an entry that inflates too many times over, but not a small one', async () => {
    const zeros = (size: number) => deflatedPart('zeros.bin', Buffer.alloc(size));
    expect(await refusalOf([zeros(2 * MiB)])).toEqual({ reason: 'ratio', max: 100 });
    expect(await refusalOf([zeros(512 * 1024)])).toBeNull();
  });

  it.each(['../evil.sh', 'xl/../../evil.sh', '/etc/cron.d/evil', 'C:/evil.bat', 'xl\\..\\evil.sh', 'a\0b'])(
    'refuses the name %j',
    async (name) => {
      expect(await refusalOf([deflatedPart('ok.txt', 'ok'), deflatedPart(name, 'x')])).toEqual({ reason: 'name' });
    },
  );

  it('refuses a name that appears twice', async () => {
    expect(await refusalOf([deflatedPart('a.xml', '1'), deflatedPart('a.xml', '2')])).toEqual({ reason: 'name' });
  });

  it('stops an entry at the first byte past the size its header declared', async () => {
    // The directory says 1 KB; the data inflates to 64 MiB.
    const lying = { ...repeatedPart('sheet.xml', '', 'A'.repeat(MiB), 64, ''), size: 1024 };
    const zip = await openZip(buildZip([lying]), LIMITS);
    let received = 0;
    const read = async () => {
      for await (const chunk of await zip.open(zip.entry('sheet.xml')!)) received += (chunk as Buffer).length;
    };
    await expect(read()).rejects.toMatchObject({ reason: 'declared' });
    expect(received).toBeLessThanOrEqual(1024);
    zip.close();
  });

  it('refuses an entry that ends short of its declared size, and bytes that are not a zip', async () => {
    const short = { ...deflatedPart('short.txt', 'abc'), size: 10 };
    const zip = await openZip(buildZip([short]), LIMITS);
    const read = async () => {
      for await (const chunk of await zip.open(zip.entry('short.txt')!)) void chunk;
    };
    await expect(read()).rejects.toMatchObject({ reason: 'unreadable' });
    zip.close();
    await expect(openZip(Buffer.from('Username,Name\n'), LIMITS)).rejects.toMatchObject({ reason: 'unreadable' });
  });
});

describe('a zip on disk, checked then extracted entry by entry', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'zip-file-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let written = 0;
  const onDisk = (bytes: Buffer) => {
    const file = path.join(folder, `${++written}.zip`);
    writeFileSync(file, bytes);
    return file;
  };
  async function fileRefusal(bytes: Buffer, limits = LIMITS) {
    try {
      await openZipFile(onDisk(bytes), limits);
      return null;
    } catch (error) {
      return error instanceof ArchiveRefusal ? error.toData() : error;
    }
  }

  it('visits every entry in order and inflates each one on demand', async () => {
    const zip = await openZipFile(
      onDisk(buildZip([deflatedPart('dir/', ''), deflatedPart('dir/a.txt', 'hello'), deflatedPart('b.csv', 'x,y')])),
      LIMITS,
    );
    expect([zip.entryCount, zip.fileCount, zip.totalBytes]).toEqual([3, 2, 8]);
    const seen: [string, string][] = [];
    await zip.each(async (entry, open) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await open()) chunks.push(chunk as Buffer);
      seen.push([entry.name, Buffer.concat(chunks).toString()]);
    });
    expect(seen).toEqual([
      ['dir/a.txt', 'hello'],
      ['b.csv', 'x,y'],
    ]);
  });

  it('reads every entry whole, small ones from the blocks its headers came in and large ones from the file, four at a time', async () => {
    // Random bytes (they do not compress), stored and deflated, from empty to past a 64 KB block.
    const sizes = [0, 1, 25_000, 30_000, 70_000, 25_000, 200_000, 3, 64 * 1024, 25_000, 40_000, 10];
    const contents = sizes.map((size) => randomBytes(size));
    const parts = contents.map((bytes, i): ZipPart =>
      i % 2
        ? deflatedPart(`d/${i}.bin`, bytes)
        : { name: `s/${i}.bin`, data: bytes, size: bytes.length, crc: crc32(bytes), stored: true },
    );
    const limits = { ...LIMITS, maxEntries: 20, maxRatio: 1_000 };
    const zip = await openZipFile(onDisk(buildZip(parts)), limits);
    const read = new Map<string, Buffer>();
    await zip.each(async (entry, open) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await open()) chunks.push(chunk as Buffer);
      read.set(entry.name, Buffer.concat(chunks));
    }, 4);
    expect(read.size).toBe(sizes.length);
    parts.forEach((part, i) => expect(read.get(part.name)!.equals(contents[i]!), part.name).toBe(true));
  });

  it('runs at most `window` visits at once and, on a failure, answers it once those under way have settled', async () => {
    const parts = Array.from({ length: 10 }, (_, i) => deflatedPart(`f${i}.txt`, `${i}`));
    const zip = await openZipFile(onDisk(buildZip(parts)), LIMITS);
    let running = 0;
    let most = 0;
    const settled: string[] = [];
    const failing = zip.each(async (entry) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, entry.name === 'f4.txt' ? 1 : 20));
      running -= 1;
      settled.push(entry.name);
      if (entry.name === 'f4.txt') throw new Error('write failed');
    }, 3);
    await expect(failing).rejects.toThrow('write failed');
    expect(most).toBe(3);
    expect(running).toBe(0);
    // Nothing past the failure's window was started.
    expect(settled.length).toBeLessThanOrEqual(7);
  });

  it('refuses an empty file, and bytes that are not a zip whatever the name', async () => {
    expect(await fileRefusal(Buffer.alloc(0))).toEqual({ reason: 'empty' });
    expect(await fileRefusal(Buffer.from('%PDF-1.4 not a zip'))).toEqual({ reason: 'unreadable' });
  });

  it('refuses a symbolic link, an encrypted entry, a climbing or absolute name', async () => {
    const link = { ...deflatedPart('data/link', '/etc/passwd'), unixMode: 0o120777 };
    expect(await fileRefusal(buildZip([link]))).toEqual({ reason: 'link' });
    const file = { ...deflatedPart('data/ok.txt', 'ok'), unixMode: 0o100644 };
    expect(await fileRefusal(buildZip([file]))).toBeNull();
    expect(await fileRefusal(buildZip([{ ...deflatedPart('secret.txt', 'x'), flags: 0x1 }]))).toEqual({
      reason: 'encrypted',
    });
    expect(await fileRefusal(buildZip([deflatedPart('../x', 'x')]))).toEqual({ reason: 'name' });
    expect(await fileRefusal(buildZip([deflatedPart('/etc/x', 'x')]))).toEqual({ reason: 'name' });
  });

  it('refuses sizes and ratios from the directory, before anything is inflated', async () => {
    expect(await fileRefusal(buildZip([stored('big.bin', 9 * MiB)]))).toEqual({ reason: 'bytes', max: 8 * MiB });
    const zeros = deflatedPart('zeros.bin', Buffer.alloc(2 * MiB));
    expect(await fileRefusal(buildZip([zeros]))).toEqual({ reason: 'ratio', max: 100 });
  });

  it('refuses 100,001 entries against a limit of 100,000 from the count alone (zip64 end records)', async () => {
    const one = deflatedPart('f', 'x');
    const parts = Array.from({ length: 100_001 }, (_, i) => ({ ...one, name: `f${i}` }));
    const limits = { ...LIMITS, maxEntries: 100_000 };
    expect(await fileRefusal(buildZip(parts), limits)).toEqual({ reason: 'entries', max: 100_000 });
  });
});
