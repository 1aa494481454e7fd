import { EVENT_API } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, eventWorkRounds, eventWorks, operationLogs } from '../../platform/db/schema/index.js';
import { SUBMISSION_OPEN, buildEventWorld, type EventWorld } from './event-test-world.js';

const FINAL = { name: 'Final', advance: 2, groupCount: 2, judgesPerGroup: 2, worksPerGroup: 0 };
const SETTINGS = {
  scoringType: 'overall',
  groupCount: 2,
  judgesPerGroup: 1,
  worksPerGroup: 0,
  roundName: 'Heats',
  rounds: [FINAL],
};

describe('review rounds: each with its own judge groups, the best works going on', () => {
  let w: EventWorld;
  let event: Awaited<ReturnType<EventWorld['createEvent']>>;
  const works: Record<string, string> = {};
  const q = (url: string) => `${url}?eventId=${event.id}`;
  const score = (who: string, name: string, overall: number, submit = true) =>
    w.call(who, submit ? 'POST' : 'PUT', submit ? EVENT_API.scoreSubmit : EVENT_API.score, {
      workId: works[name],
      overall,
    });
  const addJudge = (username: string, group: number, round: number) =>
    w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username, group, round });
  const closeRound = () => w.call('boss', 'POST', EVENT_API.closeRound, { eventId: event.id });
  const row = async (name: string) => (await w.db.select().from(eventWorks).where(eq(eventWorks.id, works[name]!)))[0]!;
  const progress = async (round?: number) =>
    (await w.call('boss', 'GET', `${q(EVENT_API.progress)}${round ? `&round=${round}` : ''}`)).json().data;

  beforeAll(async () => {
    w = await buildEventWorld();
    event = await w.createEvent({ phases: SUBMISSION_OPEN, awards: [{ name: 'Gold', count: 1 }] });
    for (const [name, leader, schoolId, minute] of [
      ['wA1', 'stuA1', w.schoolA.id, 1],
      ['wA2', 'stuA2', w.schoolA.id, 2],
      ['wB1', 'stuB1', w.schoolB.id, 3],
      ['wB2', 'stuB2', w.schoolB.id, 4],
    ] as const) {
      const team = await w.insertTeam(event.id, leader, { schoolId, state: 'passed', mentors: ['A mentor'] });
      works[name] = await w.insertPendingWork(event.id, team.id, name, minute);
    }
  });
  afterAll(() => w.t.close());

  it('keeps the later rounds in the settings, and places judges only in a round and group that exist', async () => {
    const saved = (await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), SETTINGS)).json().data;
    expect(saved).toMatchObject({ roundName: 'Heats', rounds: [FINAL] });
    expect(w.code(await addJudge('teachA1', 1, 3))).toBe('1001');
    expect(w.code(await addJudge('teachA1', 3, 2))).toBe('1001');
    expect(w.code(await addJudge('teachA1', 1, 1))).toBe('1000');
    expect(w.code(await addJudge('teachB1', 2, 1))).toBe('1000');
    expect(w.code(await addJudge('teachB1', 1, 1))).toBe('4510');
    // A judge may score in several rounds, one group in each.
    expect(w.code(await addJudge('teachB1', 2, 2))).toBe('1000');
    const judges = (await w.call('boss', 'GET', q(EVENT_API.judges))).json().data;
    expect(
      judges.map((j: { username: string; round: number; group: number }) => [j.username, j.round, j.group]),
    ).toEqual([
      ['teachA1', 1, 1],
      ['teachB1', 1, 2],
      ['teachB1', 2, 2],
    ]);
    // A round cannot shrink under its judges.
    const fewer = { ...SETTINGS, rounds: [{ ...FINAL, groupCount: 1 }] };
    expect(w.code(await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), fewer))).toBe('4503');
    const assigned = (await w.call('boss', 'POST', q(EVENT_API.assign))).json().data;
    expect(assigned).toMatchObject({ round: 1, currentRound: 1, rounds: 2, unassigned: 0 });
    expect((await row('wA1')).judgeGroup).toBe(2);
    expect((await row('wB1')).judgeGroup).toBe(1);
  });

  it('closes a round only once every work of it is scored, and publishes only after the last round', async () => {
    w.clock.set(event.reviewStart);
    expect(w.code(await closeRound())).toBe('4512');
    await score('teachB1', 'wA1', 90);
    await score('teachB1', 'wA2', 60);
    await score('teachA1', 'wB1', 85);
    expect(w.code(await closeRound())).toBe('4512');
    await score('teachA1', 'wB2', 70);
    expect(w.code(await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id }))).toBe('4503');
    // The Final's only judges so far: teachB1 in group 2, so a South work fits nowhere; nothing changes.
    expect(w.code(await closeRound())).toBe('4511');
    expect((await row('wB1')).state).toBe('AUDITED');
    expect((await w.db.select().from(events).where(eq(events.id, event.id)))[0]!.reviewRound).toBe(1);
    expect(await w.db.select().from(eventWorkRounds).where(eq(eventWorkRounds.workId, works.wB1!))).toEqual([]);
  });

  it("sends each track's best works to the next round's groups, never to a judge of their school", async () => {
    expect(w.code(await addJudge('teachA2', 1, 2))).toBe('1000');
    expect(w.code(await addJudge('teachB2', 2, 2))).toBe('1000');
    // Two organisers closing at once: one closes the heats, the other finds no later round to close.
    const both = await Promise.all([closeRound(), closeRound()]);
    expect(both.map((res) => w.code(res)).sort()).toEqual(['1000', '4503']);
    const closed = both.find((res) => w.code(res) === '1000')!;
    expect(closed.json().data).toEqual({ round: 1, advanced: 2, stayed: 2 });
    const wA1 = await row('wA1');
    expect([wA1.state, wA1.reviewRound, wA1.judgeGroup]).toEqual(['IN_REVIEW', 2, 2]);
    const wB1 = await row('wB1');
    expect([wB1.state, wB1.reviewRound, wB1.judgeGroup]).toEqual(['IN_REVIEW', 2, 1]);
    const wB2 = await row('wB2');
    expect([wB2.state, wB2.reviewRound]).toEqual(['AUDITED', 1]);
    const kept = await w.db.select().from(eventWorkRounds).where(eq(eventWorkRounds.round, 1));
    expect(
      kept
        .map((k) => [Object.entries(works).find(([, id]) => id === k.workId)![0], k.groupNo, k.score, k.advanced])
        .sort(),
    ).toEqual([
      ['wA1', 2, 90, true],
      ['wA2', 2, 60, false],
      ['wB1', 1, 85, true],
      ['wB2', 1, 70, false],
    ]);
    const [log] = await w.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'event'), eq(operationLogs.operation, 'closeRound')));
    expect(log?.params).toMatchObject({ round: 1, advanced: 2, stayed: 2 });

    const now = await progress();
    expect(now).toMatchObject({ round: 2, currentRound: 2, rounds: 2, unassigned: 0 });
    expect(now.groups.map((g: { works: number; done: number }) => [g.works, g.done])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    const heats = await progress(1);
    expect(heats.groups.map((g: { works: number; done: number }) => [g.works, g.done])).toEqual([
      [2, 2],
      [2, 2],
    ]);
    const [teachB1] = heats.groups[1].judges;
    expect(teachB1.scores.map((s: { workName: string; total: number }) => [s.workName, s.total])).toEqual([
      ['wA1', 90],
      ['wA2', 60],
    ]);
  });

  it('keeps a closed round as it was: no more scores, judges, assignment or reopening', async () => {
    expect(w.code(await closeRound())).toBe('4503');
    expect(w.code(await w.call('boss', 'POST', q(EVENT_API.assign)))).toBe('4503');
    expect(w.code(await addJudge('teachA2', 2, 1))).toBe('4503');
    const heats = await progress(1);
    const scoreId = heats.groups[1].judges[0].scores[0].id;
    const reopen = await w.call('boss', 'PUT', `${EVENT_API.reopenScore}?scoreId=${scoreId}`, {
      reason: 'Late change',
    });
    expect(w.code(reopen)).toBe('4503');
    expect(w.code(await score('teachB1', 'wA2', 99))).toBe('4503');
    expect(w.code(await score('teachA1', 'wA1', 99))).toBe('4507');
    const removed = heats.groups[0].judges[0].id;
    expect(w.code(await w.call('boss', 'DELETE', `${EVENT_API.judges}?judgeId=${removed}`))).toBe('4503');
    expect(w.code(await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), { ...SETTINGS, rounds: [] }))).toBe('4503');
  });

  it("lists a judge's works round by round, a closed round's read-only with its scores", async () => {
    const items = (await w.call('teachB1', 'GET', q(EVENT_API.judging))).json().data;
    expect(
      items.map((i: { work: { name: string }; round: number; closed: boolean; score: { total: number } | null }) => [
        i.work.name,
        i.round,
        i.closed,
        i.score?.total ?? null,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['wA1', 1, true, 90],
        ['wA2', 1, true, 60],
        ['wA1', 2, false, null],
      ]),
    );
    expect(items).toHaveLength(3);
    // teachA2 judges only the Final: the heats of other groups stay hidden.
    const finalOnly = (await w.call('teachA2', 'GET', q(EVENT_API.judging))).json().data;
    expect(finalOnly.map((i: { work: { name: string } }) => i.work.name)).toEqual(['wB1']);
    expect(w.code(await w.call('teachA2', 'GET', `${EVENT_API.workDetail}?workId=${works.wB2}`))).toBe('1004');
    expect(w.code(await w.call('teachB1', 'GET', `${EVENT_API.workDetail}?workId=${works.wA2}`))).toBe('1000');
  });

  it('ranks the works of the last round first, each by the scores of the last round it reached', async () => {
    await score('teachB1', 'wA1', 80);
    expect((await row('wA1')).state).toBe('IN_REVIEW');
    await score('teachB2', 'wA1', 70);
    await score('teachA2', 'wB1', 60);
    expect((await row('wA1')).state).toBe('AUDITED');
    const published = (await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id })).json().data;
    expect(published.rounds).toEqual(['Heats', 'Final']);
    expect(
      published.rows.map(
        (r: { workName: string; rank: number; score: number; round: number; award: string | null }) => [
          r.workName,
          r.rank,
          r.score,
          r.round,
          r.award,
        ],
      ),
    ).toEqual([
      ['wA1', 1, 75, 2, 'Gold'],
      ['wB1', 2, 60, 2, null],
      ['wB2', 3, 70, 1, null],
      ['wA2', 4, 60, 1, null],
    ]);
  });
});
