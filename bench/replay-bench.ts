import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TracedRequest } from '../server/src/platform/db/query-trace.js';
import type { ReplayRoute } from './bare-replay-server.js';
import { load, type LoadResult } from './load.js';
import { startServerProcess, stopServerProcess } from './server-process.js';

const BARE_SERVER = fileURLToPath(new URL('./bare-replay-server.ts', import.meta.url));

/** A measured route: who calls it and how; `body` is the app's answer, kept when its statements are captured. */
export interface MeasuredRoute {
  name: string;
  label: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ReplayMeasurement {
  route: MeasuredRoute;
  statements: number;
  bare: LoadResult;
  app: LoadResult;
}

/** Groups of statements that were in flight together: a statement joins the group before it when it began before that group ended. */
function groupsOf(statements: TracedRequest['statements']): ReplayRoute['groups'] {
  const groups: ReplayRoute['groups'] = [];
  let groupEnd = -Infinity;
  for (const statement of statements) {
    const entry = { text: statement.text, params: statement.params };
    if (groups.length > 0 && statement.startMs < groupEnd) {
      groups.at(-1)!.push(entry);
      groupEnd = Math.max(groupEnd, statement.endMs);
    } else {
      groups.push([entry]);
      groupEnd = statement.endMs;
    }
  }
  return groups;
}

/**
 * Routes through the built app and through a bare Fastify route that sends the same SQL the app's route sent
 * (captured from the app itself with `SQL_TRACE_FILE`, not written again by hand) and answers the same JSON; servers
 * in processes of their own on the same database (`env`: `DATA_DIR`, and `DATABASE_URL` for PostgreSQL). On
 * PostgreSQL both servers run side by side and each route's two turns follow each other; on PGlite (one process per
 * database) the bare server takes its turns first. `prepare` makes the data through the capturing app and names
 * the routes.
 */
export async function measureAgainstBare(options: {
  env: Record<string, string>;
  connections: number;
  seconds: number;
  prepare: (url: string) => Promise<MeasuredRoute[]>;
}): Promise<ReplayMeasurement[]> {
  const { env, connections, seconds } = options;
  const traceFile = path.join(env.DATA_DIR!, 'trace.jsonl');
  const planFile = path.join(env.DATA_DIR!, 'replay.json');
  // 1. The data, and each route's statements.
  let routes: MeasuredRoute[];
  const capture = await startServerProcess({ ...env, SQL_TRACE_FILE: traceFile });
  try {
    routes = await options.prepare(capture.url);
    for (const route of routes) {
      for (let i = 1; i <= 3; i++) {
        const response = await fetch(`${capture.url}${route.path}`, {
          headers: { ...route.headers, 'x-request-id': `capture:${route.name}:${i}` },
        });
        const body = (await response.json()) as { errorCode: string };
        if (!response.ok || body.errorCode !== '1000') {
          throw new Error(`${route.path} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        }
        route.body = body;
      }
    }
  } finally {
    await stopServerProcess(capture.child);
  }
  const traced = new Map(
    readFileSync(traceFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TracedRequest)
      .map((request) => [request.requestId, request]),
  );
  // The third request of each: the steady state, with whatever the app keeps between requests already kept.
  const plan: ReplayRoute[] = routes.map((route) => ({
    name: route.name,
    groups: groupsOf(traced.get(`capture:${route.name}:3`)?.statements ?? []),
    body: route.body,
  }));
  writeFileSync(planFile, JSON.stringify(plan));

  // 2. The load, bare route and app route in turn.
  const results = new Map<string, { bare?: LoadResult; app?: LoadResult }>(routes.map((r) => [r.name, {}]));
  const turn = async (url: string, route: MeasuredRoute, bare: boolean) => {
    const target = bare ? `${url}/bare/${route.name}` : `${url}${route.path}`;
    const headers = bare ? undefined : route.headers;
    await load('warm-up', target, { seconds: 1, connections: 10, headers });
    const result = await load(route.name, target, { connections, seconds, headers });
    results.get(route.name)![bare ? 'bare' : 'app'] = result;
  };
  const bareArgs = ['--conditions=source', '--import', 'tsx', BARE_SERVER];
  const bareEnv = { ...env, REPLAY_PLAN: planFile };
  if (env.DATABASE_URL) {
    const bare = await startServerProcess(bareEnv, bareArgs);
    const app = await startServerProcess(env);
    try {
      for (const [i, route] of routes.entries()) {
        for (const isBare of i % 2 === 0 ? [true, false] : [false, true]) {
          await turn(isBare ? bare.url : app.url, route, isBare);
        }
      }
    } finally {
      await stopServerProcess(app.child);
      await stopServerProcess(bare.child);
    }
  } else {
    for (const isBare of [true, false]) {
      const server = await startServerProcess(isBare ? bareEnv : env, isBare ? bareArgs : undefined);
      try {
        for (const route of routes) await turn(server.url, route, isBare);
      } finally {
        await stopServerProcess(server.child);
      }
    }
  }
  return routes.map((route, i) => ({
    route,
    statements: plan[i]!.groups.flat().length,
    bare: results.get(route.name)!.bare!,
    app: results.get(route.name)!.app!,
  }));
}

/** The table of a measurement: each route's statements, both servers' throughput, their ratio and the app's p95. */
export function replayTable(measured: ReplayMeasurement[]): string[] {
  const lines = [
    `${'route'.padEnd(46)} ${'SQL'.padStart(4)} ${'bare req/s'.padStart(11)} ${'app req/s'.padStart(10)} ${'ratio'.padStart(6)} ${'app p95'.padStart(9)} ${'errors'.padStart(6)}`,
  ];
  for (const { route, statements, bare, app } of measured) {
    const pct = (100 * app.requestsPerSecond) / bare.requestsPerSecond;
    lines.push(
      `${route.label.padEnd(46)} ${String(statements).padStart(4)} ${bare.requestsPerSecond.toFixed(0).padStart(11)} ` +
        `${app.requestsPerSecond.toFixed(0).padStart(10)} ${`${pct.toFixed(0)} %`.padStart(6)} ` +
        `${`${app.p95Ms.toFixed(1)} ms`.padStart(9)} ${String(app.errors + bare.errors).padStart(6)}`,
    );
  }
  return lines;
}
