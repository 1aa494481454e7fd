import { createReadStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DatabaseInUseError, openDatabase } from './platform/db/client.js';
import { writeWithinFloor } from './platform/disk-space.js';
import { MIGRATIONS_FOLDER } from './platform/db/migrations.js';
import { openStorage } from './platform/storage/open-storage.js';
import { restoreBackup, verifyBackup } from './modules/system/backup-restore.js';
import { writeBackup, type BackupProgress } from './modules/system/backup.service.js';
import { ProjectFolders } from './modules/runtime/project-folders.js';

const USAGE = `Usage:
  npm run backup [-- FILE]   write a backup of DATA_DIR (or DATABASE_URL and S3_BUCKET) to FILE
                             (default: aiedu-backup-<date>.tar.gz in the current folder)
  npm run restore -- FILE    restore FILE into an empty DATA_DIR (or an empty DATABASE_URL database)
  npm run backup:verify -- FILE
                             read FILE through and check that it is whole, without restoring it
The same environment variables as the server's choose what is read or written.`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Prints how far a long backup or restore is, every few seconds. */
function reporter(verb: string): BackupProgress {
  let entries = 0;
  let bytes = 0;
  let printed = Date.now();
  return (entry) => {
    entries += 1;
    bytes += entry.bytes;
    if (Date.now() - printed < 5000) return;
    printed = Date.now();
    console.log(`${verb} ${entries} entries, ${(bytes / 1024 / 1024).toFixed(1)} MB so far (${entry.name})`);
  };
}

const stamp = () => new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

async function open(config: Config) {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
    // A server holding the folder is told of at once; a dead one's lock is taken once stale (10 s).
    lockRetries: 0,
  }).catch((error: unknown) => {
    if (error instanceof DatabaseInUseError) {
      fail(`${error.message}, or download a backup from the running server (System settings, Backup).`);
    }
    throw error;
  });
  try {
    const storage = await openStorage(config);
    const folders = new ProjectFolders(path.join(config.dataDir, 'runtime'), config.runtimeUidBase);
    return { database, storage, folders };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function backup(config: Config, file: string) {
  const { database, storage, folders } = await open(config);
  // Written under a temporary name, so an interrupted backup never looks like a whole one.
  const partial = `${file}.partial`;
  try {
    // On the database's disk, the backup stops at MIN_FREE_DISK_MB rather than fill it (0 lets it go on).
    const out = writeWithinFloor(partial, { dataDir: config.dataDir, floorMb: config.minFreeDiskMb, flags: 'wx' });
    const manifest = await writeBackup(
      {
        db: database.db,
        storage,
        dataDir: config.dataDir,
        folders,
        migrationsFolder: MIGRATIONS_FOLDER,
        progress: reporter('Written'),
      },
      out.stream,
    );
    await out.done;
    await rename(partial, file);
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backup written to ${file}: ${rows} rows of ${manifest.tables.length} tables, with files and workspaces.`,
    );
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    storage.close?.();
    await database.close();
  }
}

async function restore(config: Config, file: string) {
  if (!existsSync(file)) fail(`No such file: ${file}`);
  const { database, storage, folders } = await open(config);
  try {
    const manifest = await restoreBackup(
      {
        database,
        storage,
        dataDir: config.dataDir,
        folders,
        migrationsFolder: MIGRATIONS_FOLDER,
        progress: reporter('Restored'),
      },
      createReadStream(file),
    );
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(`Restored ${rows} rows from the backup of ${manifest.createdAt}. Start the server with npm start.`);
  } finally {
    storage.close?.();
    await database.close();
  }
}

async function verify(file: string) {
  if (!existsSync(file)) fail(`No such file: ${file}`);
  const { manifest, files, bytes } = await verifyBackup(createReadStream(file));
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `${file} is whole: the backup of ${manifest.createdAt}, ${rows} rows and ${files} files (${(bytes / 1024 / 1024).toFixed(1)} MB).`,
  );
}

async function main() {
  const [command, file] = process.argv.slice(2);
  if (command !== 'backup' && command !== 'restore' && command !== 'verify') fail(USAGE);
  if (command !== 'backup' && !file) fail(USAGE);
  // Reading a file through needs no configuration, database or storage.
  if (command === 'verify') return verify(path.resolve(file!));
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  if (command === 'backup') await backup(config, path.resolve(file ?? `aiedu-backup-${stamp()}.tar.gz`));
  else await restore(config, path.resolve(file!));
}

const VERBS: Record<string, string> = { restore: 'Restore', verify: 'Verification' };
main().catch((error: unknown) =>
  fail(`${VERBS[process.argv[2] ?? ''] ?? 'Backup'} failed: ${(error as Error).message}`),
);
