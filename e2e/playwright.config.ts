import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

const port = Number(process.env.E2E_PORT ?? 8181);
/**
 * A second server whose access tokens live 2 seconds, for the token-refresh journey (see support/api.ts), and whose
 * files are in an S3 bucket with direct downloads.
 */
const shortTokenPort = port + 100;
/** A third server whose disk counts as full: its floor of free space is beyond any disk (the full-disk journey). */
const fullDiskPort = port + 200;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Each test is a whole journey: the sign-in ones open every step of the dialog and check each with axe-core, and
  // took 14–29 s with two workers on two cores (one beside the course journey overran 30 s). Longer journeys set
  // their own.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 768 } } }],
  webServer: [
    {
      command: 'node support/start-server.mjs',
      url: `http://127.0.0.1:${port}/readyz`,
      env: { E2E_PORT: String(port) },
      reuseExistingServer: false,
      timeout: 120_000,
      // Stopped as an operator would (SIGTERM): the server stops its notebook servers, which end their kernels.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx support/start-server.mjs',
      url: `http://127.0.0.1:${shortTokenPort}/readyz`,
      // It runs no notebooks: no Jupyter servers started ahead.
      // Its files are kept in an S3 bucket that serves downloads itself (the files-from-a-bucket journey).
      env: {
        E2E_PORT: String(shortTokenPort),
        ACCESS_TOKEN_TTL_SECONDS: '2',
        RUNTIME_WARM_POOL: '0',
        E2E_S3: 'direct',
      },
      reuseExistingServer: false,
      timeout: 120_000,
      // Stopped as an operator would (SIGTERM): the server stops its notebook servers, which end their kernels.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node support/start-server.mjs',
      url: `http://127.0.0.1:${fullDiskPort}/readyz`,
      env: { E2E_PORT: String(fullDiskPort), MIN_FREE_DISK_MB: '1000000000', RUNTIME_WARM_POOL: '0' },
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
