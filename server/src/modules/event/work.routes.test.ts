import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canMoveWork, EVENT_API, WORK_STATES, type WorkState } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventWorks, operationLogs } from '../../platform/db/schema/index.js';
import { b64, createProjectAs } from '../../test/factories.js';
import { sampleFile } from '../../test/media-samples.js';
import { multipartFile } from '../../test/multipart.js';
import { SUBMISSION_OPEN, buildEventWorld, type EventWorld } from './event-test-world.js';

describe('event works', () => {
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
  let teamA: Awaited<ReturnType<typeof team>>;
  const draft = (who = 'stuA1', extra: object = {}) =>
    w.call(who, 'POST', EVENT_API.works, { eventId: event.id, name: 'Smart bin', ...extra });
  const put = (who: string, url: string, workId: string) => w.call(who, 'PUT', `${url}?workId=${workId}`);

  beforeAll(async () => {
    w = await buildEventWorld();
    event = await w.createEvent({ phases: SUBMISSION_OPEN });
    teamA = await team('stuA1', w.schoolA.id, 'passed', ['stuA2']);
    await team('stuB1', w.schoolB.id, 'pendingReview');
  });
  afterAll(() => w.t.close());

  it('lets only a passed team create works (4514 otherwise), as drafts of its track', async () => {
    expect(w.code(await draft('stuB1'))).toBe('4514');
    expect(w.code(await draft('stuA3'))).toBe('4514');
    expect(w.code(await draft('boss'))).toBe('1006');
    const created = await draft('stuA2', { tags: ['recycling'], link: 'https://example.org/bin' });
    expect(w.code(created)).toBe('1000');
    const work = created.json().data;
    expect(work).toMatchObject({ state: 'DRAFT', trackId: 'ai', teamName: 'Team stuA1', schoolName: 'North School' });
    const listed = (await w.call('stuA1', 'GET', `${EVENT_API.works}?eventId=${event.id}`)).json().data;
    expect(listed.map((x: { id: string }) => x.id)).toContain(work.id);
    expect((await w.call('stuB1', 'GET', `${EVENT_API.works}?eventId=${event.id}`)).json().data).toEqual([]);
    const [log] = await w.db.select().from(operationLogs).where(eq(operationLogs.module, 'event'));
    expect(log?.operation).toBe('create');
  });

  it('shows a work to its team and organisers, and to nobody else before results', async () => {
    const work = (await draft()).json().data;
    const detail = `${EVENT_API.workDetail}?workId=${work.id}`;
    expect((await w.call('stuA2', 'GET', detail)).json().data.name).toBe('Smart bin');
    expect((await w.call('boss', 'GET', detail)).json().data.teamName).toBe('Team stuA1');
    expect(w.code(await w.call('stuB1', 'GET', detail))).toBe('1004');
    expect(w.code(await w.call('otherBoss', 'GET', detail))).toBe('1004');
    expect(w.code(await w.call(null, 'GET', detail))).toBe('1004');
  });

  it('updates drafts only, and keeps every media key the server did not make out', async () => {
    const work = (await draft()).json().data;
    const update = (extra: object) =>
      w.call('stuA1', 'PUT', EVENT_API.works, { id: work.id, name: 'Smarter bin', ...extra });
    expect((await update({})).json().data.name).toBe('Smarter bin');
    expect(w.code(await update({ coverKey: 'certificates/someone-else.png' }))).toBe('1001');
    expect(w.code(await update({ videoKey: 'events/work-videos/x.mp4' }))).toBe('1001');
    expect(w.code(await w.call('stuB1', 'PUT', EVENT_API.works, { id: work.id, name: 'Mine now' }))).toBe('1004');
    await put('stuA1', EVENT_API.workSubmit, work.id);
    expect(w.code(await update({}))).toBe('4503');
  });

  it('allows exactly the moves of WORK_TRANSITIONS, for every state and every action', async () => {
    const actions: { to: WorkState; run: (id: string) => Promise<{ json(): { errorCode: string } }> }[] = [
      { to: 'SUBMITTED', run: (id) => put('stuA1', EVENT_API.workSubmit, id) },
      { to: 'DRAFT', run: (id) => put('stuA1', EVENT_API.workRecall, id) },
      { to: 'CLOSED', run: (id) => put('stuA1', EVENT_API.workWithdraw, id) },
      {
        to: 'PENDING_REVIEW',
        run: (id) => w.call('boss', 'POST', EVENT_API.workAudit, { workId: id, decision: 'accept' }),
      },
      {
        to: 'FAIL',
        run: (id) =>
          w.call('boss', 'POST', EVENT_API.workAudit, { workId: id, decision: 'refuse', reason: 'off topic' }),
      },
    ];
    for (const from of WORK_STATES) {
      for (const action of actions) {
        const [row] = await w.db
          .insert(eventWorks)
          .values({
            eventId: event.id,
            registrationId: teamA.id,
            trackId: 'ai',
            name: `${from} to ${action.to}`,
            state: from,
            createdBy: w.ids.stuA1!,
          })
          .returning();
        // Accepting is the organisers' move out of SUBMITTED only; IN_REVIEW → PENDING_REVIEW belongs to the review.
        const legal = canMoveWork(from, action.to) && (action.to !== 'PENDING_REVIEW' || from === 'SUBMITTED');
        const answer = (await action.run(row!.id)).json().errorCode;
        const [after] = await w.db.select().from(eventWorks).where(eq(eventWorks.id, row!.id));
        expect({ from, to: action.to, answer, state: after!.state }).toEqual({
          from,
          to: action.to,
          answer: legal ? '1000' : '4503',
          state: legal ? action.to : from,
        });
      }
    }
  });

  it('keeps the refusal reason and the submission time', async () => {
    const work = (await draft()).json().data;
    const submitted = (await put('stuA1', EVENT_API.workSubmit, work.id)).json().data;
    expect(submitted.submittedAt).toBe(w.clock.now().toISOString());
    const refused = await w.call('boss', 'POST', EVENT_API.workAudit, {
      workId: work.id,
      decision: 'refuse',
      reason: 'Missing video',
    });
    expect(refused.json().data).toMatchObject({ state: 'FAIL', failReason: 'Missing video' });
    expect(
      w.code(await w.call('otherBoss', 'POST', EVENT_API.workAudit, { workId: work.id, decision: 'accept' })),
    ).toBe('1004');
  });

  it('refuses every change at the submission deadline by the server clock, and allows it 1 ms before', async () => {
    const work = (await draft()).json().data;
    const other = (await draft()).json().data;
    await put('stuA1', EVENT_API.workSubmit, other.id);
    w.clock.set(event.submissionEnd.getTime() - 1);
    expect(w.code(await w.call('stuA1', 'PUT', EVENT_API.works, { id: work.id, name: 'Last minute' }))).toBe('1000');
    w.clock.set(event.submissionEnd);
    expect(w.code(await w.call('stuA1', 'PUT', EVENT_API.works, { id: work.id, name: 'Too late' }))).toBe('4501');
    expect(w.code(await draft())).toBe('4501');
    expect(w.code(await put('stuA1', EVENT_API.workSubmit, work.id))).toBe('4501');
    expect(w.code(await put('stuA1', EVENT_API.workRecall, other.id))).toBe('4501');
    expect(w.code(await put('stuA1', EVENT_API.workWithdraw, other.id))).toBe('4501');
    const [row] = await w.db.select().from(eventWorks).where(eq(eventWorks.id, work.id));
    expect(row).toMatchObject({ name: 'Last minute', state: 'DRAFT' });
    // Organisers still decide on submitted works after the deadline.
    const accepted = await w.call('boss', 'POST', EVENT_API.workAudit, { workId: other.id, decision: 'accept' });
    expect(accepted.json().data.state).toBe('PENDING_REVIEW');
    w.clock.set(w.start);
  });

  it("freezes the attached project's snapshot at submission", async () => {
    const projectId = await createProjectAs(w.t.app, w.tokens.stuA2!, 'Bin model');
    const workspace = path.join(w.t.dataDir, 'runtime', projectId, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, 'model.py'), 'print("v1")');
    const strangers = await createProjectAs(w.t.app, w.tokens.stuB2!, 'Not theirs');
    expect(w.code(await draft('stuA1', { projectId: strangers }))).toBe('1001');
    const work = (await draft('stuA1', { projectId })).json().data;
    const submitted = (await put('stuA1', EVENT_API.workSubmit, work.id)).json().data;
    expect(submitted).toMatchObject({
      state: 'SUBMITTED',
      projectId,
      projectName: 'Bin model',
      projectVersion: '1.0.0',
    });
    writeFileSync(path.join(workspace, 'model.py'), 'print("v2")');
    const [row] = await w.db.select().from(eventWorks).where(eq(eventWorks.id, work.id));
    const frozen = path.join(w.t.dataDir, 'project-versions', projectId, row!.projectVersionId!, 'model.py');
    expect(readFileSync(frozen, 'utf8')).toBe('print("v1")');
    // A recall and a new submission freeze a newer snapshot; the first stays as it was.
    await put('stuA1', EVENT_API.workRecall, work.id);
    expect((await put('stuA1', EVENT_API.workSubmit, work.id)).json().data.projectVersion).toBe('1.0.1');
    expect(readFileSync(frozen, 'utf8')).toBe('print("v1")');
  });

  it('stores a JPG or PNG cover re-encoded, and refuses anything else', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const form = multipartFile('cover.png', png);
    const res = await w.call('stuA1', 'POST', EVENT_API.uploadWorkCover, form.payload, { 'content-type': form.type });
    const cover = res.json().data;
    expect(cover.key).toMatch(/^events\/work-covers\/[0-9a-f-]{36}\.png$/);
    const work = (await draft('stuA1', { coverKey: cover.key })).json().data;
    expect(work.coverKey).toBe(cover.key);
    expect(work.coverUrl).toBeTruthy();
    const bad = multipartFile('cover.png', Buffer.from('not an image at all'));
    const refused = await w.call('stuA1', 'POST', EVENT_API.uploadWorkCover, bad.payload, { 'content-type': bad.type });
    expect(w.code(refused)).toBe('1001');
  });

  it('takes an MP4 through the resumable upload and plays it back with byte ranges', async () => {
    const work = (await draft()).json().data;
    const mp4 = sampleFile('mp4', 64 * 1024 + 5);
    const tus = { 'tus-resumable': '1.0.0' };
    const refusedType = await w.call('stuA1', 'POST', EVENT_API.workVideoUploads, undefined, {
      ...tus,
      'upload-length': String(600 * 1024 * 1024),
      'upload-metadata': `workId ${b64(work.id)}`,
    });
    expect(refusedType.statusCode).toBe(413);
    const notTeam = await w.call('stuB2', 'POST', EVENT_API.workVideoUploads, undefined, {
      ...tus,
      'upload-length': String(mp4.length),
      'upload-metadata': `workId ${b64(work.id)}`,
    });
    expect(w.code(notTeam)).toBe('1004');
    const created = await w.call('stuA1', 'POST', EVENT_API.workVideoUploads, undefined, {
      ...tus,
      'upload-length': String(mp4.length),
      'upload-metadata': `workId ${b64(work.id)},filename ${b64('demo.mp4')}`,
    });
    expect(created.statusCode).toBe(201);
    const location = new URL(created.headers.location as string, 'http://localhost').pathname;
    const done = await w.call('stuA1', 'PATCH' as 'PUT', location, mp4, {
      ...tus,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(done.statusCode).toBe(204);
    expect(done.headers['x-video-key']).toMatch(/^events\/work-videos\//);
    const detail = (await w.call('stuA1', 'GET', `${EVENT_API.workDetail}?workId=${work.id}`)).json().data;
    expect(detail.hasVideo).toBe(true);
    // The signed link plays in a browser's video element, seeking by byte ranges.
    const link = new URL(detail.videoUrl, 'http://localhost');
    const seek = await w.call(null, 'GET', `${link.pathname}${link.search}`, undefined, { range: 'bytes=0-9' });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-type']).toBe('video/mp4');
    expect(seek.rawPayload.equals(mp4.subarray(0, 10))).toBe(true);

    const video = `${EVENT_API.workVideo}?workId=${work.id}`;
    const part = await w.call('stuA2', 'GET', video, undefined, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${mp4.length}`);
    expect(part.rawPayload.equals(mp4.subarray(100, 200))).toBe(true);
    const whole = await w.call('boss', 'GET', video);
    expect(whole.rawPayload.equals(mp4)).toBe(true);
    expect((await w.call('stuA1', 'GET', video, undefined, { range: `bytes=${mp4.length + 10}-` })).statusCode).toBe(
      416,
    );
    expect(w.code(await w.call('stuB1', 'GET', video))).toBe('1004');
  });

  it('refuses a video upload that is not an MP4, leaving the work without one', async () => {
    const work = (await draft()).json().data;
    const pdf = sampleFile('pdf', 2048);
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await w.call('stuA1', 'POST', EVENT_API.workVideoUploads, undefined, {
      ...tus,
      'upload-length': String(pdf.length),
      'upload-metadata': `workId ${b64(work.id)}`,
    });
    const location = new URL(created.headers.location as string, 'http://localhost').pathname;
    const done = await w.call('stuA1', 'PATCH' as 'PUT', location, pdf, {
      ...tus,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(done.statusCode).toBe(400);
    const [row] = await w.db.select().from(eventWorks).where(eq(eventWorks.id, work.id));
    expect(row!.videoKey).toBeNull();
  });

  it('lists every work of the event to its organisers, by state and track', async () => {
    const page = (await w.call('boss', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}&state=FAIL`)).json().data;
    expect(page.total).toBeGreaterThan(0);
    expect(page.list.every((x: { state: string }) => x.state === 'FAIL')).toBe(true);
    const found = (await w.call('boss', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}&keyword=smarter`)).json();
    expect(found.data.list.map((x: { name: string }) => x.name)).toEqual(['Smarter bin']);
    const byTeam = (
      await w.call('boss', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}&keyword=stuA1&size=2`)
    ).json();
    expect(byTeam.data.list).toHaveLength(2);
    expect(byTeam.data.total).toBeGreaterThan(2);
    const none = (await w.call('boss', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}&trackId=other`)).json();
    expect(none.data.total).toBe(0);
    expect(w.code(await w.call('otherBoss', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}`))).toBe('1004');
    expect(w.code(await w.call('stuA1', 'GET', `${EVENT_API.workAdmin}?eventId=${event.id}`))).toBe('1006');
  });
});
