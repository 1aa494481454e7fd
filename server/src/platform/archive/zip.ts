import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ArchiveRefusal } from './refusal.js';

/** What a zip may hold before anything of it is inflated; each reader chooses its own. */
export interface ZipLimits {
  /** entries in the central directory, folders included */
  maxEntries: number;
  /** inflated bytes of one entry */
  maxEntryBytes: number;
  /** inflated bytes of all entries together */
  maxTotalBytes: number;
  /** inflated size ÷ compressed size of an entry over RATIO_FLOOR_BYTES */
  maxRatio: number;
}

/**
 * Entries smaller than this are not held to the ratio: a short run of one character compresses a thousand times
 * over and harms nobody.
 */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipEntry {
  name: string;
  /** inflated size as the central directory declares it; `open` holds the entry to it */
  size: number;
  compressedSize: number;
}

export interface CheckedZip {
  /** every entry, in the central directory's order */
  entries: ZipEntry[];
  entry(name: string): ZipEntry | undefined;
  /** The entry's inflated bytes, counted: more bytes than it declared fails the stream (`declared`). */
  open(entry: ZipEntry): Promise<Readable>;
  close(): void;
}

function fromBuffer(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(
      bytes,
      // Names are decoded and checked here; sizes are counted here, against the limits and the declared size.
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false },
      (error, zip) => (error || !zip ? reject(new ArchiveRefusal('unreadable')) : resolve(zip)),
    ),
  );
}

/** The entry's name as it will be used, or a refusal: absolute, climbing out with `..`, a backslash or a NUL. */
function entryName(entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
  if (!name || name.includes('\0') || yauzl.validateFileName(name) !== null) throw new ArchiveRefusal('name');
  return name;
}

/**
 * Reads the central directory of a zip held in memory and checks it before any entry is inflated: the number of
 * entries, each one's declared size and their total, each one's compression ratio, and its name. A name may appear
 * only once (readers disagree on which of two copies counts). Entries are then inflated one at a time, on demand,
 * each counted against the size it declared, so an archive whose headers understate its content stops at the
 * first byte past the claim.
 */
export async function openZip(bytes: Buffer, limits: ZipLimits): Promise<CheckedZip> {
  const zip = await fromBuffer(bytes);
  try {
    if (zip.entryCount > limits.maxEntries) throw new ArchiveRefusal('entries', limits.maxEntries);
    const found = await readDirectory(zip, limits);
    const byName = new Map(found.map((one) => [one.entry.name, one]));
    return {
      entries: found.map(({ entry }) => entry),
      entry: (name) => byName.get(name)?.entry,
      open: (entry) => openCounted(zip, byName.get(entry.name)!.raw, entry.size),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readDirectory(zip: ZipFile, limits: ZipLimits): Promise<{ entry: ZipEntry; raw: Entry }[]> {
  const found: { entry: ZipEntry; raw: Entry }[] = [];
  const names = new Set<string>();
  let total = 0;
  return new Promise((resolve, reject) => {
    zip.on('entry', (raw: Entry) => {
      try {
        const name = entryName(raw);
        if (names.has(name)) throw new ArchiveRefusal('name');
        if (raw.isEncrypted()) throw new ArchiveRefusal('unreadable');
        const size = raw.uncompressedSize;
        if (size > limits.maxEntryBytes) throw new ArchiveRefusal('bytes', limits.maxEntryBytes);
        total += size;
        if (total > limits.maxTotalBytes) throw new ArchiveRefusal('bytes', limits.maxTotalBytes);
        if (size > RATIO_FLOOR_BYTES && size / Math.max(1, raw.compressedSize) > limits.maxRatio) {
          throw new ArchiveRefusal('ratio', limits.maxRatio);
        }
        names.add(name);
        found.push({ entry: { name, size, compressedSize: raw.compressedSize }, raw });
        zip.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zip.once('end', () => resolve(found));
    zip.once('error', () => reject(new ArchiveRefusal('unreadable')));
    zip.readEntry();
  });
}

function openCounted(zip: ZipFile, raw: Entry, declared: number): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(raw, (error, stream) => {
      if (error || !stream) return reject(new ArchiveRefusal('unreadable'));
      let seen = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          seen += chunk.length;
          if (seen > declared) done(new ArchiveRefusal('declared'));
          else done(null, chunk);
        },
        flush(done) {
          done(seen === declared ? null : new ArchiveRefusal('unreadable'));
        },
      });
      stream.once('error', () => counted.destroy(new ArchiveRefusal('unreadable')));
      counted.once('close', () => stream.destroy());
      resolve(stream.pipe(counted));
    }),
  );
}
