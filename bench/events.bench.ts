import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../server/src/platform/db/client.js';
import {
  customers,
  eventRegistrations,
  eventRuns,
  events,
  eventWorks,
  schools,
  users,
} from '../server/src/platform/db/schema/index.js';
import { measureAgainstBare, replayTable } from './replay-bench.js';
import { createScratchDatabase } from './scratch-database.js';
import { startServerProcess, stopServerProcess } from './server-process.js';

const CONNECTIONS = 200;
const SECONDS = 5;
const TEAMS = 200;
const RUNS_PER_TEAM = 5;
const DAY = 24 * 3600_000;

/**
 * A platform-wide contest after its results: 200 teams of the demo school, each with a ranked work in the judged
 * track and five scored runs in the auto-scored track. Written straight into the database the app migrated and
 * seeded (the results page and the ladder only read it).
 */
async function seedContest(env: Record<string, string>): Promise<string> {
  const first = await startServerProcess({ ...env, SEED_DEMO: 'true' });
  await stopServerProcess(first.child);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: path.join(env.DATA_DIR!, 'db'),
  });
  try {
    const { db } = database;
    const [customer] = await db.select().from(customers).where(eq(customers.code, 'demo2026'));
    const [school] = await db.select().from(schools).where(eq(schools.customerId, customer!.id));
    const [leader] = await db.select().from(users).where(eq(users.username, 'student01'));
    const [organiser] = await db.select().from(users).where(eq(users.username, 'super'));
    const now = Date.now();
    const at = (days: number) => new Date(now + days * DAY);
    const [event] = await db
      .insert(events)
      .values({
        customerId: null,
        name: 'AI Creativity Contest (benchmark)',
        tracks: [
          { id: 'judged', name: 'Creative works', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
          { id: 'auto', name: 'Iris classification', kind: 'auto', dailyRuns: 5, higherIsBetter: true },
        ],
        registrationStart: at(-60),
        registrationEnd: at(-40),
        submissionStart: at(-50),
        submissionEnd: at(-20),
        reviewStart: at(-19),
        reviewEnd: at(-5),
        resultsAt: at(-1),
        eligibility: { customerIds: [], stages: [], grades: [] },
        awards: [
          { name: 'First prize', count: 5 },
          { name: 'Second prize', count: 15 },
          { name: 'Third prize', count: 30 },
        ],
        resultsPublishedAt: at(-1),
        organiserId: organiser!.id,
      })
      .returning();
    const registrations = await db
      .insert(eventRegistrations)
      .values(
        Array.from({ length: TEAMS }, (_, i) => ({
          eventId: event!.id,
          trackId: i % 2 === 0 ? 'judged' : 'auto',
          teamName: `Team ${String(i + 1).padStart(3, '0')}`,
          leaderId: leader!.id,
          customerId: customer!.id,
          schoolId: school!.id,
          state: 'passed' as const,
          submittedAt: at(-45),
          decidedAt: at(-44),
        })),
      )
      .returning({ id: eventRegistrations.id, trackId: eventRegistrations.trackId });
    const judged = registrations.filter((r) => r.trackId === 'judged');
    const scores = judged.map((_, i) => 95 - i * 0.25 - (i % 3) * 0.1);
    const ranked = scores.map((score, i) => ({ score, i })).sort((a, b) => b.score - a.score);
    const awardOf = (rank: number) =>
      rank <= 5 ? 'First prize' : rank <= 20 ? 'Second prize' : rank <= 50 ? 'Third prize' : null;
    await db.insert(eventWorks).values(
      ranked.map(({ score, i }, position) => ({
        eventId: event!.id,
        registrationId: judged[i]!.id,
        trackId: 'judged',
        name: `Work of team ${i + 1}`,
        description: 'A classifier of recycling photographs, trained in class.',
        state: 'AUDITED' as const,
        judgeGroup: 1 + (i % 4),
        score,
        rank: position + 1,
        award: awardOf(position + 1),
        submittedAt: at(-25),
        createdBy: leader!.id,
      })),
    );
    const auto = registrations.filter((r) => r.trackId === 'auto');
    await db.insert(eventRuns).values(
      auto.flatMap((team, t) =>
        Array.from({ length: RUNS_PER_TEAM }, (_, n) => ({
          eventId: event!.id,
          trackId: 'auto',
          registrationId: team.id,
          submittedBy: leader!.id,
          predictionsKey: `bench/predictions-${t}-${n}.csv`,
          state: 'scored' as const,
          score: 0.5 + ((t * 7 + n * 13) % 50) / 100,
          day: new Date(now - (30 - n) * DAY).toISOString().slice(0, 10),
          queuedAt: at(-30 + n),
          startedAt: at(-30 + n),
          finishedAt: at(-30 + n),
        })),
      ),
    );
    return event!.id;
  } finally {
    await database.close();
  }
}

/**
 * `npm run bench -- events`: the results page and the ladder of a contest of 200 teams under 200 connections, each
 * beside a bare route sending the same SQL (`replay-bench.ts`).
 */
export async function benchEvents(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-events-'));
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const poolSize = process.env.DATABASE_POOL_SIZE ?? '10';
  const env = {
    DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: poolSize,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  try {
    const eventId = await seedContest(env);
    const anonymous = { language: 'en' };
    const measured = await measureAgainstBare({
      env,
      connections: CONNECTIONS,
      seconds: SECONDS,
      prepare: async () => [
        {
          name: 'results',
          label: 'GET /api/v1/event/results (anon., 100 works)',
          path: `/api/v1/event/results?eventId=${eventId}`,
          headers: anonymous,
        },
        {
          name: 'ladder',
          label: 'GET /api/v1/event/ladder (anon., 500 runs)',
          path: `/api/v1/event/ladder?eventId=${eventId}&trackId=auto`,
          headers: anonymous,
        },
        {
          name: 'event-detail',
          label: 'GET /api/v1/event/detail (anon.)',
          path: `/api/v1/event/detail?eventId=${eventId}`,
          headers: anonymous,
        },
      ],
    });
    const kind = scratch ? `PostgreSQL, pool of ${poolSize}` : 'PGlite';
    return [
      `${kind}, ${CONNECTIONS} connections, ${SECONDS} s each; a contest of ${TEAMS} teams after its results`,
      ...replayTable(measured),
      'target: ratio ≥ 50 %',
    ];
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
