import { describe, expect, it } from 'vitest';
import { buildZip, deflatedPart, repeatedPart, type ZipPart } from '../../test/zip-builder.js';
import { ArchiveRefusal } from './refusal.js';
import { openZip, type ZipLimits } from './zip.js';

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
