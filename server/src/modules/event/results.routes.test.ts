import { EVENT_API } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventWorks } from '../../platform/db/schema/index.js';
import { SUBMISSION_OPEN, buildEventWorld, type EventWorld } from './event-test-world.js';

describe('event results by the earlier submission, with overall scores', () => {
  let w: EventWorld;
  let event: Awaited<ReturnType<EventWorld['createEvent']>>;
  const works: Record<string, string> = {};
  const q = (url: string) => `${url}?eventId=${event.id}`;
  const settings = (worksPerGroup: number) =>
    w.call('boss', 'PUT', q(EVENT_API.reviewSettings), {
      scoringType: 'overall',
      groupCount: 2,
      judgesPerGroup: 1,
      worksPerGroup,
    });
  const overall = (who: string, name: string, value: number | null) =>
    w.call(who, 'POST', EVENT_API.scoreSubmit, { workId: works[name], overall: value });

  beforeAll(async () => {
    w = await buildEventWorld();
    event = await w.createEvent({ phases: SUBMISSION_OPEN });
    const team = (leader: string, schoolId: string) =>
      w.insertTeam(event.id, leader, { schoolId, mentors: [`Mentor of ${leader}`] });
    const teams = {
      A1: await team('stuA1', w.schoolA.id),
      B1: await team('stuB1', w.schoolB.id),
      B2: await team('stuB2', w.schoolB.id),
    };
    for (const [name, team, minute] of [
      ['wA1', teams.A1.id, 5],
      ['wB1', teams.B1.id, 3],
      ['wB2', teams.B2.id, 1],
    ] as const) {
      works[name] = await w.insertPendingWork(event.id, team, name, minute);
    }
    await w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username: 'teachA1', group: 1 });
    await w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username: 'teachB1', group: 2 });
  });
  afterAll(() => w.t.close());

  it('refuses an assignment the group limit cannot hold, and gives nothing (4511)', async () => {
    await settings(1);
    expect(w.code(await w.call('boss', 'POST', q(EVENT_API.assign)))).toBe('4511');
    const rows = await w.db.select().from(eventWorks).where(eq(eventWorks.eventId, event.id));
    expect(rows.every((r) => r.state === 'PENDING_REVIEW' && r.judgeGroup === null)).toBe(true);
    await settings(2);
    const progress = (await w.call('boss', 'POST', q(EVENT_API.assign))).json().data;
    // Both South works go to the North judge's group; the North work to the South judge's.
    expect(progress.groups.map((g: { works: number }) => g.works)).toEqual([2, 1]);
    expect(w.code(await w.call('otherBoss', 'POST', q(EVENT_API.assign)))).toBe('1004');
    expect(w.code(await w.call('teachA1', 'GET', q(EVENT_API.progress)))).toBe('1006');
  });

  it('needs the overall score, and ranks ties by the earlier submission', async () => {
    w.clock.set(event.reviewStart);
    expect(w.code(await overall('teachA1', 'wB1', null))).toBe('1001');
    // A second judge joins the group: one score is no longer enough, until that judge leaves.
    const second = (
      await w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username: 'teachA2', group: 1 })
    ).json().data.id;
    expect(w.code(await overall('teachA1', 'wB1', 80))).toBe('1000');
    const stateOf = async () => (await w.db.select().from(eventWorks).where(eq(eventWorks.id, works.wB1!)))[0]!.state;
    expect(await stateOf()).toBe('IN_REVIEW');
    await w.call('boss', 'DELETE', `${EVENT_API.judges}?judgeId=${second}`);
    expect(await stateOf()).toBe('AUDITED');
    // A judge of the South School cannot join the group that holds South works.
    const own = await w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username: 'teachB2', group: 1 });
    expect(w.code(own)).toBe('4511');
    expect(w.code(await overall('teachA1', 'wB2', 80))).toBe('1000');
    expect(w.code(await overall('teachB1', 'wA1', 95))).toBe('1000');
    const certsTooEarly = await w.call('boss', 'POST', EVENT_API.certificates, {
      eventId: event.id,
      certId: '00000000-0000-4000-8000-000000000000',
    });
    expect(w.code(certsTooEarly)).toBe('4503');
    // Before publication the organisers see the ranking so far; nobody else does.
    const preview = (await w.call('boss', 'GET', q(EVENT_API.results))).json().data;
    expect(preview.publishedAt).toBe('');
    expect(w.code(await w.call('teachA1', 'GET', q(EVENT_API.results)))).toBe('1004');
    const published = (await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id })).json().data;
    const rows = published.rows.map((r: { workName: string; rank: number; award: string | null }) => [
      r.workName,
      r.rank,
      r.award,
    ]);
    expect(rows).toEqual([
      ['wA1', 1, 'Gold'],
      ['wB2', 2, 'Silver'],
      ['wB1', 3, 'Silver'],
    ]);
    expect(preview.rows.map((r: { workName: string }) => r.workName)).toEqual(['wA1', 'wB2', 'wB1']);
    expect(published.tieRule).toBe('earlierSubmission');
    const mine = (await w.call('stuB2', 'GET', `${EVENT_API.workDetail}?workId=${works.wB2}`)).json().data;
    expect(mine).toMatchObject({ rank: 2, award: 'Silver', score: 80 });
  });
});
