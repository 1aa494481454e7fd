import { CERT_API } from '@aiedu/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateIssuances,
  certificates,
  courseEnrolments,
  scheduleClasses,
  scheduleStudents,
  scheduleTeachers,
  teachingSchedules,
  userCertificates,
} from '../../platform/db/schema/index.js';
import { buildCourse } from '../../test/course-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildCertWorld } from './cert-test-world.js';

type World = Awaited<ReturnType<typeof buildCertWorld>>;

describe('certificate issuance and review', () => {
  let t: TestApp;
  let w: World;
  const DATE = '2026-11-22';
  const issue = (who: string, userIds: string[], extra: object = {}) =>
    w.call(who, 'POST', CERT_API.certIss, {
      certId: w.template.id,
      awardFor: 'Python basics',
      issueDate: DATE,
      source: 'class',
      sourceId: w.klass.id,
      userIds,
      ...extra,
    });
  const setReview = (on: boolean) => w.call('boss', 'PUT', CERT_API.auditorSettings, { reviewRequired: on });

  beforeAll(async () => {
    t = await createTestApp();
    w = await buildCertWorld(t);
  });
  afterAll(() => t.close());

  it('issues at once to the teacher’s students, numbered by the rule, with the design frozen', async () => {
    const res = await issue('teach', w.studentIds);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.state).toBe('issued');
    expect(data.holders.map((h: { number: string }) => h.number).sort()).toEqual([
      'PY202611220001',
      'PY202611220002',
      'PY202611220003',
    ]);
    expect(data.holders.find((h: { userId: string }) => h.userId === w.studentIds[0]).holderName).toBe('王小明');
    const [row] = await t.database.db
      .select()
      .from(userCertificates)
      .where(eq(userCertificates.number, 'PY202611220001'));
    expect(row!.design?.title).toBe('Certificate of Merit');
    expect(row!.issuedAt).not.toBeNull();
  });

  it('refuses an empty list (4402), a student outside the scope (4406) and another customer’s template (4005), storing nothing', async () => {
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(certificateIssuances);
    const empty = await issue('teach', []);
    expect([empty.statusCode, empty.json().errorCode]).toEqual([400, '4402']);
    expect(empty.json().errorMsg).not.toBe('');
    const outside = await issue('teach', [w.studentIds[0]!, w.ids.stuX!]);
    expect([outside.statusCode, outside.json().errorCode]).toEqual([403, '4406']);
    const foreign = await issue('otherAdmin', [w.studentIds[0]!]);
    expect(foreign.json().errorCode).toBe('4005');
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(certificateIssuances);
    expect(after[0]!.n).toBe(before[0]!.n);
    // The refused issuance took no number: the next one continues the sequence.
    const next = await issue('admin', [w.ids.stuX!]);
    expect(next.json().data.holders[0].number).toBe('PY202611220004');
  });

  it('refuses a deleted template with 4005', async () => {
    const [gone] = await t.database.db
      .insert(certificates)
      .values({ ...w.template, id: undefined, name: 'Old', deletedAt: new Date() })
      .returning();
    const res = await issue('teach', [w.studentIds[0]!], { certId: gone!.id });
    expect(res.json().errorCode).toBe('4005');
  });

  it('runs the review flow: pending, refused with a reason, resubmitted, approved and numbered', async () => {
    expect((await w.call('boss', 'POST', CERT_API.auditor, { userId: w.ids.admin })).statusCode).toBe(200);
    const again = await w.call('boss', 'POST', CERT_API.auditor, { userId: w.ids.admin });
    expect(again.json().errorCode).toBe('4408');
    expect((await w.call('boss', 'POST', CERT_API.auditor, { userId: w.ids.stu1 })).statusCode).toBe(404);
    expect((await setReview(true)).json().data).toEqual({ reviewRequired: true });

    const created = (await issue('teach', [w.studentIds[0]!], { awardFor: 'Pyhton' })).json().data;
    expect(created.state).toBe('pending');
    expect(created.holders[0].number).toBeNull();
    const [review] = (await w.call('teach', 'GET', `${CERT_API.reviewHistory}?certIssId=${created.id}`)).json().data;
    expect(created.pendingReviewId).toBe(review.id);

    const notAuditor = await w.call('teach', 'GET', CERT_API.review);
    expect([notAuditor.statusCode, notAuditor.json().errorCode]).toEqual([403, '4405']);
    expect(
      (await w.call('teach', 'POST', CERT_API.review, { certIssId: created.id, decision: 'approve' })).json().errorCode,
    ).toBe('4405');
    const queue = (await w.call('admin', 'GET', CERT_API.review)).json().data;
    expect(queue.map((q: { id: string }) => q.id)).toContain(created.id);
    // A teacher made auditor reads what they decide on; before that, an issuance of another teacher is not theirs.
    const detailUrl = `${CERT_API.certIssDetail}?certIssId=${created.id}`;
    expect((await w.call('teach2', 'GET', detailUrl)).json().errorCode).toBe('4005');
    const made = (await w.call('boss', 'POST', CERT_API.auditor, { userId: w.ids.teach2 })).json().data;
    expect((await w.call('teach2', 'GET', detailUrl)).json().data.holders).toHaveLength(1);
    await w.call('boss', 'DELETE', `${CERT_API.auditor}?auditorId=${made.id}&userId=${w.ids.teach2}`);
    expect((await w.call('teach2', 'GET', detailUrl)).json().errorCode).toBe('4005');

    const refuse = await w.call('admin', 'POST', CERT_API.review, {
      certIssId: created.id,
      decision: 'refuse',
      reason: 'Spelling of the course',
    });
    expect(refuse.json().data).toMatchObject({ state: 'refused', refuseReason: 'Spelling of the course' });
    const twice = await w.call('admin', 'POST', CERT_API.review, { certIssId: created.id, decision: 'approve' });
    expect([twice.statusCode, twice.json().errorCode]).toEqual([409, '4403']);
    const seen = (await w.call('teach', 'GET', `${CERT_API.certIssDetail}?certIssId=${created.id}`)).json().data;
    expect([seen.state, seen.refuseReason]).toEqual(['refused', 'Spelling of the course']);

    const resubmitted = await w.call('teach', 'PUT', `${CERT_API.certIssResubmit}?certIssId=${created.id}`, {
      awardFor: 'Python',
      issueDate: DATE,
      source: 'manual',
      userIds: [w.studentIds[0]!, w.studentIds[1]!],
    });
    expect(resubmitted.json().data.state).toBe('pending');
    const approve = await w.call('admin', 'POST', CERT_API.review, { certIssId: created.id, decision: 'approve' });
    expect(approve.json().data).toMatchObject({ id: created.id, state: 'issued', holderCount: 2 });
    const issued = (await w.call('teach', 'GET', `${CERT_API.certIssDetail}?certIssId=${created.id}`)).json().data;
    expect(issued.state).toBe('issued');
    expect(issued.awardFor).toBe('Python');
    expect(issued.holders.map((h: { number: string }) => h.number).sort()).toEqual([
      'PY202611220005',
      'PY202611220006',
    ]);
    const history = (await w.call('teach', 'GET', `${CERT_API.reviewHistory}?certIssId=${created.id}`)).json().data;
    expect(history.map((h: { state: string }) => h.state)).toEqual(['refused', 'approved']);
    expect(history[0].reason).toBe('Spelling of the course');
    const again2 = await w.call('teach', 'PUT', `${CERT_API.certIssResubmit}?certIssId=${created.id}`, {
      awardFor: 'Python',
      source: 'manual',
      userIds: [w.studentIds[0]!],
    });
    expect(again2.json().errorCode).toBe('4403');
  });

  it('lets the issuer withdraw a pending issuance, and nobody else', async () => {
    const created = (await issue('teach', [w.studentIds[2]!])).json().data;
    const [review] = (await w.call('teach', 'GET', `${CERT_API.reviewHistory}?certIssId=${created.id}`)).json().data;
    const byOther = await w.call('teach2', 'DELETE', `${CERT_API.review}?reviewId=${review.id}`);
    expect(byOther.json().errorCode).toBe('4005');
    expect((await w.call('teach', 'DELETE', `${CERT_API.review}?reviewId=${review.id}`)).statusCode).toBe(200);
    const detail = (await w.call('teach', 'GET', `${CERT_API.certIssDetail}?certIssId=${created.id}`)).json().data;
    expect(detail.state).toBe('withdrawn');
    expect((await w.call('teach', 'DELETE', `${CERT_API.review}?reviewId=${review.id}`)).json().errorCode).toBe('4403');
    expect(
      (await w.call('admin', 'POST', CERT_API.review, { certIssId: created.id, decision: 'approve' })).json().errorCode,
    ).toBe('4403');
    await setReview(false);
  });

  it('keeps an auditor while review needs one (4409): to turn it on, while it is on, while an issuance waits', async () => {
    type Auditor = { id: string; userId: string };
    const auditors = async () => (await w.call('boss', 'GET', CERT_API.auditor)).json().data as Auditor[];
    const remove = (a: Auditor) => w.call('boss', 'DELETE', `${CERT_API.auditor}?auditorId=${a.id}&userId=${a.userId}`);
    const [last] = await auditors();
    expect((await setReview(true)).statusCode).toBe(200);
    const whileOn = await remove(last!);
    expect([whileOn.statusCode, whileOn.json().errorCode]).toEqual([409, '4409']);
    expect(whileOn.json().errorMsg).not.toBe('');

    const waiting = (await issue('teach', [w.studentIds[2]!])).json().data;
    expect(waiting.state).toBe('pending');
    await setReview(false);
    expect((await remove(last!)).json().errorCode).toBe('4409');
    expect(await auditors()).toEqual([last]);
    const decided = await w.call('admin', 'POST', CERT_API.review, {
      certIssId: waiting.id,
      decision: 'refuse',
      reason: 'Not this term',
    });
    expect(decided.json().data.state).toBe('refused');
    expect((await remove(last!)).statusCode).toBe(200);

    const on = await setReview(true);
    expect([on.statusCode, on.json().errorCode]).toEqual([409, '4409']);
    expect((await w.call('boss', 'GET', CERT_API.auditorSettings)).json().data).toEqual({ reviewRequired: false });
    expect((await w.call('boss', 'POST', CERT_API.auditor, { userId: last!.userId })).statusCode).toBe(200);
  });

  it('lists issuances: a teacher their own, a manager the customer’s or their school’s, another customer nothing', async () => {
    const mine = (await w.call('teach', 'GET', CERT_API.certIss)).json().data;
    expect(mine.list.every((i: { issuerId: string }) => i.issuerId === w.ids.teach)).toBe(true);
    const all = (await w.call('boss', 'GET', CERT_API.certIss)).json().data;
    expect(all.total).toBeGreaterThan(mine.total);
    expect((await w.call('otherAdmin', 'GET', CERT_API.certIss)).json().data.total).toBe(0);
    const pending = (await w.call('boss', 'GET', `${CERT_API.certIss}?state=withdrawn`)).json().data;
    expect(pending.list.map((i: { state: string }) => i.state)).toEqual(['withdrawn']);
    // Everything so far was issued from the first school: its administrator has it all, another school's nothing.
    expect((await w.call('admin', 'GET', CERT_API.certIss)).json().data.total).toBe(all.total);
    expect((await w.call('farAdmin', 'GET', CERT_API.certIss)).json().data.total).toBe(0);
  });

  it('keeps another school’s administrator out of the school’s issuances and certificates (4005)', async () => {
    const issued = (await issue('teach', [w.studentIds[1]!])).json().data;
    const cert = issued.holders[0] as { id: string };
    const detail = `${CERT_API.certIssDetail}?certIssId=${issued.id}`;
    expect((await w.call('admin', 'GET', detail)).statusCode).toBe(200);
    expect((await w.call('farAdmin', 'GET', detail)).json().errorCode).toBe('4005');
    expect((await w.call('farAdmin', 'GET', `${CERT_API.pdf}?userCertId=${cert.id}`)).json().errorCode).toBe('4005');
    const revoke = `${CERT_API.revoke}?userCertId=${cert.id}`;
    expect((await w.call('farAdmin', 'PUT', revoke, { reason: 'Not mine' })).json().errorCode).toBe('4005');
    expect((await w.call('farAdmin', 'GET', CERT_API.userCert)).json().data.total).toBe(0);
    expect((await w.call('admin', 'GET', CERT_API.userCert)).json().data.total).toBeGreaterThan(0);
    expect((await w.call('admin', 'PUT', revoke, { reason: 'Wrong course' })).json().data.state).toBe('revoked');
  });

  it('leaves the auditors and the review rule to the institution’s administrators, not a school’s', async () => {
    for (const [method, url, body] of [
      ['GET', CERT_API.auditorSettings],
      ['PUT', CERT_API.auditorSettings, { reviewRequired: true }],
      ['GET', CERT_API.auditor],
      ['POST', CERT_API.auditor, { userId: w.ids.teach2 }],
    ] as const) {
      expect((await w.call('admin', method, url, body)).statusCode).toBe(403);
    }
    expect((await w.call('boss', 'GET', CERT_API.auditorSettings)).json().data).toEqual({ reviewRequired: false });
  });

  it('answers candidates of a class within the scope, and 1004 for another customer’s class', async () => {
    const res = await w.call('teach', 'GET', `${CERT_API.candidates}?source=class&sourceId=${w.klass.id}`);
    expect(
      res
        .json()
        .data.map((c: { userId: string }) => c.userId)
        .sort(),
    ).toEqual([...w.studentIds].sort());
    const foreign = await w.call('otherAdmin', 'GET', `${CERT_API.candidates}?source=class&sourceId=${w.klass.id}`);
    expect(foreign.statusCode).toBe(404);
  });

  it('lets a teacher reach the students of the schedules they teach and the learners of their courses', async () => {
    const db = t.database.db;
    const candidates = async (source: string, id: string) =>
      (await w.call('teach2', 'GET', `${CERT_API.candidates}?source=${source}&sourceId=${id}`)).json().data as {
        userId: string;
      }[];
    expect((await issue('teach2', [w.studentIds[0]!])).json().errorCode).toBe('4406');
    const [schedule] = await db
      .insert(teachingSchedules)
      .values({ customerId: w.customer.id, schoolId: w.school.id, name: 'Robotics', startAt: new Date() })
      .returning();
    await db.insert(scheduleTeachers).values({ scheduleId: schedule!.id, userId: w.ids.teach2! });
    await db.insert(scheduleClasses).values({ scheduleId: schedule!.id, classId: w.klass.id });
    await db.insert(scheduleStudents).values({ scheduleId: schedule!.id, userId: w.ids.stuX! });
    expect((await candidates('schedule', schedule!.id)).map((c) => c.userId).sort()).toEqual(
      [...w.studentIds, w.ids.stuX!].sort(),
    );
    expect((await issue('teach2', [w.studentIds[0]!, w.ids.stuX!])).json().data.state).toBe('issued');

    const course = await buildCourse(db, { customerId: w.customer.id, ownerId: w.ids.teach! });
    await db.insert(courseEnrolments).values({
      courseId: course.courseId,
      userId: w.ids.stuX!,
      customerId: w.customer.id,
      versionId: course.versionId,
      joinedVia: 'code',
    });
    const learners = await w.call('teach', 'GET', `${CERT_API.candidates}?source=course&sourceId=${course.courseId}`);
    expect(learners.json().data.map((c: { userId: string }) => c.userId)).toEqual([w.ids.stuX]);
    expect((await issue('teach', [w.ids.stuX!], { source: 'course', sourceId: course.courseId })).statusCode).toBe(200);
  });

  it('refuses every id-taking route to another customer’s administrator and teacher', async () => {
    const issued = (await w.call('boss', 'GET', `${CERT_API.certIss}?state=issued`)).json().data.list[0];
    const detail = (await w.call('boss', 'GET', `${CERT_API.certIssDetail}?certIssId=${issued.id}`)).json().data;
    const certId = detail.holders[0].id;
    const [review] =
      (await w.call('boss', 'GET', `${CERT_API.reviewHistory}?certIssId=${issued.id}`)).json().data ?? [];
    const auditors = (await w.call('boss', 'GET', CERT_API.auditor)).json().data;
    const routes: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['detail', 'GET', `${CERT_API.certIssDetail}?certIssId=${issued.id}`],
      [
        'resubmit',
        'PUT',
        `${CERT_API.certIssResubmit}?certIssId=${issued.id}`,
        { awardFor: 'x', source: 'manual', userIds: [w.studentIds[0]] },
      ],
      ['download', 'POST', CERT_API.certIssDownload, { certIssId: issued.id }],
      ['history', 'GET', `${CERT_API.reviewHistory}?certIssId=${issued.id}`],
      ['decide', 'POST', CERT_API.review, { certIssId: issued.id, decision: 'refuse', reason: 'x' }],
      ['withdraw', 'DELETE', `${CERT_API.review}?reviewId=${review?.id ?? issued.id}`],
      ['auditor', 'DELETE', `${CERT_API.auditor}?auditorId=${auditors[0].id}&userId=${auditors[0].userId}`],
      ['revoke', 'PUT', `${CERT_API.revoke}?userCertId=${certId}`, { reason: 'x' }],
      ['reissue', 'PUT', `${CERT_API.reissue}?userCertId=${certId}`, { reason: 'x' }],
      ['pdf', 'GET', `${CERT_API.pdf}?userCertId=${certId}`],
      ['badge', 'GET', `${CERT_API.badge}?userCertId=${certId}`],
      ['candidates', 'GET', `${CERT_API.candidates}?source=class&sourceId=${w.klass.id}`],
    ];
    for (const who of ['otherAdmin', 'otherTeach']) {
      for (const [name, method, url, body] of routes) {
        const res = await w.call(who, method, url, body);
        expect({ who, name, refused: [403, 404].includes(res.statusCode) }).toEqual({ who, name, refused: true });
      }
    }
    const still = (await w.call('boss', 'GET', `${CERT_API.certIssDetail}?certIssId=${issued.id}`)).json().data;
    expect(still.holders.every((h: { state: string }) => h.state === 'valid')).toBe(true);
  });
});
