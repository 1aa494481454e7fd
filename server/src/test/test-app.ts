import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../platform/db/client.js';
import { LocalDiskStorage } from '../platform/storage/local-storage.js';
import type { FileStorage } from '../platform/storage/storage.js';
import { createTestDatabase } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  storage: FileStorage;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** The real app on a fresh database and a temporary data directory; `logger` receives pino's lines. */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    logStream?: { write(line: string): void };
    now?: () => Date;
    courseCode?: () => string;
    /** Where files go; by default the local disk under the test's data directory. */
    storage?: FileStorage;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-app-'));
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    webDist: path.join(dataDir, 'no-web'),
    // Tests that do not start notebooks must not start Jupyter servers ahead either.
    runtimeWarmPool: { BASIC: 0, ADVANCED: 0, GPU: 0 },
    ...options.config,
  };
  const database = await createTestDatabase();
  const storage =
    options.storage ?? new LocalDiskStorage(path.join(dataDir, 'files'), 'test-secret-test-secret-test-secret');
  const app = await buildApp({
    config,
    database,
    storage,
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
    now: options.now,
    courseCode: options.courseCode,
  });
  return {
    app,
    database,
    storage,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
