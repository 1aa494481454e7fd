import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

/** Workspace packages resolve to their TypeScript source in tests. */
const conditions = ['source', ...defaultServerConditions];
/**
 * The server's tests load packages as Node does: without the bundlers' `module` condition, which points some
 * packages (the AWS SDK) at builds whose imports only a bundler resolves.
 */
const nodeConditions = conditions.filter((condition) => condition !== 'module');

const SERVER_SOURCE = path.resolve(import.meta.dirname, 'server/src');

/** How a module of the server's says it opens a test database: the test app, the test database, or the provided one. */
const OPENS_TEST_DATABASE = /test\/test-(app|db)\.js'|inject\('testDb'\)/;

/**
 * The server suites that open no test database, directly or through a helper module that does: they read the same
 * on either database, so the PostgreSQL project leaves them to the embedded one's run (the processes of main.test
 * alone took a minute and a half).
 */
function suitesWithoutDatabase(): string[] {
  const files = readdirSync(SERVER_SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(path.join(SERVER_SOURCE, file), 'utf8') }));
  // A module opens one when it says so or imports a module that does, however many helpers lie between.
  const opens = new Set(files.filter(({ text }) => OPENS_TEST_DATABASE.test(text)).map(({ file }) => file));
  for (let grew = true; grew;) {
    grew = false;
    const imports = [...opens].map((file) => `/${path.basename(file, '.ts')}.js'`);
    for (const { file, text } of files) {
      if (!opens.has(file) && imports.some((imported) => text.includes(imported))) grew = Boolean(opens.add(file));
    }
  }
  return files
    .filter(({ file }) => file.endsWith('.test.ts') && !opens.has(file))
    .map(({ file }) => `src/${file.split(path.sep).join('/')}`);
}

const serverProject = (name: string, env: Record<string, string>, exclude: string[] = []) => ({
  resolve: { conditions: nodeConditions },
  ssr: { resolve: { conditions: nodeConditions } },
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...exclude],
    environment: 'node',
    globalSetup: ['./src/test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    /**
     * Vitest's default is one worker fewer than the cores, which on a two-core machine runs every file one after the
     * other. The suites wait on Jupyter, child processes and sockets much of the time, so two workers there take a
     * third less time.
     */
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { conditions },
        test: { name: 'contracts', root: './contracts', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      serverProject('server', { TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL
        ? [serverProject('server-pg', { TEST_DB: 'postgres' }, suitesWithoutDatabase())]
        : []),
      './web/vitest.config.ts',
    ],
  },
});
