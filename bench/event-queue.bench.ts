import { EVENT_API, ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import {
  customers,
  eventRegistrations,
  eventRuns,
  events,
  eventTeamMembers,
  users,
} from '../server/src/platform/db/schema/index.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { JUPYTER_MISSING } from '../server/src/test/jupyter-kit.js';
import { openRuntimeWorld } from './runtime.bench.js';

const TEAMS = 50;
const CONCURRENCIES = [1, 2];
const PASSWORD = 'Team#2026pass';
const DAY = 86_400_000;

/** The organiser's script: the share of predictions equal to the answers, line by line. */
const ACCURACY = `import sys
predictions = [l.strip() for l in open(sys.argv[1]) if l.strip()]
answers = [l.strip() for l in open(sys.argv[2]) if l.strip()]
print(sum(1 for p, a in zip(predictions, answers) if p == a) / len(answers))
`;
const LABELS = ['cat', 'dog', 'bird'];
const ANSWERS = Array.from({ length: 1000 }, (_, i) => LABELS[i % 3]).join('\n');

/** A multipart body of named files, as a browser's form sends it. */
function multipart(files: Record<string, { name: string; content: string }>) {
  const boundary = '----queue-bench';
  const parts = Object.entries(files).map(
    ([field, file]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\n\r\n${file.content}\r\n`,
  );
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface QueueFigures {
  concurrency: number;
  elapsedMs: number;
  scored: number;
  evaluation: number[];
  waits: number[];
}

/**
 * One server process evaluating with `concurrency` sandboxes: a contest with an auto-scored track and 50 passed
 * teams; after one warm-up run (the evaluation's Python environment is made once per process), every team sends a
 * predictions file at the same moment, and the clock stops when the last run is scored.
 */
async function measure(concurrency: number): Promise<QueueFigures> {
  const world = await openRuntimeWorld('aiedu-bench-queue-', {
    EVENT_RUN_CONCURRENCY: String(concurrency),
    EVENT_RUN_TIMEOUT_SECONDS: '120',
  });
  const { app } = world;
  try {
    const db = app.eventRuns.ctx.db;
    const [customer] = await db.select().from(customers).where(eq(customers.id, world.customerId));
    const passwordHash = await hashPassword(PASSWORD);
    const people = await db
      .insert(users)
      .values([
        { customerId: customer!.id, username: 'organiser', passwordHash, roles: [ROLES.customerAdmin] },
        ...Array.from({ length: TEAMS }, (_, i) => ({
          customerId: customer!.id,
          username: `team${String(i + 1).padStart(2, '0')}`,
          passwordHash,
          roles: [ROLES.student],
        })),
      ])
      .returning({ id: users.id, username: users.username });
    const tokens = new Map<string, string>();
    for (const person of people) {
      const login = await app.inject({
        method: 'POST',
        url: '/gw/api/v1/auth/login',
        payload: {
          custcode: customer!.code,
          usernameOrEmailOrPhone: person.username,
          password: Buffer.from(PASSWORD).toString('base64'),
        },
      });
      tokens.set(person.username, login.json().data.token as string);
    }
    const [organiser, ...students] = people;
    const now = Date.now();
    const [event] = await db
      .insert(events)
      .values({
        customerId: customer!.id,
        name: 'Queue bench cup',
        tracks: [{ id: 'acc', name: 'Accuracy', kind: 'auto', dailyRuns: 5, higherIsBetter: true }],
        registrationStart: new Date(now - 10 * DAY),
        registrationEnd: new Date(now - 5 * DAY),
        submissionStart: new Date(now - 6 * DAY),
        submissionEnd: new Date(now + 5 * DAY),
        reviewStart: new Date(now + 6 * DAY),
        reviewEnd: new Date(now + 8 * DAY),
        resultsAt: new Date(now + 9 * DAY),
        eligibility: { customerIds: [], stages: [], grades: [] },
        organiserId: organiser!.id,
      })
      .returning();
    for (const student of students) {
      const [registration] = await db
        .insert(eventRegistrations)
        .values({
          eventId: event!.id,
          trackId: 'acc',
          teamName: `Team ${student.username}`,
          leaderId: student.id,
          customerId: customer!.id,
          state: 'passed',
        })
        .returning();
      await db.insert(eventTeamMembers).values({
        registrationId: registration!.id,
        eventId: event!.id,
        role: 'applicant',
        position: 0,
        userId: student.id,
        name: student.username,
      });
    }
    const query = `eventId=${event!.id}&trackId=acc`;
    const send = async (
      username: string,
      url: string,
      method: 'POST' | 'PUT',
      files: Parameters<typeof multipart>[0],
    ) => {
      const body = multipart(files);
      const answer = await app.inject({
        method,
        url: `${url}?${query}`,
        payload: body.payload,
        headers: { ...body.headers, 'x-authorization': tokens.get(username)! },
      });
      if (answer.json().errorCode !== '1000') throw new Error(`${url}: ${answer.body}`);
    };
    await send('organiser', EVENT_API.evaluation, 'PUT', {
      script: { name: 'evaluate.py', content: ACCURACY },
      answers: { name: 'answers.csv', content: ANSWERS },
    });
    const predictions = (i: number) => ({
      file: {
        name: 'predictions.csv',
        content: ANSWERS.split('\n')
          .map((a, n) => (n % (i + 2) === 0 ? 'dog' : a))
          .join('\n'),
      },
    });
    const finished = async () => {
      for (;;) {
        await app.eventRuns.settled();
        const rows = await db
          .select({ state: eventRuns.state })
          .from(eventRuns)
          .where(eq(eventRuns.eventId, event!.id));
        if (rows.every((r) => r.state !== 'queued' && r.state !== 'running')) return;
        app.eventRuns.kick();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await send(students[0]!.username, EVENT_API.runs, 'POST', predictions(0));
    await finished();
    await db.delete(eventRuns).where(eq(eventRuns.eventId, event!.id));

    const started = performance.now();
    await Promise.all(students.map((s, i) => send(s.username, EVENT_API.runs, 'POST', predictions(i))));
    await finished();
    const elapsedMs = performance.now() - started;
    const runs = await db.select().from(eventRuns).where(eq(eventRuns.eventId, event!.id));
    return {
      concurrency,
      elapsedMs,
      scored: runs.filter((r) => r.state === 'scored').length,
      evaluation: runs.map((r) => (r.finishedAt?.getTime() ?? 0) - (r.startedAt?.getTime() ?? 0)),
      waits: runs.map((r) => (r.startedAt?.getTime() ?? 0) - r.queuedAt.getTime()),
    };
  } finally {
    await world.close();
  }
}

/**
 * `npm run bench -- events`, the auto-scoring queue: 50 teams of one track send predictions at once to one server
 * process, evaluated one at a time and two at a time in sandboxes, in the same run.
 */
export async function benchEventQueue(): Promise<string[]> {
  if (JUPYTER_MISSING) return ['(skipped: the sandbox needs Debian jupyter-server and python3-venv)'];
  const figures: QueueFigures[] = [];
  for (const concurrency of CONCURRENCIES) figures.push(await measure(concurrency));
  const base = figures[0]!;
  return [
    `The auto-scoring queue: ${TEAMS} teams send predictions (1,000 lines) at once to one process; a warm-up run first`,
    'EVENT_RUN_CONCURRENCY  scored  all scored in  runs/min  evaluation p50 / p95   wait p95   throughput ratio',
    ...figures.map((f) =>
      [
        String(f.concurrency).padStart(21),
        `${f.scored}/${TEAMS}`.padStart(7),
        seconds(f.elapsedMs).padStart(14),
        ((TEAMS / f.elapsedMs) * 60_000).toFixed(0).padStart(9),
        `${seconds(quantile(f.evaluation, 0.5))} / ${seconds(quantile(f.evaluation, 0.95))}`.padStart(22),
        seconds(quantile(f.waits, 0.95)).padStart(10),
        `${((base.elapsedMs / f.elapsedMs) * 100).toFixed(0)} %`.padStart(18),
      ].join(''),
    ),
  ];
}
