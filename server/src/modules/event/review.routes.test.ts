import { CERT_API, EVENT_API } from '@aiedu/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificates,
  eventCertificateIssuances,
  events,
  eventWorks,
  operationLogs,
  userCertificates,
} from '../../platform/db/schema/index.js';
import { sampleFile } from '../../test/media-samples.js';
import { multipartFile } from '../../test/multipart.js';
import { DESIGN } from '../certificate/cert-test-world.js';
import { SUBMISSION_OPEN, buildEventWorld, type EventWorld } from './event-test-world.js';

const SETTINGS = {
  scoringType: 'criteria',
  criteria: [
    { id: 'idea', name: 'Idea', weight: 2 },
    { id: 'craft', name: 'Craft', weight: 1 },
  ],
  groupCount: 2,
  judgesPerGroup: 2,
  worksPerGroup: 0,
  rules: 'Score the work, not the team.',
};

describe('event review, judging and results', () => {
  let w: EventWorld;
  let event: Awaited<ReturnType<EventWorld['createEvent']>>;
  /** A team of the event: passed unless told, with an outside mentor unless mentors are named. */
  const team = (
    leader: string,
    schoolId: string,
    state: 'inProgress' | 'pendingReview' | 'passed' | 'ended' = 'passed',
    applicants: string[] = [],
    mentors: string[] = [`Mentor of ${leader}`],
  ) => w.insertTeam(event.id, leader, { schoolId, state, applicants, mentors });
  const works: Record<string, string> = {};
  const q = (url: string) => `${url}?eventId=${event.id}`;
  const score = (who: string, workId: string, idea: number, craft: number, submit = false) =>
    w.call(who, submit ? 'POST' : 'PUT', submit ? EVENT_API.scoreSubmit : EVENT_API.score, {
      workId,
      scores: [
        { criterionId: 'idea', score: idea },
        { criterionId: 'craft', score: craft },
      ],
      comment: 'Clear demo',
    });
  const addJudge = (username: string, group: number) =>
    w.call('boss', 'POST', EVENT_API.judges, { eventId: event.id, username, group });
  async function pendingWork(name: string, leaderTeam: string, minute: number) {
    works[name] = await w.insertPendingWork(event.id, leaderTeam, name, minute);
    return works[name];
  }
  const stateOf = async (name: string) =>
    (await w.db.select().from(eventWorks).where(eq(eventWorks.id, works[name]!)))[0]!;

  beforeAll(async () => {
    w = await buildEventWorld();
    event = await w.createEvent({ phases: SUBMISSION_OPEN });
    const teams = {
      A1: await team('stuA1', w.schoolA.id, 'passed', [], ['teachA2']),
      A2: await team('stuA2', w.schoolA.id),
      B1: await team('stuB1', w.schoolB.id),
      B2: await team('stuB2', w.schoolB.id),
    };
    await pendingWork('wA1', teams.A1.id, 1);
    await pendingWork('wA2', teams.A2.id, 2);
    await pendingWork('wB1', teams.B1.id, 3);
    await pendingWork('wB2', teams.B2.id, 4);
    works.teamA1 = teams.A1.id;
    works.teamB1 = teams.B1.id;
  });
  afterAll(() => w.t.close());

  it('keeps review settings for organisers and judges, refusing criteria scoring without criteria', async () => {
    const bad = await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), { ...SETTINGS, criteria: [] });
    expect(w.code(bad)).toBe('1001');
    const saved = await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), SETTINGS);
    expect(saved.json().data).toMatchObject({ scoringType: 'criteria', groupCount: 2, manualUrl: null });
    expect(w.code(await w.call('otherBoss', 'PUT', q(EVENT_API.reviewSettings), SETTINGS))).toBe('1004');
    expect(w.code(await w.call('stuA1', 'GET', q(EVENT_API.reviewSettings)))).toBe('1004');
  });

  it("stores the judges' manual as a PDF checked by its first bytes, and refuses anything else", async () => {
    const pdf = multipartFile('manual.pdf', sampleFile('pdf', 70_000));
    const res = await w.call('boss', 'POST', `${q(EVENT_API.uploadReviewFile)}&kind=manual`, pdf.payload, {
      'content-type': pdf.type,
    });
    const file = res.json().data;
    expect(file.key).toMatch(new RegExp(`^events/review-files/${event.id}/.+\\.pdf$`));
    expect((await w.t.storage.get(file.key)).size).toBe(70_000);
    const fake = multipartFile('manual.pdf', Buffer.from('<html>not a pdf</html>'));
    const refused = await w.call('boss', 'POST', `${q(EVENT_API.uploadReviewFile)}&kind=sheet`, fake.payload, {
      'content-type': fake.type,
    });
    expect(w.code(refused)).toBe('1001');
    const withManual = await w.call('boss', 'PUT', q(EVENT_API.reviewSettings), { ...SETTINGS, manualKey: file.key });
    expect(withManual.json().data.manualUrl).toBeTruthy();
  });

  it('names judges of the customer by username with their school, once each', async () => {
    expect(w.code(await addJudge('teachA1', 1))).toBe('1000');
    expect(w.code(await addJudge('teachB1', 2))).toBe('1000');
    const added = (await addJudge('teachB2', 2)).json().data;
    expect(added).toMatchObject({
      username: 'teachB2',
      realName: 'Real teachB2',
      schoolName: 'South School',
      group: 2,
    });
    const list = (await w.call('boss', 'GET', q(EVENT_API.judges))).json().data;
    expect(
      list.map((j: { username: string; schoolName: string; group: number }) => [j.username, j.schoolName, j.group]),
    ).toEqual([
      ['teachA1', 'North School', 1],
      ['teachB1', 'South School', 2],
      ['teachB2', 'South School', 2],
    ]);
    expect(w.code(await addJudge('teachB1', 1))).toBe('4510');
    expect(w.code(await addJudge('otherBoss', 1))).toBe('1004');
    expect(w.code(await addJudge('nobody', 1))).toBe('1004');
  });

  it('gives the works evenly to groups without a judge of their school, or nothing at all (4511)', async () => {
    // A judge of the North School in both groups: the North works fit nowhere.
    const extra = (await addJudge('teachA2', 2)).json().data.id;
    const refused = await w.call('boss', 'POST', q(EVENT_API.assign));
    expect(w.code(refused)).toBe('4511');
    for (const name of ['wA1', 'wA2', 'wB1', 'wB2']) expect((await stateOf(name)).state).toBe('PENDING_REVIEW');
    expect(w.code(await w.call('boss', 'DELETE', `${EVENT_API.judges}?judgeId=${extra}`))).toBe('1000');

    const progress = (await w.call('boss', 'POST', q(EVENT_API.assign))).json().data;
    expect(progress.unassigned).toBe(0);
    expect(progress.groups.map((g: { works: number }) => g.works)).toEqual([2, 2]);
    expect((await stateOf('wA1')).judgeGroup).toBe(2);
    expect((await stateOf('wA2')).judgeGroup).toBe(2);
    expect((await stateOf('wB1')).judgeGroup).toBe(1);
    expect((await stateOf('wB1')).state).toBe('IN_REVIEW');
    const [log] = await w.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'event'), eq(operationLogs.operation, 'assign')));
    expect(log).toBeTruthy();
  });

  it("shows a judge only their group's works, without the team, school or applicants", async () => {
    const res = await w.call('teachB1', 'GET', q(EVENT_API.judging));
    const items = res.json().data;
    expect(items.map((i: { work: { name: string } }) => i.work.name).sort()).toEqual(['wA1', 'wA2']);
    const text = res.body;
    for (const secret of ['Team stuA1', 'North School', 'ID-stuA1', '13800000000', 'Real stuA1', works.teamA1!]) {
      expect(text).not.toContain(secret);
    }
    expect(items[0].work.teamName).toBeUndefined();
    expect(w.code(await w.call('stuB1', 'GET', q(EVENT_API.judging)))).toBe('4507');
    expect(w.code(await score('teachA1', works.wA1!, 80, 80))).toBe('4507');
    expect(w.code(await score('stuB1', works.wA1!, 80, 80))).toBe('4507');
    const detail = await w.call('teachB1', 'GET', `${EVENT_API.workDetail}?workId=${works.wA1}`);
    expect(detail.json().data.teamName).toBe('');
    expect(w.code(await w.call('teachB1', 'GET', `${EVENT_API.workDetail}?workId=${works.wB1}`))).toBe('1004');
  });

  it('needs every criterion, weighs the total, and keeps a submitted score final until reopened', async () => {
    // Judges score during the review phase, by the server's clock.
    w.clock.set(event.reviewStart.getTime() - 1);
    expect(w.code(await score('teachB1', works.wA1!, 90, 60))).toBe('4501');
    w.clock.set(event.reviewStart);
    const partial = await w.call('teachB1', 'PUT', EVENT_API.score, {
      workId: works.wA1,
      scores: [{ criterionId: 'idea', score: 90 }],
    });
    expect(w.code(partial)).toBe('1001');
    const draft = (await score('teachB1', works.wA1!, 90, 60)).json().data;
    expect(draft).toMatchObject({ state: 'draft', total: 80 });
    const submitted = (await score('teachB1', works.wA1!, 90, 90, true)).json().data;
    expect(submitted).toMatchObject({ state: 'submitted', total: 90 });
    expect(w.code(await score('teachB1', works.wA1!, 10, 10))).toBe('4506');
    expect(w.code(await score('teachB1', works.wA1!, 10, 10, true))).toBe('4506');
    expect((await stateOf('wA1')).state).toBe('IN_REVIEW');

    const reopen = (who: string) =>
      w.call(who, 'PUT', `${EVENT_API.reopenScore}?scoreId=${submitted.id}`, { reason: 'Typo in craft' });
    expect(w.code(await reopen('otherBoss'))).toBe('1004');
    w.clock.set(event.reviewEnd);
    expect(w.code(await score('teachB1', works.wA1!, 10, 10))).toBe('4501');
    expect(w.code(await reopen('boss'))).toBe('1000');
    expect(w.code(await reopen('boss'))).toBe('4503');
    const [log] = await w.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'event'), eq(operationLogs.operation, 'reopen')));
    expect(JSON.stringify(log?.params)).toContain('Typo in craft');
    const mine = (await w.call('teachB1', 'GET', q(EVENT_API.judging))).json().data;
    expect(mine.find((i: { work: { id: string } }) => i.work.id === works.wA1).score).toMatchObject({
      state: 'reopened',
      reopenReason: 'Typo in craft',
    });
    // After the review phase only a reopened score may still change.
    expect(w.code(await score('teachB1', works.wA1!, 90, 90, true))).toBe('1000');
    expect(w.code(await score('teachB2', works.wA1!, 90, 90, true))).toBe('4501');
    w.clock.set(event.reviewStart);
  });

  it('audits a work once every judge of its group has submitted, and publishes only then', async () => {
    expect(w.code(await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id }))).toBe('4512');
    await score('teachB2', works.wA1!, 90, 90, true);
    expect((await stateOf('wA1')).state).toBe('AUDITED');
    // Both judges of a group submitting at the same moment still audit the work.
    const both = await Promise.all([
      score('teachB1', works.wA2!, 60, 60, true),
      score('teachB2', works.wA2!, 60, 60, true),
    ]);
    expect(both.map((res) => w.code(res))).toEqual(['1000', '1000']);
    expect((await stateOf('wA2')).state).toBe('AUDITED');
    await score('teachA1', works.wB1!, 90, 90, true);
    await score('teachA1', works.wB2!, 70, 70, true);
    const progress = (await w.call('boss', 'GET', q(EVENT_API.progress))).json().data;
    expect(progress.groups.map((g: { done: number }) => g.done)).toEqual([2, 2]);
    expect(progress.groups[1].judges.map((j: { submitted: number }) => j.submitted)).toEqual([2, 2]);
    for (const name of ['wA1', 'wA2', 'wB1', 'wB2']) expect((await stateOf(name)).state).toBe('AUDITED');
  });

  it('publishes once, ranking with shared ranks and giving the awards in order', async () => {
    expect(w.code(await w.call(null, 'GET', q(EVENT_API.results)))).toBe('1004');
    expect(w.code(await w.call('stuA1', 'GET', q(EVENT_API.results)))).toBe('1004');
    await w.db.update(events).set({ tieRule: 'shared' }).where(eq(events.id, event.id));
    const published = await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id });
    const rows = published
      .json()
      .data.rows.map((r: { workName: string; rank: number; score: number; award: string }) => [
        r.workName,
        r.rank,
        r.score,
        r.award,
      ]);
    expect(rows).toEqual([
      ['wA1', 1, 90, 'Gold'],
      ['wB1', 1, 90, 'Gold'],
      ['wB2', 3, 70, 'Silver'],
      ['wA2', 4, 60, null],
    ]);
    expect(w.code(await w.call('boss', 'POST', EVENT_API.results, { eventId: event.id }))).toBe('4509');
    const open = (await w.call(null, 'GET', q(EVENT_API.results))).json().data;
    expect(open.tieRule).toBe('shared');
    expect(open.rows).toHaveLength(4);
    // Placed works are public once published; the judges' scores can no longer be reopened.
    expect(w.code(await w.call(null, 'GET', `${EVENT_API.workDetail}?workId=${works.wB2}`))).toBe('1000');
    expect(w.code(await score('teachA1', works.wB2!, 10, 10))).toBe('4509');
  });

  it('issues numbered, verifiable certificates to the winners, one issuance per award', async () => {
    const [template] = await w.db
      .insert(certificates)
      .values({
        customerId: w.customer.id,
        name: 'Cup Award',
        type: 'activity',
        creatorId: w.ids.boss!,
        layout: 'portrait',
        design: DESIGN,
        numberPrefix: 'YM',
        numberDigits: 4,
      })
      .returning();
    const res = await w.call('boss', 'POST', EVENT_API.certificates, {
      eventId: event.id,
      certId: template!.id,
      includeMentors: true,
    });
    const data = res.json().data;
    expect(data.holders).toBe(4);
    expect(data.issuances.map((i: { award: string; holders: number }) => [i.award, i.holders])).toEqual([
      ['Gold', 3],
      ['Silver', 1],
    ]);
    const linked = await w.db
      .select()
      .from(eventCertificateIssuances)
      .where(eq(eventCertificateIssuances.eventId, event.id));
    expect(linked).toHaveLength(2);
    const held = await w.db
      .select()
      .from(userCertificates)
      .where(
        inArray(
          userCertificates.issuanceId,
          linked.map((l) => l.issuanceId),
        ),
      );
    expect(held.map((h) => h.userId).sort()).toEqual([w.ids.stuA1, w.ids.teachA2, w.ids.stuB1, w.ids.stuB2].sort());
    expect(new Set(held.map((h) => h.number)).size).toBe(4);
    for (const h of held) expect(h.number).toMatch(/^YM\d{8}\d{4}$/);
    const gold = held.find((h) => h.userId === w.ids.stuA1)!;
    // Applicants only, for one award.
    const silver = await w.call('boss', 'POST', EVENT_API.certificates, {
      eventId: event.id,
      certId: template!.id,
      awards: ['Silver'],
    });
    expect(silver.json().data).toMatchObject({ holders: 1, issuances: [{ award: 'Silver', holders: 1 }] });
    const unknown = { eventId: event.id, certId: template!.id, awards: ['Platinum'] };
    expect(w.code(await w.call('boss', 'POST', EVENT_API.certificates, unknown))).toBe('1001');
    const verified = (await w.call(null, 'GET', `${CERT_API.verify}?number=${gold.number}`)).json();
    expect(verified.data).toMatchObject({
      state: 'valid',
      awardFor: 'Young Makers Cup — Gold',
      holderName: 'Real stuA1',
    });
    expect(
      w.code(await w.call('otherBoss', 'POST', EVENT_API.certificates, { eventId: event.id, certId: template!.id })),
    ).toBe('1004');
  });

  it("refuses another customer's organiser on every call naming this event's objects, changing nothing", async () => {
    const [judge] = (await w.call('boss', 'GET', q(EVENT_API.judges))).json().data;
    const [anyScore] = (await w.call('teachB1', 'GET', q(EVENT_API.judging))).json().data;
    const before = await w.db.select().from(eventWorks).where(eq(eventWorks.eventId, event.id));
    const calls: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['workAdmin', 'GET', q(EVENT_API.workAdmin)],
      ['workAudit', 'POST', EVENT_API.workAudit, { workId: works.wA1, decision: 'refuse', reason: 'x' }],
      ['settings', 'GET', q(EVENT_API.reviewSettings)],
      ['settings', 'PUT', q(EVENT_API.reviewSettings), SETTINGS],
      ['judges', 'GET', q(EVENT_API.judges)],
      ['judges', 'POST', EVENT_API.judges, { eventId: event.id, username: 'otherBoss', group: 1 }],
      ['judges', 'DELETE', `${EVENT_API.judges}?judgeId=${judge.id}`],
      ['assign', 'POST', q(EVENT_API.assign)],
      ['progress', 'GET', q(EVENT_API.progress)],
      ['reopen', 'PUT', `${EVENT_API.reopenScore}?scoreId=${anyScore.score.id}`, { reason: 'x' }],
      ['results', 'POST', EVENT_API.results, { eventId: event.id }],
      ['judging', 'GET', q(EVENT_API.judging)],
      ['score', 'PUT', EVENT_API.score, { workId: works.wA1, overall: 1 }],
    ];
    for (const [name, method, url, body] of calls) {
      const answer = w.code(await w.call('otherBoss', method, url, body));
      expect({ name, method, refused: ['1004', '4507'].includes(answer) }).toEqual({ name, method, refused: true });
    }
    const after = await w.db.select().from(eventWorks).where(eq(eventWorks.eventId, event.id));
    expect(after).toEqual(before);
    expect((await w.call('boss', 'GET', q(EVENT_API.judges))).json().data).toHaveLength(3);
  });
});
