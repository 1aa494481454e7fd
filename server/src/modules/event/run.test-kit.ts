import { ROLES, type TEventTrack } from '@aiedu/contracts';
import type { LightMyRequestResponse } from 'fastify';
import type { Config } from '../../config.js';
import { eventRegistrations, events, eventTeamMembers } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const DAY = 86_400_000;

/** A multipart body of named files, for `app.inject`. */
export function multipartFiles(files: Record<string, { name: string; content: string | Buffer }>) {
  const boundary = '----run-boundary';
  const parts = Object.entries(files).map(([field, file]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\n\r\n`),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * An app with a clock tests move (in the submission phase at its start), a customer (Shanghai time) with an
 * organiser, students of two schools, another customer's organiser, and an event with two auto-scored tracks
 * (`acc`: higher is better, 3 runs a day; `err`: lower is better) and a judged one.
 */
export async function buildRunWorld(options: { config?: Partial<Config> } = {}) {
  // 2026-11-22 09:00 in Shanghai.
  const start = new Date('2026-11-22T01:00:00Z');
  let current = start.getTime();
  const clock = { now: () => new Date(current), set: (at: Date | number) => void (current = +at) };
  const t: TestApp = await createTestApp({
    now: clock.now,
    config: {
      accessTokenTtlSeconds: 60 * 86_400,
      eventRuns: { concurrency: 0, timeoutSeconds: 60 },
      ...options.config,
    },
  });
  const db = t.database.db;
  const customer = await buildCustomer(db, { name: 'Sunrise District' });
  const schoolA = await buildSchool(db, customer.id, { name: 'North School' });
  const schoolB = await buildSchool(db, customer.id, { name: 'South School' });
  const other = await buildCustomer(db, { name: 'Elsewhere' });
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  async function person(name: string, role: string, schoolId: string | null, customerId = customer.id) {
    const user = await buildUser(db, { customerId, schoolId, username: name, realName: `Real ${name}`, roles: [role] });
    tokens[name] = await signIn(t.app, customerId === customer.id ? customer.code : other.code, name, user.password);
    ids[name] = user.id;
    return user;
  }
  await person('boss', ROLES.customerAdmin, schoolA.id);
  await person('otherBoss', ROLES.customerAdmin, null, other.id);
  for (const name of ['stuA1', 'stuA2', 'stuA3', 'stuX']) await person(name, ROLES.student, schoolA.id);
  for (const name of ['stuB1', 'stuB2']) await person(name, ROLES.student, schoolB.id);
  const phases = {
    registrationStart: new Date(start.getTime() - 10 * DAY),
    registrationEnd: new Date(start.getTime() - 5 * DAY),
    submissionStart: new Date(start.getTime() - 6 * DAY),
    submissionEnd: new Date(start.getTime() + 5 * DAY),
    reviewStart: new Date(start.getTime() + 6 * DAY),
    reviewEnd: new Date(start.getTime() + 8 * DAY),
    resultsAt: new Date(start.getTime() + 9 * DAY),
  };
  const tracks: TEventTrack[] = [
    { id: 'acc', name: 'Accuracy', kind: 'auto', dailyRuns: 3, higherIsBetter: true },
    { id: 'err', name: 'Error', kind: 'auto', dailyRuns: 5, higherIsBetter: false },
    { id: 'ai', name: 'AI', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
  ];
  const [event] = await db
    .insert(events)
    .values({
      customerId: customer.id,
      name: 'Prediction Cup',
      tracks,
      ...phases,
      eligibility: { customerIds: [], stages: [], grades: [] },
      organiserId: ids.boss!,
    })
    .returning();

  /** A team led by `leader` in a track, with applicants that have accounts. */
  async function team(
    leader: string,
    trackId: string,
    schoolId: string,
    state: 'inProgress' | 'pendingReview' | 'passed' | 'ended' = 'passed',
    members: string[] = [],
  ) {
    const [registration] = await db
      .insert(eventRegistrations)
      .values({
        eventId: event!.id,
        trackId,
        teamName: `Team ${leader}`,
        leaderId: ids[leader]!,
        customerId: customer.id,
        schoolId,
        state,
      })
      .returning();
    await db.insert(eventTeamMembers).values(
      [leader, ...members].map((name, position) => ({
        registrationId: registration!.id,
        eventId: event!.id,
        role: 'applicant' as const,
        position,
        userId: ids[name]!,
        name: `Real ${name}`,
      })),
    );
    return registration!;
  }

  const call = async (
    who: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object | Buffer,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { ...(who ? { 'x-authorization': tokens[who] ?? '' } : {}), ...headers },
    });
  const code = (res: LightMyRequestResponse) => (res.json() as { errorCode: string }).errorCode;

  return { t, db, clock, start, customer, schoolA, schoolB, event: event!, phases, ids, tokens, team, call, code };
}

export type RunWorld = Awaited<ReturnType<typeof buildRunWorld>>;
