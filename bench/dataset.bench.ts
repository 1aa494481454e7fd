import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { DATASET_API, datasetApi } from '@aiedu/contracts';
import { openZipFile } from '../server/src/platform/archive/zip.js';
import { SERVER_MAIN, settled, startServerProcess, stopServerProcess } from './server-process.js';

const FILES = 20_000;
const FILE_BYTES = 25_000;
const FOLDERS = 100;
const SUPER_PASSWORD = 'Bench@2026super';
const SOURCE_MAIN = fileURLToPath(new URL('../server/src/main.ts', import.meta.url));

/**
 * A zip of 20,000 files of 25 kB of random bytes (500 MB, stored: random bytes do not compress) in 100 folders,
 * written once into the temporary folder and kept for the next run. Written as it goes, never held in memory.
 */
async function benchZip(): Promise<string> {
  const folder = path.join(os.tmpdir(), 'aiedu-bench-dataset');
  const file = path.join(folder, `flowers-${FILES}x${FILE_BYTES}.zip`);
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const partial = `${file}.partial`;
  const out = await open(partial, 'w');
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < FILES; i++) {
    const name = Buffer.from(
      `flowers/class-${String(i % FOLDERS).padStart(3, '0')}/img-${String(i).padStart(5, '0')}.bin`,
    );
    const data = randomBytes(FILE_BYTES);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    await out.write(Buffer.concat([local, name, data]));
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(FILES, 8);
  end.writeUInt16LE(FILES, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await out.write(Buffer.concat([directory, end]));
  await out.close();
  await rename(partial, file);
  return file;
}

/** Resident memory of a process, in MB, from /proc. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) / 1024;
}

async function api(url: string, token: string, method: string, body?: object) {
  const response = await fetch(url, {
    method,
    headers: { 'x-authorization': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { errorCode: string; data: Record<string, unknown> };
  if (json.errorCode !== '1000') throw new Error(`${method} ${url}: ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
}

/** The whole file in one tus PATCH, streamed from disk as a browser's upload would be. */
function patchWhole(url: string, token: string, file: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'x-authorization': token,
        'upload-offset': 0,
        'content-type': 'application/offset+octet-stream',
        'content-length': statSync(file).size,
      },
    });
    request.on('response', (response) => resolve(response.resume()));
    request.on('error', reject);
    createReadStream(file).pipe(request);
  });
}

/** Writes what the last step left in the page cache to disk, so the next timed step does not pay for it. */
function flushDisk() {
  spawnSync('sync');
}

/** Plain `unzip` of the zip into a folder of the same disk, in seconds; the folder is removed afterwards. */
function timeUnzip(zip: string, dataDir: string): number {
  const unzipDir = path.join(dataDir, 'unzip');
  flushDisk();
  const start = performance.now();
  const unzip = spawnSync('unzip', ['-q', '-o', zip, '-d', unzipDir]);
  const seconds = (performance.now() - start) / 1000;
  if (unzip.status !== 0) throw new Error(`unzip failed: ${unzip.stderr.toString()}`);
  rmSync(unzipDir, { recursive: true, force: true });
  return seconds;
}

/** One dataset made and its zip uploaded through tus; the upload's and the extraction's seconds once it is ready. */
async function timeUpload(url: string, token: string, zip: string, name: string) {
  const dataset = await api(`${url}${DATASET_API.base}`, token, 'POST', { name });
  const datasetId = dataset.id as string;
  flushDisk();
  const uploadStart = performance.now();
  const created = await fetch(`${url}${DATASET_API.uploads}`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      'x-authorization': token,
      'upload-length': String(statSync(zip).size),
      'upload-metadata': `datasetId ${Buffer.from(datasetId).toString('base64')},filename ${Buffer.from('flowers.zip').toString('base64')}`,
    },
  });
  const location = new URL(created.headers.get('location')!, url).href;
  const finished = await patchWhole(location, token, zip);
  const uploaded = performance.now();
  const versionId = finished.headers['x-version-id'] as string;
  if (finished.statusCode !== 204 || !versionId) throw new Error(`the upload answered ${finished.statusCode}`);
  let version: Record<string, unknown>;
  for (;;) {
    version = await api(`${url}${datasetApi(datasetId).version(versionId)}`, token, 'GET');
    if (version.state !== 'processing') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ready = performance.now();
  if (version.state !== 'ready' || version.fileCount !== FILES) {
    throw new Error(`the version ended ${JSON.stringify(version)}`);
  }
  return { uploadSeconds: (uploaded - uploadStart) / 1000, extractSeconds: (ready - uploaded) / 1000 };
}

/** Rounds of `unzip` and of the server, taken in turn: a ratio is read from the pair of one round. */
const ROUNDS = 3;

/** Where the server's storage and `unzip`'s folder go: the disk, and memory (tmpfs) where the system has it. */
const PLACES = [
  { name: 'disk', root: os.tmpdir() },
  ...(existsSync('/dev/shm') ? [{ name: 'memory (/dev/shm)', root: '/dev/shm' }] : []),
];

/**
 * A 500 MB zip of 20,000 files uploaded through tus to a server in its own process, checked and extracted into
 * its storage, beside plain `unzip` of the same file into a folder of the same disk, in turn for a few rounds, each
 * step after the disk has written what the one before left: the ratio of their rates (the median round's), and the
 * server's resident memory at its peak above what it held idle. Run on the disk and again in memory, where the
 * disk's own speed (which moves from run to run on a virtual machine) is out of the comparison.
 */
export async function benchDataset(): Promise<string[]> {
  const lines: string[] = [];
  for (const place of PLACES) lines.push(`### ${place.name}`, ...(await benchDatasetIn(place.root)));
  return lines;
}

async function benchDatasetIn(root: string): Promise<string[]> {
  const zip = await benchZip();
  const mb = statSync(zip).size / 1024 / 1024;
  const dataDir = mkdtempSync(path.join(root, 'aiedu-bench-dataset-'));
  const lines: string[] = [];
  try {
    const built = existsSync(SERVER_MAIN);
    const server = await startServerProcess(
      {
        DATA_DIR: path.join(dataDir, 'server'),
        SUPER_ADMIN_PASSWORD: SUPER_PASSWORD,
        DATASET_MAX_ZIP_MB: '1024',
        USER_STORAGE_QUOTA_MB: String(Math.ceil(mb * (ROUNDS + 1))),
      },
      built ? [SERVER_MAIN] : ['--conditions=source', '--import', 'tsx', SOURCE_MAIN],
    );
    try {
      const login = (await (
        await fetch(`${server.url}/gw/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            custcode: '',
            usernameOrEmailOrPhone: 'super',
            password: Buffer.from(SUPER_PASSWORD).toString('base64'),
          }),
        })
      ).json()) as { data: { token: string } };
      const token = login.data.token;
      await settled(server.child);
      const pid = server.child.pid!;
      const idle = rssMb(pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      // The check runs inside the finishing PATCH; timed here alone with the same function and limits.
      const checkStart = performance.now();
      const GiB = 1024 ** 3;
      await openZipFile(zip, { maxEntries: 100_000, maxEntryBytes: 8 * GiB, maxTotalBytes: 8 * GiB, maxRatio: 200 });
      const checkSeconds = (performance.now() - checkStart) / 1000;
      const rounds: { unzipSeconds: number; uploadSeconds: number; extractSeconds: number; ratio: number }[] = [];
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          const unzipSeconds = timeUnzip(zip, dataDir);
          const { uploadSeconds, extractSeconds } = await timeUpload(server.url, token, zip, `Flowers ${round}`);
          rounds.push({
            unzipSeconds,
            uploadSeconds,
            extractSeconds,
            ratio: unzipSeconds / (checkSeconds + extractSeconds),
          });
        }
      } finally {
        clearInterval(sampler);
      }
      const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)]!;
      const rate = (seconds: number) => `${seconds.toFixed(1)} s  ${(mb / seconds).toFixed(0)} MB/s`;
      lines.push(
        `zip: ${mb.toFixed(0)} MB, ${FILES} files of ${FILE_BYTES / 1000} kB in ${FOLDERS} folders (${built ? 'built server' : 'server from source, no build present'}); ${ROUNDS} rounds in turn, the median round shown`,
        `unzip -q:                       ${rate(median.unzipSeconds)}`,
        `tus upload (one PATCH):         ${rate(median.uploadSeconds)} (the check of its central directory inside, alone: ${(checkSeconds * 1000).toFixed(0)} ms)`,
        `extraction into storage + rows: ${rate(median.extractSeconds)}`,
        `check + extraction vs unzip:    ${(median.ratio * 100).toFixed(0)} % of unzip's rate (target ≥ 50 %); rounds (unzip / check + extraction): ${rounds.map((r) => `${r.unzipSeconds.toFixed(1)} / ${(checkSeconds + r.extractSeconds).toFixed(1)} s = ${(r.ratio * 100).toFixed(0)} %`).join(', ')}`,
        `server RSS: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, +${(peak - idle).toFixed(0)} MB above idle (target ≤ 150 MB)`,
      );
    } finally {
      await stopServerProcess(server.child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return lines;
}
