import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** Workspace packages resolve to their TypeScript source in tests. */
const conditions = ['source', ...defaultServerConditions];
/**
 * The server's tests load packages as Node does: without the bundlers' `module` condition, which points some
 * packages (the AWS SDK) at builds whose imports only a bundler resolves.
 */
const nodeConditions = conditions.filter((condition) => condition !== 'module');

const serverProject = (name: string, env: Record<string, string>) => ({
  resolve: { conditions: nodeConditions },
  ssr: { resolve: { conditions: nodeConditions } },
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./src/test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { conditions },
        test: { name: 'contracts', root: './contracts', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      serverProject('server', { TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', { TEST_DB: 'postgres' })] : []),
      './web/vitest.config.ts',
    ],
  },
});
