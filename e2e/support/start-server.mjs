// Starts the built server on a fresh data directory (embedded database, demo data) for one e2e run. With
// E2E_S3=direct its files go to an S3 bucket (s3rver on a loopback port) that serves downloads itself.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-e2e-'));
const port = process.env.E2E_PORT ?? '8181';
const bucket = process.env.E2E_S3 === 'direct' ? await startBucket() : null;
const main = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
const child = spawn(process.execPath, [main], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: port,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Journeys give each browser context its own client address (X-Forwarded-For), so that captcha and shield
    // thresholds of one journey never touch another; the shield trips early so a journey can see it.
    TRUST_PROXY: 'true',
    SHIELD_LOGIN_FAILURES_PER_HOUR: '20',
    ...bucket?.env,
  },
});
const cleanUp = async () => {
  await bucket?.close();
  rmSync(dataDir, { recursive: true, force: true });
};
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await cleanUp();
  process.exit(code ?? 0);
});

/**
 * A bucket the server reaches at 127.0.0.1 and browsers at localhost: the addresses it signs for browsers must
 * name the public endpoint, and the page must allow that origin. The server suites' S3 (run with `--import tsx`).
 */
async function startBucket() {
  const { startTestS3 } = await import('../../server/src/test/s3-server.ts');
  const s3 = await startTestS3();
  const { bucket, endpoint, credentials } = s3.options();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_DIRECT_DOWNLOADS: 'true',
      S3_PUBLIC_ENDPOINT: endpoint.replace('127.0.0.1', 'localhost'),
    },
    close: () => s3.close(),
  };
}
