// Starts the built server on a fresh data directory (embedded database, demo data) for one e2e run.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-e2e-'));
const main = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
const child = spawn(process.execPath, [main], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: process.env.E2E_PORT ?? '8181',
    PUBLIC_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? '8181'}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Journeys give each browser context its own client address (X-Forwarded-For), so that captcha and shield
    // thresholds of one journey never touch another; the shield trips early so a journey can see it.
    TRUST_PROXY: 'true',
    SHIELD_LOGIN_FAILURES_PER_HOUR: '20',
  },
});
const cleanUp = () => rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
