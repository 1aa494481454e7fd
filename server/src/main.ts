import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './platform/db/client.js';
import { MIGRATIONS_FOLDER } from './platform/db/migrations.js';
import { traceQueries } from './platform/db/query-trace.js';
import { hugePagesWarning } from './platform/passwords.js';
import { openStorage } from './platform/storage/open-storage.js';
import type { FileStorage } from './platform/storage/storage.js';
import { demoStarterOwners, seedOnFirstStart, type SeedResult } from './seed/seed.js';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'db'),
    poolSize: config.databasePoolSize,
    ...(config.sqlTraceFile ? { wrapClient: traceQueries } : {}),
  }).catch((error: unknown) => fail(`Start failed: ${(error as Error).message}`));
  try {
    await database.migrate(MIGRATIONS_FOLDER);
  } catch (error) {
    await database.close();
    fail(`Database migration failed; the database was left unchanged: ${(error as Error).message}`);
  }
  let seeded: SeedResult = 'skipped';
  try {
    seeded = await seedOnFirstStart(database.db, config);
  } catch (error) {
    await database.close();
    fail(error instanceof ConfigError ? error.message : `Seeding failed: ${(error as Error).message}`);
  }

  let storage: FileStorage;
  try {
    storage = await openStorage(config);
  } catch (error) {
    await database.close();
    fail(`Start failed: ${(error as Error).message}`);
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, database, storage });
  } catch (error) {
    await database.close();
    fail(`Start failed: ${(error as Error).message}`);
  }
  if (seeded === 'demo') {
    // The demo school opens with the five starter courses; without them it still works, so a failure only logs.
    const started = Date.now();
    await app
      .seedStarterCourses(await demoStarterOwners(database.db))
      .then(() => app.log.info({ ms: Date.now() - started }, 'starter courses seeded'))
      .catch((error: unknown) => app.log.error({ error: (error as Error).message }, 'starter courses not seeded'));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('requests still in flight at the shutdown deadline; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    await database.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const hugePages = hugePagesWarning();
  if (hugePages) app.log.warn(hugePages);
  // A fresh machine gets its notebook runtime installed in the background; the editor shows the progress.
  if (config.runtimeAutoInstall) app.runtimes.availability.installIfMissing();
  else if (app.runtimes.availability.current.state !== 'ready') {
    app.log.warn({ command: app.runtimes.availability.current.command }, 'notebook runtime missing: run this command');
  }
}

main().catch((error: unknown) => fail(`Start failed: ${error instanceof Error ? error.stack : String(error)}`));
