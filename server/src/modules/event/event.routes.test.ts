import { EVENT_API, type TEvent, type TMyContest } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventWorks } from '../../platform/db/schema/index.js';
import { buildEventWorld, DAY, TRACKS, type EventWorld } from './event-test-world.js';

const q = (url: string, params: Record<string, string>) => `${url}?${new URLSearchParams(params)}`;

function multipart(bytes: Buffer, name = 'cover.png', type = 'image/png') {
  const boundary = '----eventtest';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('events', () => {
  let w: EventWorld;
  beforeAll(async () => {
    w = await buildEventWorld();
  });
  afterAll(async () => w.t.close());

  const body = (extra: object = {}) => ({
    name: 'Spring Robotics',
    coverKey: null,
    description: '# Rules',
    tracks: TRACKS,
    phases: w.phaseIsos(),
    teamMin: 1,
    teamMax: 2,
    mentorMin: 1,
    mentorMax: 1,
    ...extra,
  });

  it('state and phase follow the moved clock', async () => {
    const event = await w.createEvent({ name: 'Clocked', phases: { registrationStart: 1 } });
    const read = async () => w.data<TEvent>(await w.call('stuA1', 'GET', q(EVENT_API.detail, { eventId: event.id })));
    expect(await read()).toMatchObject({
      state: 'notStarted',
      phase: 'before',
      serverTime: w.clock.now().toISOString(),
    });
    w.clock.advance(2 * DAY);
    expect(await read()).toMatchObject({ state: 'inProgress', phase: 'registration' });
    w.clock.advance(5 * DAY);
    expect(await read()).toMatchObject({ state: 'inProgress', phase: 'submission' });
    w.clock.advance(6 * DAY);
    expect(await read()).toMatchObject({ state: 'inProgress', phase: 'review' });
    w.clock.advance(10 * DAY);
    const ended = await read();
    expect(ended).toMatchObject({ state: 'ended', phase: 'results', serverTime: w.clock.now().toISOString() });
    w.clock.set(w.start);
  });

  it('shows platform-wide events to all, a customer’s to its users and to visitors naming it', async () => {
    const platform = await w.createEvent({ owner: 'platform', name: 'Everyone Cup' });
    const own = await w.createEvent({ name: 'Sunrise Cup' });
    const far = await w.createEvent({ owner: 'other', name: 'Elsewhere Cup' });
    const names = async (who: string | null, custcode?: string) => {
      const res = await w.call(who, 'GET', q(EVENT_API.events, { size: '100', ...(custcode ? { custcode } : {}) }));
      expect(res.statusCode).toBe(200);
      return w.data<{ list: TEvent[] }>(res).list.map((e) => e.name);
    };
    const anonymous = await names(null);
    expect(anonymous).toContain('Everyone Cup');
    expect(anonymous).not.toContain('Sunrise Cup');
    const named = await names(null, w.customer.code.toUpperCase());
    expect(named).toEqual(expect.arrayContaining(['Everyone Cup', 'Sunrise Cup']));
    expect(named).not.toContain('Elsewhere Cup');
    const student = await names('stuA1');
    expect(student).toEqual(expect.arrayContaining(['Everyone Cup', 'Sunrise Cup']));
    expect(student).not.toContain('Elsewhere Cup');
    expect(await names('otherStu')).toContain('Elsewhere Cup');

    const detail = (who: string | null, eventId: string, custcode?: string) =>
      w.call(who, 'GET', q(EVENT_API.detail, { eventId, ...(custcode ? { custcode } : {}) }));
    expect(w.code(await detail('otherStu', own.id))).toBe('1004');
    expect(w.code(await detail('otherBoss', own.id))).toBe('1004');
    expect(w.code(await detail(null, own.id))).toBe('1004');
    expect(w.code(await detail(null, own.id, w.customer.code))).toBe('1000');
    expect(w.code(await detail(null, far.id, w.customer.code))).toBe('1004');
    const seen = w.data<TEvent>(await detail('stuA1', platform.id));
    expect(seen.viewer).toEqual({ organiser: false, judge: false, registrationId: null, eligible: true });
    expect(w.data<TEvent>(await detail('boss', own.id)).viewer.organiser).toBe(true);
    expect(w.data<TEvent>(await detail('boss', platform.id)).viewer.organiser).toBe(false);
    expect(w.data<TEvent>(await detail('root', platform.id)).viewer.organiser).toBe(true);
    expect(w.data<TEvent>(await detail('otherStu', platform.id)).viewer.eligible).toBe(true);
  });

  it('filters by keyword, state, track and stage, newest registration first', async () => {
    const early = await w.createEvent({ name: 'Filter Early', phases: { registrationStart: -3 } });
    const late = await w.createEvent({
      name: 'Filter Late',
      phases: { registrationStart: 2, registrationEnd: 5 },
      tracks: [TRACKS[0]!],
      eligibility: { stages: ['junior'] },
    });
    const list = async (params: Record<string, string>) =>
      w.data<{ list: TEvent[]; total: number }>(
        await w.call('stuA1', 'GET', q(EVENT_API.events, { keyword: 'Filter', ...params })),
      );
    const all = await list({});
    expect(all.list.map((e) => e.id)).toEqual([late.id, early.id]);
    expect(all.total).toBe(2);
    expect((await list({ state: 'notStarted' })).list.map((e) => e.id)).toEqual([late.id]);
    expect((await list({ state: 'inProgress' })).list.map((e) => e.id)).toEqual([early.id]);
    expect((await list({ state: 'ended' })).total).toBe(0);
    expect((await list({ track: 'Iris classification' })).list.map((e) => e.id)).toEqual([early.id]);
    expect((await list({ stage: 'primary' })).list.map((e) => e.id)).toEqual([early.id]);
    expect((await list({ stage: 'junior' })).list.map((e) => e.id)).toEqual([late.id, early.id]);
    const paged = await list({ size: '1', page: '2' });
    expect(paged).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(paged.list.map((e) => e.id)).toEqual([early.id]);
  });

  it('lets organisers create, update and delete within their scope', async () => {
    expect(w.code(await w.call('stuA1', 'POST', EVENT_API.events, body()))).toBe('1006');
    expect(w.code(await w.call(null, 'POST', EVENT_API.events, body()))).not.toBe('1000');
    expect(w.code(await w.call('boss', 'POST', EVENT_API.events, body({ platformWide: true })))).toBe('1006');
    const badOrder = body({ phases: { ...w.phaseIsos(), registrationEnd: w.clock.days(-5).toISOString() } });
    expect(w.code(await w.call('boss', 'POST', EVENT_API.events, badOrder))).toBe('1001');
    expect(w.code(await w.call('boss', 'POST', EVENT_API.events, body({ teamMin: 3, teamMax: 2 })))).toBe('1001');

    const created = await w.call('boss', 'POST', EVENT_API.events, body());
    expect(w.code(created)).toBe('1000');
    const event = w.data<TEvent>(created);
    expect(event).toMatchObject({ platformWide: false, organiserName: 'Sunrise District', phase: 'registration' });
    const wide = w.data<TEvent>(await w.call('root', 'POST', EVENT_API.events, body({ platformWide: true })));
    expect(wide.platformWide).toBe(true);

    const update = body({ id: event.id, name: 'Spring Robotics 2' });
    expect(w.code(await w.call('otherBoss', 'PUT', EVENT_API.events, update))).toBe('1004');
    expect(
      w.code(await w.call('boss', 'PUT', EVENT_API.events, { ...body({ platformWide: true }), id: wide.id })),
    ).toBe('1004');
    const updated = await w.call('boss', 'PUT', EVENT_API.events, update);
    expect(w.data<TEvent>(updated).name).toBe('Spring Robotics 2');

    expect(w.code(await w.call('otherBoss', 'DELETE', q(EVENT_API.events, { eventId: event.id })))).toBe('1004');
    const team = await w.insertTeam(event.id, 'stuA1', { state: 'inProgress' });
    expect(team.eventId).toBe(event.id);
    expect(w.code(await w.call('boss', 'DELETE', q(EVENT_API.events, { eventId: event.id })))).toBe('4503');
    expect(w.code(await w.call('root', 'DELETE', q(EVENT_API.events, { eventId: wide.id })))).toBe('1000');
    expect(w.code(await w.call('root', 'GET', q(EVENT_API.detail, { eventId: wide.id })))).toBe('1004');
  });

  it('refuses changes once results are published (4509)', async () => {
    const event = await w.createEvent({ resultsPublished: true });
    const update = body({ id: event.id, name: 'Too late' });
    expect(w.code(await w.call('boss', 'PUT', EVENT_API.events, update))).toBe('4509');
  });

  it('uploads an event image, checked by its bytes, and serves it publicly', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const upload = multipart(png);
    const res = await w.call('boss', 'POST', EVENT_API.uploadImage, upload.payload, upload.headers);
    const image = w.data<{ key: string; url: string }>(res);
    expect(image.key).toMatch(/^events\/images\/[0-9a-f-]{36}\.png$/);
    const served = await w.call(null, 'GET', image.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const fake = multipart(Buffer.from('not an image at all'), 'x.png');
    expect(w.code(await w.call('boss', 'POST', EVENT_API.uploadImage, fake.payload, fake.headers))).toBe('1001');
    const student = multipart(png);
    expect(w.code(await w.call('stuA1', 'POST', EVENT_API.uploadImage, student.payload, student.headers))).toBe('1006');
    expect(w.code(await w.call(null, 'GET', q(EVENT_API.file, { key: 'events/photos/x.png' })))).toBe('1004');
    const event = w.data<TEvent>(await w.call('boss', 'POST', EVENT_API.events, body({ coverKey: image.key })));
    expect(event.coverUrl).toBe(image.url);
    expect(w.code(await w.call('boss', 'POST', EVENT_API.events, body({ coverKey: 'elsewhere/x.png' })))).toBe('1001');
  });

  it('lists my contests as team member, judge and organiser, with the place once published', async () => {
    const event = await w.createEvent({ name: 'Mine Cup', resultsPublished: true });
    const team = await w.insertTeam(event.id, 'stuB1', { applicants: ['stuB2'], mentors: ['teachB1'] });
    await w.db.insert(eventWorks).values([
      { eventId: event.id, registrationId: team.id, trackId: 'ai', name: 'A', createdBy: w.ids.stuB1!, rank: 4 },
      {
        eventId: event.id,
        registrationId: team.id,
        trackId: 'ai',
        name: 'B',
        createdBy: w.ids.stuB1!,
        rank: 2,
        award: 'Silver',
      },
    ]);
    const mine = async (who: string) =>
      w.data<TMyContest[]>(await w.call(who, 'GET', EVENT_API.mine)).find((c) => c.event.name === 'Mine Cup');
    expect(await mine('stuB2')).toMatchObject({
      roles: ['team'],
      registrationState: 'passed',
      rank: 2,
      award: 'Silver',
    });
    expect(await mine('teachB1')).toMatchObject({ roles: ['team'], rank: 2 });
    expect(await mine('boss')).toMatchObject({ roles: ['organiser'], registrationState: null, rank: null });
    expect(await mine('stuA4')).toBeUndefined();
    expect(await mine('otherBoss')).toBeUndefined();
    expect(w.code(await w.call(null, 'GET', EVENT_API.mine))).not.toBe('1000');
  });
});
