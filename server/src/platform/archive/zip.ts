import fs from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
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

// Names are decoded and checked here; sizes are counted here, against the limits and the declared size.
const READ_OPTIONS = { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false };

function fromBuffer(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, READ_OPTIONS, (error, zip) =>
      error || !zip ? reject(new ArchiveRefusal('unreadable')) : resolve(zip),
    ),
  );
}

/** Bytes read from disk at once when a small read misses: a central directory's records are a few dozen bytes. */
const BLOCK_BYTES = 64 * 1024;
const STREAM_CHUNK_BYTES = 64 * 1024;

/** Blocks kept at once: the entries a window of extractions has in flight each find their bytes in one of them. */
const BLOCKS_KEPT = 4;

/**
 * A zip file on disk read through a few blocks kept in memory: yauzl reads the central directory and each local
 * header in reads of a few dozen bytes, one system call each through the thread pool; read from a block, 20,000
 * entries take a tenth of the time. A small entry's data is usually in the block its header was read from, and is
 * served from there; larger ones stream straight from the file.
 */
class BlockReader extends yauzl.RandomAccessReader {
  /** The most recently read last. */
  private blocks: { start: number; bytes: Buffer }[] = [];

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    super();
  }

  private blockWith(position: number, length: number) {
    return this.blocks.find((b) => position >= b.start && position + length <= b.start + b.bytes.length) ?? null;
  }

  /** Entry data, read at its positions; not an fs stream, whose end or destruction would close the shared file. */
  override _readStreamForRange(start: number, end: number) {
    const kept = this.blockWith(start, end - start);
    if (kept) {
      const bytes = kept.bytes.subarray(start - kept.start, end - kept.start);
      return new Readable({
        read() {
          if (bytes.length > 0) this.push(bytes);
          this.push(null);
        },
      });
    }
    const fd = this.fd;
    let position = start;
    return new Readable({
      read() {
        const length = Math.min(STREAM_CHUNK_BYTES, end - position);
        if (length <= 0) return void this.push(null);
        const chunk = Buffer.allocUnsafe(length);
        fs.read(fd, chunk, 0, length, position, (error, bytesRead) => {
          if (error) return void this.destroy(error);
          if (bytesRead === 0) return void this.destroy(new Error('unexpected end of file'));
          position += bytesRead;
          this.push(chunk.subarray(0, bytesRead));
        });
      },
    });
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ) {
    const copy = (from: Buffer, fromStart: number) => {
      if (position + length > fromStart + from.length) return callback(new Error('unexpected end of file'));
      from.copy(buffer, offset, position - fromStart, position - fromStart + length);
      callback(null);
    };
    const kept = this.blockWith(position, length);
    if (kept) return copy(kept.bytes, kept.start);
    const size = Math.min(Math.max(length, BLOCK_BYTES), this.size - position);
    const fresh = Buffer.allocUnsafe(Math.max(0, size));
    fs.read(this.fd, fresh, 0, fresh.length, position, (error, bytesRead) => {
      if (error) return callback(error);
      const read = fresh.subarray(0, bytesRead);
      if (length <= BLOCK_BYTES) {
        this.blocks.push({ start: position, bytes: read });
        if (this.blocks.length > BLOCKS_KEPT) this.blocks.shift();
      }
      copy(read, position);
    });
  }

  override close(callback: (error: Error | null) => void) {
    fs.close(this.fd, (error) => callback(error ?? null));
  }
}

async function fromFile(file: string): Promise<ZipFile> {
  // A bare descriptor, not a FileHandle: the reader closes it, and a FileHandle would close it again when collected.
  const fd = await promisify(fs.open)(file, 'r');
  const { size } = await promisify(fs.fstat)(fd).catch(async (error: unknown) => {
    await promisify(fs.close)(fd);
    throw error;
  });
  const reader = new BlockReader(fd, size);
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(reader, size, READ_OPTIONS, (error, zip) => {
      if (error || !zip) {
        fs.close(fd, () => reject(new ArchiveRefusal('unreadable')));
      } else {
        resolve(zip);
      }
    }),
  );
}

/** The file type bits of a unix mode, and those of a symbolic link. */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

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

/** Checks entries as the central directory lists them, against the limits and each other; keeps nothing. */
class DirectoryCheck {
  private readonly names = new Set<string>();
  private total = 0;

  constructor(private readonly limits: ZipLimits) {}

  entry(raw: Entry): ZipEntry {
    const name = entryName(raw);
    if (this.names.has(name)) throw new ArchiveRefusal('name');
    if (((raw.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new ArchiveRefusal('link');
    if (raw.isEncrypted()) throw new ArchiveRefusal('encrypted');
    const { limits } = this;
    const size = raw.uncompressedSize;
    if (size > limits.maxEntryBytes) throw new ArchiveRefusal('bytes', limits.maxEntryBytes);
    this.total += size;
    if (this.total > limits.maxTotalBytes) throw new ArchiveRefusal('bytes', limits.maxTotalBytes);
    if (size > RATIO_FLOOR_BYTES && size / Math.max(1, raw.compressedSize) > limits.maxRatio) {
      throw new ArchiveRefusal('ratio', limits.maxRatio);
    }
    this.names.add(name);
    return { name, size, compressedSize: raw.compressedSize };
  }
}

/**
 * Reads the central directory entry by entry, handing each to `visit`. At most `window` visits run at once: the
 * next entry is read only when one settles. On a failure the visits under way are let finish (so whatever they
 * write is in place for the caller to clean up) before the failure is answered.
 */
function eachEntry(zip: ZipFile, visit: (raw: Entry) => Promise<void> | void, window = 1): Promise<void> {
  return new Promise((resolve, reject) => {
    let running = 0;
    let ended = false;
    let blocked = false;
    let failure: unknown = null;
    const settle = () => {
      running -= 1;
      if (failure !== null) {
        if (running === 0) reject(failure);
      } else if (blocked) {
        blocked = false;
        zip.readEntry();
      } else if (ended && running === 0) {
        resolve();
      }
    };
    zip.on('entry', (raw: Entry) => {
      running += 1;
      Promise.resolve()
        .then(() => visit(raw))
        .then(settle, (error: unknown) => {
          failure ??= error;
          settle();
        });
      if (failure !== null) return;
      if (running < window) zip.readEntry();
      else blocked = true;
    });
    zip.once('end', () => {
      ended = true;
      if (running > 0) return;
      if (failure === null) resolve();
      else reject(failure);
    });
    zip.once('error', () => {
      failure ??= new ArchiveRefusal('unreadable');
      if (running === 0) reject(failure);
    });
    zip.readEntry();
  });
}

async function readDirectory(zip: ZipFile, limits: ZipLimits): Promise<{ entry: ZipEntry; raw: Entry }[]> {
  const found: { entry: ZipEntry; raw: Entry }[] = [];
  const check = new DirectoryCheck(limits);
  await eachEntry(zip, (raw) => {
    found.push({ entry: check.entry(raw), raw });
  });
  return found;
}

/** A zip on disk whose central directory passed the checks, read again entry by entry to extract it. */
export interface CheckedZipFile {
  /** entries of the central directory, folders included */
  entryCount: number;
  /** inflated bytes of every entry not ignored, as declared */
  totalBytes: number;
  /** entries that are neither folders nor ignored */
  fileCount: number;
  /**
   * Visits the files in order (not folders, not those ignored): `open` inflates the entry, counted against its
   * declared size. At most `window` visits (1 unless given) run at once, the next entry read only when one
   * settles, so memory holds a few entries' buffers whatever the zip's size.
   */
  each(visit: (entry: ZipEntry, open: () => Promise<Readable>) => Promise<void>, window?: number): Promise<void>;
}

/**
 * Checks a zip on disk as `openZip` checks one in memory, without holding its directory: the file is read twice,
 * once to check every entry (the count, sizes, ratios, names, links and encryption) and once to extract. An empty
 * file is refused as `empty`, anything that is not a zip, whatever its name, as `unreadable`.
 */
export async function openZipFile(
  file: string,
  limits: ZipLimits,
  /** Entries checked like the others but neither counted as files nor visited (an archiver's own folders). */
  ignore: (name: string) => boolean = () => false,
): Promise<CheckedZipFile> {
  if ((await stat(file)).size === 0) throw new ArchiveRefusal('empty');
  const zip = await fromFile(file);
  const isFile = (name: string) => !name.endsWith('/') && !ignore(name);
  try {
    if (zip.entryCount > limits.maxEntries) throw new ArchiveRefusal('entries', limits.maxEntries);
    const check = new DirectoryCheck(limits);
    let fileCount = 0;
    let totalBytes = 0;
    await eachEntry(zip, (raw) => {
      const entry = check.entry(raw);
      if (!isFile(entry.name)) return;
      fileCount += 1;
      totalBytes += entry.size;
    });
    return {
      entryCount: zip.entryCount,
      totalBytes,
      fileCount,
      each: async (visit, window = 1) => {
        const again = await fromFile(file);
        const names = new DirectoryCheck(limits);
        try {
          await eachEntry(
            again,
            (raw) => {
              const entry = names.entry(raw);
              if (!isFile(entry.name)) return;
              return visit(entry, () => openCounted(again, raw, entry.size));
            },
            window,
          );
        } finally {
          again.close();
        }
      },
    };
  } finally {
    zip.close();
  }
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
