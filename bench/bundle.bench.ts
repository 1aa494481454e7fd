import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { LocalDiskStorage } from '../server/src/platform/storage/local-storage.js';

const webDist = fileURLToPath(new URL('../web/dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * The JavaScript a browser really loads for /home (entry, shared chunks, the page, its texts and the component
 * library's locale), counted in Chromium and gzip-compressed at level 9 as a production proxy would serve it.
 */
export async function benchBundle(): Promise<string[]> {
  if (!existsSync(CHROMIUM))
    return [`(Chromium not found at ${CHROMIUM}: install it with apt-get install -y chromium)`];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-web-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUNTIME_WARM_POOL: '0' }), webDist };
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await database.migrate(MIGRATIONS_FOLDER);
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'), 'bench-secret-bench-secret-bench-secret');
  const app = await buildApp({ config, database, storage, logger: false });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const lines: string[] = [];
    for (const locale of ['en-US', 'zh-CN']) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
      });
      await page.goto(`${url}/home`, { waitUntil: 'networkidle' });
      let raw = 0;
      let gzip = 0;
      for (const file of scripts) {
        const bytes = readFileSync(path.join(webDist, file));
        raw += bytes.length;
        gzip += gzipSync(bytes, { level: 9 }).length;
      }
      lines.push(
        `JS loaded by /home (${locale}): ${scripts.size} files, ${kb(raw)} raw, ${kb(gzip)} gzip (target ≤ 200 KB: ${((100 * gzip) / (200 * 1024)).toFixed(0)} % of it)`,
      );
      await context.close();
    }
    return lines;
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
