import { EVENT_API, type TRegistration } from '@aiedu/contracts';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventJudges, operationLogs } from '../../platform/db/schema/index.js';
import { buildEventWorld, DAY, type EventWorld } from './event-test-world.js';

const q = (url: string, params: Record<string, string>) => `${url}?${new URLSearchParams(params)}`;

function multipart(bytes: Buffer) {
  const boundary = '----regtest';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('event registration and qualification', () => {
  let w: EventWorld;
  beforeAll(async () => {
    w = await buildEventWorld();
  });
  afterAll(async () => w.t.close());

  const save = (who: string, body: object) => w.call(who, 'POST', EVENT_API.registration, body);

  it('creates a team, updates it while in progress, sends it, and refuses after registration closes (4501)', async () => {
    const event = await w.createEvent({ name: 'Flow Cup' });
    const created = await save('stuA1', w.registrationBody(event.id, 'stuA1', { applicants: ['stuA2'] }));
    expect(w.code(created)).toBe('1000');
    const team = w.data<TRegistration>(created);
    expect(team).toMatchObject({ state: 'inProgress', leaderId: w.ids.stuA1, schoolName: 'North School' });
    expect(team.members.map((m) => m.role)).toEqual(['applicant', 'applicant', 'mentor']);
    const renamed = await save('stuA2', {
      ...w.registrationBody(event.id, 'stuA1', { applicants: ['stuA2'] }),
      teamName: 'Owls',
    });
    expect(w.data<TRegistration>(renamed)).toMatchObject({ id: team.id, teamName: 'Owls' });
    const mine = w.data<TRegistration>(
      await w.call('teachA1', 'GET', q(EVENT_API.registration, { eventId: event.id })),
    );
    expect(mine.members[0]!.phone).toBe('13800000000');
    expect(w.data(await w.call('stuA3', 'GET', q(EVENT_API.registration, { eventId: event.id })))).toBeNull();

    expect(w.code(await w.call('stuA3', 'PUT', q(EVENT_API.registrationSubmit, { registrationId: team.id })))).toBe(
      '1004',
    );
    const sent = await w.call('stuA1', 'PUT', q(EVENT_API.registrationSubmit, { registrationId: team.id }));
    expect(w.data<TRegistration>(sent).state).toBe('pendingReview');
    expect(w.code(await save('stuA1', w.registrationBody(event.id, 'stuA1')))).toBe('4503');

    const unsent = await save('stuA3', w.registrationBody(event.id, 'stuA3', { mentors: ['teachA2'] }));
    expect(w.code(unsent)).toBe('1000');
    const late = await w.createEvent({ name: 'Late Cup' });
    w.clock.advance(6 * DAY);
    const closed = await save('stuB1', w.registrationBody(late.id, 'stuB1', { mentors: ['teachB1'] }));
    expect(w.code(closed)).toBe('4501');
    // One sent in time still waits for the audit after the close; one never sent ended then.
    const after = w.data<TRegistration>(await w.call('stuA1', 'GET', q(EVENT_API.registration, { eventId: event.id })));
    expect(after.state).toBe('pendingReview');
    const never = w.data<TRegistration>(await w.call('stuA3', 'GET', q(EVENT_API.registration, { eventId: event.id })));
    expect(never.state).toBe('ended');
    // The organisers audit after the close.
    const passed = await w.call('boss', 'POST', EVENT_API.qualificationDecide, {
      registrationId: team.id,
      decision: 'pass',
    });
    expect(w.data<TRegistration>(passed).state).toBe('passed');
    w.clock.set(w.start);
  });

  it('refuses who may not take part (4502) and teams out of the event’s limits (4504)', async () => {
    const event = await w.createEvent({ name: 'Limits Cup', teamMax: 2, mentorMin: 2, mentorMax: 2 });
    const juniors = await w.createEvent({ name: 'Juniors Cup', eligibility: { stages: ['junior'] } });
    const platform = await w.createEvent({
      name: 'Open Cup',
      owner: 'platform',
      eligibility: { customerIds: [w.other.id] },
    });
    expect(w.code(await save('stuA1', w.registrationBody(juniors.id, 'stuA1')))).toBe('4502');
    expect(w.code(await save('stuB1', w.registrationBody(juniors.id, 'stuB1', { mentors: ['teachB1'] })))).toBe('1000');
    expect(w.code(await save('stuA1', w.registrationBody(platform.id, 'stuA1')))).toBe('4502');
    const fifth = await w.createEvent({ name: 'Fifth Grade Cup', eligibility: { grades: [5] } });
    expect(w.code(await save('stuB2', w.registrationBody(fifth.id, 'stuB2', { mentors: ['teachB2'] })))).toBe('4502');
    expect(w.code(await save('stuA3', w.registrationBody(fifth.id, 'stuA3', { mentors: ['teachA2'] })))).toBe('1000');
    const far = w.registrationBody(platform.id, 'otherStu', { mentors: ['otherTeach'] });
    expect(w.code(await save('otherStu', far))).toBe('1000');
    expect(w.code(await save('boss', w.registrationBody(event.id, 'boss')))).toBe('1006');

    const fewMentors = w.registrationBody(event.id, 'stuA1', { mentors: ['teachA1'] });
    expect(w.code(await save('stuA1', fewMentors))).toBe('4504');
    const tooMany = w.registrationBody(event.id, 'stuA1', {
      applicants: ['stuA2', 'stuA3'],
      mentors: ['teachA1', 'teachA2'],
    });
    expect(w.code(await save('stuA1', tooMany))).toBe('4504');
    const notMe = w.registrationBody(event.id, 'stuA2', { mentors: ['teachA1', 'teachA2'] });
    expect(w.code(await save('stuA1', notMe))).toBe('4504');
    const noTrack = { ...w.registrationBody(event.id, 'stuA1', { mentors: ['teachA1', 'teachA2'] }), trackId: 'none' };
    expect(w.code(await save('stuA1', noTrack))).toBe('1001');
    const right = w.registrationBody(event.id, 'stuA1', { applicants: ['stuA2'], mentors: ['teachA1', 'Ms Outside'] });
    expect(w.code(await save('stuA1', right))).toBe('1000');
  });

  it('keeps an account in one team per event and within the caller’s customer (4505)', async () => {
    const event = await w.createEvent({ name: 'Once Cup' });
    expect(w.code(await save('stuA1', w.registrationBody(event.id, 'stuA1', { applicants: ['stuA2'] })))).toBe('1000');
    const again = w.registrationBody(event.id, 'stuA3', { applicants: ['stuA2'], mentors: ['teachA2'] });
    expect(w.code(await save('stuA3', again))).toBe('4505');
    const leader = w.registrationBody(event.id, 'stuA3', { applicants: ['stuA1'], mentors: ['teachA2'] });
    expect(w.code(await save('stuA3', leader))).toBe('4505');
    const outsider = w.registrationBody(event.id, 'stuA3', { mentors: ['otherTeach'] });
    expect(w.code(await save('stuA3', outsider))).toBe('4505');
    const sameName = { ...w.registrationBody(event.id, 'stuA3', { mentors: ['teachA2'] }), teamName: 'Team stuA1' };
    expect(w.code(await save('stuA3', sameName))).toBe('4505');
    expect(w.code(await save('stuA3', w.registrationBody(event.id, 'stuA3', { mentors: ['teachA2'] })))).toBe('1000');
  });

  it('passes, refuses to correct, refuses for good, and refuses illegal decisions (4503), each logged', async () => {
    const event = await w.createEvent({ name: 'Audit Cup' });
    const pending = async (leader: string, mentor: string) => {
      const reg = await w.insertTeam(event.id, leader, { state: 'pendingReview', mentors: [mentor] });
      return reg.id;
    };
    const [a, b, c] = [
      await pending('stuA1', 'teachA1'),
      await pending('stuA2', 'teachA2'),
      await pending('stuB1', 'teachB1'),
    ];
    const decide = (who: string, decision: object) => w.call(who, 'POST', EVENT_API.qualificationDecide, decision);

    const list = await w.call('boss', 'GET', q(EVENT_API.qualification, { eventId: event.id, state: 'pendingReview' }));
    const page = w.data<{ list: TRegistration[]; total: number }>(list);
    expect(page.total).toBe(3);
    expect(page.list[0]!.members[0]!.documentNumber).toMatch(/^ID-/);
    expect(w.code(await w.call('otherBoss', 'GET', q(EVENT_API.qualification, { eventId: event.id })))).toBe('1004');
    expect(w.code(await decide('otherBoss', { registrationId: a, decision: 'pass' }))).toBe('1004');
    expect(w.code(await decide('stuA1', { registrationId: a, decision: 'pass' }))).toBe('1006');

    expect(w.data<TRegistration>(await decide('boss', { registrationId: a, decision: 'pass' })).state).toBe('passed');
    expect(w.code(await decide('boss', { registrationId: a, decision: 'pass' }))).toBe('4503');
    const refused = w.data<TRegistration>(
      await decide('boss', { registrationId: b, decision: 'refuse', reason: 'Photo missing' }),
    );
    expect(refused).toMatchObject({ state: 'inProgress', refuseReason: 'Photo missing' });
    expect(w.code(await decide('boss', { registrationId: b, decision: 'refuse', reason: 'Again' }))).toBe('4503');
    const fixed = await save('stuA2', w.registrationBody(event.id, 'stuA2', { mentors: ['teachA2'] }));
    expect(w.code(fixed)).toBe('1000');
    const resent = await w.call('stuA2', 'PUT', q(EVENT_API.registrationSubmit, { registrationId: b }));
    expect(w.data<TRegistration>(resent).state).toBe('pendingReview');
    const final = { registrationId: c, decision: 'refuse', reason: 'Not a school team', final: true };
    expect(w.data<TRegistration>(await decide('boss', final))).toMatchObject({
      state: 'ended',
      refuseReason: 'Not a school team',
    });
    expect(w.code(await w.call('stuB1', 'PUT', q(EVENT_API.registrationSubmit, { registrationId: c })))).toBe('4503');

    const logs = await w.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'event'), eq(operationLogs.operation, 'qualify')));
    expect(logs.filter((log) => (log.params as { eventId?: string }).eventId === event.id)).toHaveLength(3);
    const passed = await w.call('boss', 'GET', q(EVENT_API.qualification, { eventId: event.id, state: 'passed' }));
    expect(w.data<{ total: number }>(passed).total).toBe(1);
  });

  it('lets the team withdraw', async () => {
    const event = await w.createEvent({ name: 'Leave Cup' });
    const team = await w.insertTeam(event.id, 'stuA4', { state: 'passed', mentors: ['teachA1'] });
    expect(w.code(await w.call('stuA3', 'PUT', q(EVENT_API.registrationWithdraw, { registrationId: team.id })))).toBe(
      '1004',
    );
    const left = await w.call('teachA1', 'PUT', q(EVENT_API.registrationWithdraw, { registrationId: team.id }));
    expect(w.data<TRegistration>(left).state).toBe('ended');
    expect(w.code(await w.call('stuA4', 'PUT', q(EVENT_API.registrationWithdraw, { registrationId: team.id })))).toBe(
      '4503',
    );
  });

  it('never shows applicants’ personal data to judges or other teams', async () => {
    const event = await w.createEvent({ name: 'Privacy Cup' });
    await w.insertTeam(event.id, 'stuB2', { state: 'passed', mentors: ['teachB2'] });
    await w.db.insert(eventJudges).values({ eventId: event.id, userId: w.ids.teachA2!, groupNo: 1 });
    const judge = await w.call('teachA2', 'GET', q(EVENT_API.registration, { eventId: event.id }));
    expect(w.data(judge)).toBeNull();
    const other = await w.call('stuA1', 'GET', q(EVENT_API.registration, { eventId: event.id }));
    expect(w.data(other)).toBeNull();
    for (const who of ['teachA2', 'stuA1']) {
      const res = await w.call(who, 'GET', q(EVENT_API.qualification, { eventId: event.id }));
      expect(w.code(res)).toBe('1006');
      expect(res.body).not.toContain('13800000000');
      expect(res.body).not.toContain('ID-stuB2');
    }
    const detail = await w.call('teachA2', 'GET', q(EVENT_API.detail, { eventId: event.id }));
    expect(w.data<{ viewer: { judge: boolean } }>(detail).viewer.judge).toBe(true);
    expect(detail.body).not.toContain('13800000000');
    const mine = await w.call('teachA2', 'GET', EVENT_API.mine);
    const contests = w.data<{ event: { name: string }; roles: string[] }[]>(mine);
    expect(contests.find((c) => c.event.name === 'Privacy Cup')?.roles).toEqual(['judge']);
    expect(mine.body).not.toContain('ID-stuB2');
  });

  it('uploads a declaration photo of at most 2 MB', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const upload = multipart(png);
    const res = await w.call('stuA1', 'POST', EVENT_API.uploadPhoto, upload.payload, upload.headers);
    expect(w.data<{ key: string }>(res).key).toMatch(/^events\/photos\/[0-9a-f-]{36}\.png$/);
    const big = multipart(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]));
    expect(w.code(await w.call('stuA1', 'POST', EVENT_API.uploadPhoto, big.payload, big.headers))).not.toBe('1000');
  });
});
