import { randomUUID } from 'node:crypto';
import { EVENT_API } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRuns, operationLogs } from '../../platform/db/schema/index.js';
import { buildRunWorld, multipartFiles, type RunWorld } from './run.test-kit.js';

const DAY = 86_400_000;
const SCRIPT = 'import sys\nprint(1.0)\n';

describe('auto-scored tracks: the evaluation, runs within the daily limit, cancelling, the ladder', () => {
  let w: RunWorld;
  let teamA: { id: string };
  let teamB: { id: string };
  const q = (trackId = 'acc') => `eventId=${w.event.id}&trackId=${trackId}`;
  const setEvaluation = (who: string, files: Parameters<typeof multipartFiles>[0], trackId = 'acc') => {
    const body = multipartFiles(files);
    return w.call(who, 'PUT', `${EVENT_API.evaluation}?${q(trackId)}`, body.payload, body.headers);
  };
  const submit = (who: string, content = 'a\nb\n', trackId = 'acc') => {
    const body = multipartFiles({ file: { name: 'predictions.csv', content } });
    return w.call(who, 'POST', `${EVENT_API.runs}?${q(trackId)}`, body.payload, body.headers);
  };
  const runsOf = async (who: string, trackId = 'acc') =>
    (await w.call(who, 'GET', `${EVENT_API.runs}?${q(trackId)}`)).json().data;

  beforeAll(async () => {
    w = await buildRunWorld();
    teamA = await w.team('stuA1', 'acc', w.schoolA.id, 'passed', ['stuA2']);
    teamB = await w.team('stuB1', 'acc', w.schoolB.id);
    await w.team('stuA3', 'acc', w.schoolA.id, 'pendingReview');
  });
  afterAll(async () => {
    await w.t.close();
  });

  it('runs wait for the evaluation (4513); only organisers set it, both files the first time, and it is logged', async () => {
    expect(w.code(await submit('stuA1'))).toBe('4513');
    const files = {
      script: { name: 'evaluate.py', content: SCRIPT },
      answers: { name: 'answers.csv', content: 'a\n' },
    };
    expect((await setEvaluation('stuA1', files)).statusCode).toBe(403);
    expect(w.code(await setEvaluation('otherBoss', files))).toBe('1004');
    expect(w.code(await setEvaluation('boss', files, 'ai'))).toBe('1004');
    expect(w.code(await setEvaluation('boss', { script: files.script }))).toBe('1001');
    const tooBig = { ...files, script: { name: 'evaluate.py', content: Buffer.alloc(1024 * 1024 + 1, 35) } };
    expect(w.code(await setEvaluation('boss', tooBig))).toBe('2006');
    const set = await setEvaluation('boss', files);
    expect(set.json()).toMatchObject({ errorCode: '1000', data: { trackId: 'acc', answersName: 'answers.csv' } });
    // Later, one file alone replaces its own.
    const again = await setEvaluation('boss', { answers: { name: 'truth.csv', content: 'b\n' } });
    expect(again.json().data.answersName).toBe('truth.csv');
    const seen = await w.call('boss', 'GET', `${EVENT_API.evaluation}?${q()}`);
    expect(seen.json().data).toMatchObject({ answersName: 'truth.csv' });
    expect((await w.call('stuA1', 'GET', `${EVENT_API.evaluation}?${q()}`)).statusCode).toBe(403);
    const logs = await w.db.select().from(operationLogs).where(eq(operationLogs.operation, 'evaluation'));
    expect(logs.length).toBe(2);
    expect(logs[0]!.module).toBe('event');
  });

  it('only a passed team of the track runs (4514), and only while submission is open (4501)', async () => {
    expect(w.code(await submit('stuA3'))).toBe('4514');
    expect(w.code(await submit('stuX'))).toBe('4514');
    expect(w.code(await submit('stuA1', 'x', 'ai'))).toBe('1004');
    w.clock.set(w.phases.submissionEnd);
    expect(w.code(await submit('stuA1'))).toBe('4501');
    w.clock.set(w.start);
  });

  it("counts a team's runs per day: cancelled and platform-failed runs do not count, the next day counts afresh", async () => {
    const first = await submit('stuA1');
    expect(first.json()).toMatchObject({ errorCode: '1000', data: { state: 'queued', counted: true } });
    // Any member of the team runs for it.
    expect(w.code(await submit('stuA2'))).toBe('1000');
    const third = (await submit('stuA1')).json().data;
    expect(w.code(await submit('stuA1'))).toBe('4508');
    // Another team has its own count.
    expect(w.code(await submit('stuB1'))).toBe('1000');

    const cancelled = await w.call('stuA2', 'PUT', `${EVENT_API.runCancel}?runId=${third.id}`);
    expect(cancelled.json().data).toMatchObject({ state: 'cancelled', counted: false });
    expect(w.code(await w.call('stuA1', 'PUT', `${EVENT_API.runCancel}?runId=${third.id}`))).toBe('4503');
    const fourth = (await submit('stuA1')).json().data;
    expect(w.code(await submit('stuA1'))).toBe('4508');

    await w.db
      .update(eventRuns)
      .set({ state: 'failed', platformFault: true, error: 'the evaluation sandbox failed' })
      .where(eq(eventRuns.id, fourth.id));
    expect(w.code(await submit('stuA1'))).toBe('1000');
    expect(w.code(await submit('stuA1'))).toBe('4508');
    // A failure of the script's own counts.
    await w.db
      .update(eventRuns)
      .set({ state: 'failed', platformFault: false, error: 'ValueError' })
      .where(eq(eventRuns.id, first.json().data.id));
    expect(w.code(await submit('stuA1'))).toBe('4508');

    const view = await runsOf('stuA1');
    expect(view).toMatchObject({ usedToday: 3, dailyRuns: 3, best: null });
    expect(view.runs).toHaveLength(5);
    expect(view.runs.filter((r: { counted: boolean }) => !r.counted)).toHaveLength(2);
    expect(view.runs.every((r: { teamName: string }) => r.teamName === 'Team stuA1')).toBe(true);

    // 16:00 UTC is midnight in Shanghai: a new day there.
    w.clock.set(new Date('2026-11-22T16:00:00Z'));
    expect((await runsOf('stuA1')).usedToday).toBe(0);
    expect(w.code(await submit('stuA1'))).toBe('1000');
    const days = await w.db
      .selectDistinct({ day: eventRuns.day })
      .from(eventRuns)
      .where(eq(eventRuns.registrationId, teamA.id));
    expect(days.map((d) => d.day).sort()).toEqual(['2026-11-22', '2026-11-23']);
    w.clock.set(w.start);
  });

  it('a run that started cannot be cancelled (4503); another team cannot touch it (1004)', async () => {
    const run = (await submit('stuB1')).json().data;
    expect(w.code(await w.call('stuA1', 'PUT', `${EVENT_API.runCancel}?runId=${run.id}`))).toBe('1004');
    expect((await w.call('boss', 'PUT', `${EVENT_API.runCancel}?runId=${run.id}`)).statusCode).toBe(403);
    await w.db.update(eventRuns).set({ state: 'running', claimedBy: randomUUID() }).where(eq(eventRuns.id, run.id));
    const refused = await w.call('stuB1', 'PUT', `${EVENT_API.runCancel}?runId=${run.id}`);
    expect(refused.json()).toMatchObject({ errorCode: '4503' });
    expect(refused.statusCode).toBe(409);
    expect(w.code(await w.call('stuB1', 'PUT', `${EVENT_API.runCancel}?runId=${randomUUID()}`))).toBe('1004');
  });

  it('a run left running by a process that stopped goes back to the queue', async () => {
    const left = await w.db
      .select()
      .from(eventRuns)
      .where(and(eq(eventRuns.registrationId, teamB.id), eq(eventRuns.state, 'running')));
    expect(left).toHaveLength(1);
    expect(await w.t.app.eventRuns.requeueOrphans()).toBe(1);
    const [row] = await w.db.select().from(eventRuns).where(eq(eventRuns.id, left[0]!.id));
    expect(row).toMatchObject({ state: 'queued', claimedBy: null, startedAt: null });
    // The queue's fair pick claims it for this process.
    const claimed = await w.t.app.eventRuns.claimNext();
    expect(claimed).not.toBeNull();
    expect(claimed!.claimedBy).toBe(w.t.app.eventRuns.manager.instance.id);
  });

  it('the worker claims runs round-robin across teams, not in the order they were queued', async () => {
    await w.db.update(eventRuns).set({ state: 'cancelled' }).where(eq(eventRuns.state, 'queued'));
    const x = await w.team('stuX', 'err', w.schoolA.id);
    const y = await w.team('stuB2', 'err', w.schoolB.id);
    const queued = (registrationId: string, submittedBy: string, minute: number) => ({
      eventId: w.event.id,
      trackId: 'err',
      registrationId,
      submittedBy,
      predictionsKey: `event-runs/x/${minute}.csv`,
      day: '2026-11-22',
      queuedAt: new Date(w.start.getTime() - 60 * 60_000 + minute * 60_000),
    });
    const rows = await w.db
      .insert(eventRuns)
      .values([
        queued(x.id, w.ids.stuX!, 0),
        queued(x.id, w.ids.stuX!, 1),
        queued(x.id, w.ids.stuX!, 2),
        queued(y.id, w.ids.stuB2!, 5),
        queued(y.id, w.ids.stuB2!, 6),
      ])
      .returning();
    const picked: string[] = [];
    for (let i = 0; i < 5; i++) {
      w.clock.set(w.start.getTime() + (i + 1) * 1000);
      picked.push((await w.t.app.eventRuns.claimNext())!.id);
    }
    expect(await w.t.app.eventRuns.claimNext()).toBeNull();
    const [x0, x1, x2, y0, y1] = rows.map((r) => r.id);
    expect(picked).toEqual([x0, y0, x1, y1, x2]);
    w.clock.set(w.start);
  });

  it('the ladder is public as the event is, per track, and refuses a judged track', async () => {
    const visitor = (trackId = 'acc') => `${EVENT_API.ladder}?${q(trackId)}&custcode=${w.customer.code}`;
    const ladder = await w.call(null, 'GET', visitor());
    expect(ladder.json()).toMatchObject({
      errorCode: '1000',
      data: { trackId: 'acc', higherIsBetter: true, rows: [] },
    });
    expect(w.code(await w.call(null, 'GET', visitor('ai')))).toBe('1004');
    // Not to a visitor who does not name the customer, nor to another customer's people.
    expect(w.code(await w.call(null, 'GET', `${EVENT_API.ladder}?${q()}`))).toBe('1004');
    expect(w.code(await w.call('otherBoss', 'GET', `${EVENT_API.ladder}?${q()}`))).toBe('1004');
    expect(w.code(await w.call(null, 'GET', `${EVENT_API.ladder}?eventId=${randomUUID()}&trackId=acc`))).toBe('1004');
    const day = '2026-11-22';
    const base = {
      eventId: w.event.id,
      trackId: 'acc',
      submittedBy: w.ids.stuA1!,
      predictionsKey: 'event-runs/x/p.csv',
      day,
      state: 'scored' as const,
    };
    await w.db.insert(eventRuns).values([
      { ...base, registrationId: teamA.id, score: 0.8, queuedAt: new Date(w.start.getTime() - 2 * DAY) },
      { ...base, registrationId: teamA.id, score: 0.9, queuedAt: new Date(w.start.getTime() - DAY) },
      { ...base, registrationId: teamB.id, submittedBy: w.ids.stuB1!, score: 0.9, queuedAt: w.start },
    ]);
    const rows = (await w.call(null, 'GET', visitor())).json().data.rows;
    expect(rows).toEqual([
      expect.objectContaining({ rank: 1, registrationId: teamA.id, best: 0.9, runs: 2, schoolName: 'North School' }),
      expect.objectContaining({ rank: 2, registrationId: teamB.id, best: 0.9, runs: 1, teamName: 'Team stuB1' }),
    ]);
    expect(rows[0].bestAt).toBe(new Date(w.start.getTime() - DAY).toISOString());
    expect((await runsOf('stuA1')).best).toBe(0.9);
  });

  it("lists every team's runs of a track to its organisers, newest first, by state, with the track's counts", async () => {
    const all = (await w.call('boss', 'GET', `${EVENT_API.runsAll}?${q()}&size=100`)).json().data;
    const stored = await w.db.select().from(eventRuns).where(eq(eventRuns.trackId, 'acc'));
    expect(all.total).toBe(stored.length);
    expect(all.list.map((r: { id: string }) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());
    const startedOf = new Map(all.list.map((r: { id: string; startedAt: string | null }) => [r.id, r.startedAt]));
    expect(stored.some((r) => r.startedAt)).toBe(true);
    for (const r of stored) expect(startedOf.get(r.id)).toBe(r.startedAt?.toISOString() ?? null);
    const queuedAt = all.list.map((r: { queuedAt: string }) => r.queuedAt);
    expect(queuedAt).toEqual([...queuedAt].sort().reverse());
    expect(new Set(all.list.map((r: { teamName: string }) => r.teamName))).toEqual(
      new Set(['Team stuA1', 'Team stuB1']),
    );
    for (const state of ['queued', 'running', 'scored', 'failed', 'cancelled'] as const) {
      expect(all.counts[state]).toBe(stored.filter((r) => r.state === state).length);
    }
    expect(all.counts.scored).toBe(3);

    const scored = (await w.call('boss', 'GET', `${EVENT_API.runsAll}?${q()}&state=scored&size=2&page=2`)).json().data;
    expect(scored).toMatchObject({ total: 3, page: 2, size: 2 });
    expect(scored.list).toHaveLength(1);
    expect(scored.list[0]).toMatchObject({ state: 'scored', score: 0.8, teamName: 'Team stuA1' });

    expect((await w.call('stuA1', 'GET', `${EVENT_API.runsAll}?${q()}`)).statusCode).toBe(403);
    expect(w.code(await w.call('otherBoss', 'GET', `${EVENT_API.runsAll}?${q()}`))).toBe('1004');
    expect(w.code(await w.call('boss', 'GET', `${EVENT_API.runsAll}?${q('ai')}`))).toBe('1004');
  });
});
