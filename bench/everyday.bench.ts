import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from './scratch-database.js';
import { everydayRoutes, prepareSchool } from './everyday-routes.js';
import { measureAgainstBare, replayTable } from './replay-bench.js';

const CONNECTIONS = 50;
const SECONDS = 5;

/**
 * The routes a school hits all day, each through the built app and through a bare route sending the same SQL
 * (`replay-bench.ts`), 50 connections, 5 s each, on the demo school a few weeks into term.
 */
export async function benchEveryday(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-everyday-'));
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const poolSize = process.env.DATABASE_POOL_SIZE ?? '10';
  const env = {
    DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: poolSize,
    SEED_DEMO: 'true',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  try {
    const measured = await measureAgainstBare({
      env,
      connections: CONNECTIONS,
      seconds: SECONDS,
      prepare: async (url) => {
        const school = await prepareSchool(url);
        // EVERYDAY_ROUTES=user-info,points-total measures only those.
        const only = process.env.EVERYDAY_ROUTES?.split(',');
        return everydayRoutes(school).filter((route) => !only || only.includes(route.name));
      },
    });
    const kind = scratch ? `PostgreSQL, pool of ${poolSize}` : 'PGlite';
    return [
      `${kind}, ${CONNECTIONS} connections, ${SECONDS} s each; the demo school (${measured.length} routes)`,
      ...replayTable(measured),
      'targets: ratio ≥ 50 %, app p95 ≤ 50 ms on PostgreSQL, the institution home ≥ 3,000 req/s',
    ];
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
