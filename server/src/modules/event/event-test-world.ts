import { ROLES, type TEventEligibility, type TEventTrack, type TTeamMember } from '@aiedu/contracts';
import type { LightMyRequestResponse } from 'fastify';
import {
  classes,
  eventRegistrations,
  events,
  eventTeamMembers,
  eventWorks,
  students,
  teachers,
} from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

export const DAY = 86_400_000;

/** The phases of an event, in days from the clock's current time (negative: already begun). */
export interface PhaseDays {
  registrationStart: number;
  registrationEnd: number;
  submissionStart: number;
  submissionEnd: number;
  reviewStart: number;
  reviewEnd: number;
  resultsAt: number;
}

/** Registration open now for five days, then submission, review and results. */
export const REGISTRATION_OPEN: PhaseDays = {
  registrationStart: -1,
  registrationEnd: 5,
  submissionStart: 6,
  submissionEnd: 10,
  reviewStart: 11,
  reviewEnd: 15,
  resultsAt: 16,
};

/** Registration closed, submission open until two days from now, then the review and the results. */
export const SUBMISSION_OPEN: PhaseDays = {
  registrationStart: -10,
  registrationEnd: -5,
  submissionStart: -6,
  submissionEnd: 2,
  reviewStart: 3,
  reviewEnd: 8,
  resultsAt: 9,
};

export const TRACKS: TEventTrack[] = [
  { id: 'ai', name: 'AI Creativity', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
  { id: 'iris', name: 'Iris classification', kind: 'auto', dailyRuns: 3, higherIsBetter: true },
];

export interface EventOptions {
  name?: string;
  /** Whose event: the world's customer (default), the other customer, or the platform's (customer_id null). */
  owner?: 'customer' | 'other' | 'platform';
  phases?: Partial<PhaseDays>;
  tracks?: TEventTrack[];
  eligibility?: Partial<TEventEligibility>;
  teamMin?: number;
  teamMax?: number;
  mentorMin?: number;
  mentorMax?: number;
  awards?: { name: string; count: number }[];
  resultsPublished?: boolean;
}

/**
 * An app with a clock tests move (`clock.set`, `clock.advance`), and people to play every part:
 * - `boss`: the customer's administrator (organiser); `root`: a super administrator;
 * - school A (primary, grade 5 class): students `stuA1`…`stuA4`, teachers `teachA1`, `teachA2`;
 * - school B (junior, grade 2 class): students `stuB1`, `stuB2`, teachers `teachB1`, `teachB2`;
 * - the other customer: `otherBoss` (administrator), `otherStu` (student), `otherTeach` (teacher).
 * `createEvent` writes an event whose phase dates are days from the clock's current time.
 */
export async function buildEventWorld(options: { start?: Date } = {}) {
  const start = options.start ?? new Date('2026-11-22T01:00:00Z');
  let current = start.getTime();
  const clock = {
    now: () => new Date(current),
    set: (at: Date | number) => void (current = +at),
    advance: (ms: number) => void (current += ms),
    /** The instant `n` days from the clock's current time. */
    days: (n: number) => new Date(current + n * DAY),
  };
  const t: TestApp = await createTestApp({ now: clock.now, config: { accessTokenTtlSeconds: 365 * 86_400 } });
  const db = t.database.db;
  const customer = await buildCustomer(db, { name: 'Sunrise District' });
  const other = await buildCustomer(db, { name: 'Elsewhere' });
  const schoolA = await buildSchool(db, customer.id, { name: 'North School' });
  const schoolB = await buildSchool(db, customer.id, { name: 'South School' });
  const otherSchool = await buildSchool(db, other.id, { name: 'Far School' });
  const classOf = async (customerId: string, schoolId: string, eduStage: 'primary' | 'junior', grade: number) =>
    (
      await db
        .insert(classes)
        .values({ customerId, schoolId, eduStage, grade, className: `${grade}-1`, startYear: 2024 })
        .returning()
    )[0]!;
  const classA = await classOf(customer.id, schoolA.id, 'primary', 5);
  const classB = await classOf(customer.id, schoolB.id, 'junior', 2);
  const otherClass = await classOf(other.id, otherSchool.id, 'primary', 5);

  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  async function person(
    name: string,
    role: string,
    where: { customerId: string | null; schoolId: string | null; classId?: string },
  ) {
    const { customerId, schoolId } = where;
    const user = await buildUser(db, { customerId, schoolId, username: name, realName: `Real ${name}`, roles: [role] });
    const code = customerId === customer.id ? customer.code : customerId === other.id ? other.code : '';
    tokens[name] = await signIn(t.app, code, name, user.password);
    ids[name] = user.id;
    if (role === ROLES.teacher && customerId && schoolId) {
      await db.insert(teachers).values({ userId: user.id, customerId, schoolId });
    }
    if (role === ROLES.student && customerId && schoolId) {
      await db.insert(students).values({ userId: user.id, customerId, schoolId, classId: where.classId ?? null });
    }
    return user;
  }
  const inA = { customerId: customer.id, schoolId: schoolA.id, classId: classA.id };
  const inB = { customerId: customer.id, schoolId: schoolB.id, classId: classB.id };
  const far = { customerId: other.id, schoolId: otherSchool.id, classId: otherClass.id };
  await person('root', ROLES.super, { customerId: null, schoolId: null });
  await person('boss', ROLES.customerAdmin, { customerId: customer.id, schoolId: null });
  await person('otherBoss', ROLES.customerAdmin, { customerId: other.id, schoolId: null });
  for (const name of ['stuA1', 'stuA2', 'stuA3', 'stuA4']) await person(name, ROLES.student, inA);
  for (const name of ['stuB1', 'stuB2']) await person(name, ROLES.student, inB);
  for (const name of ['teachA1', 'teachA2']) await person(name, ROLES.teacher, inA);
  for (const name of ['teachB1', 'teachB2']) await person(name, ROLES.teacher, inB);
  await person('otherStu', ROLES.student, far);
  await person('otherTeach', ROLES.teacher, far);

  /** Phase dates from days relative to the clock's current time. */
  function phaseDates(days: Partial<PhaseDays> = {}) {
    const d = { ...REGISTRATION_OPEN, ...days };
    return {
      registrationStart: clock.days(d.registrationStart),
      registrationEnd: clock.days(d.registrationEnd),
      submissionStart: clock.days(d.submissionStart),
      submissionEnd: clock.days(d.submissionEnd),
      reviewStart: clock.days(d.reviewStart),
      reviewEnd: clock.days(d.reviewEnd),
      resultsAt: clock.days(d.resultsAt),
    };
  }
  /** The same dates as ISO strings, for a request's `phases`. */
  function phaseIsos(days: Partial<PhaseDays> = {}) {
    return Object.fromEntries(Object.entries(phaseDates(days)).map(([k, v]) => [k, v.toISOString()])) as Record<
      keyof PhaseDays,
      string
    >;
  }

  /** Writes an event straight to the database (no route involved). */
  async function createEvent(opts: EventOptions = {}) {
    const owner = opts.owner ?? 'customer';
    const [row] = await db
      .insert(events)
      .values({
        customerId: owner === 'customer' ? customer.id : owner === 'other' ? other.id : null,
        name: opts.name ?? 'Young Makers Cup',
        tracks: opts.tracks ?? TRACKS,
        ...phaseDates(opts.phases),
        eligibility: { customerIds: [], stages: [], grades: [], ...opts.eligibility },
        teamMin: opts.teamMin ?? 1,
        teamMax: opts.teamMax ?? 3,
        mentorMin: opts.mentorMin ?? 1,
        mentorMax: opts.mentorMax ?? 2,
        awards: opts.awards ?? [
          { name: 'Gold', count: 1 },
          { name: 'Silver', count: 2 },
        ],
        resultsPublishedAt: opts.resultsPublished ? clock.now() : null,
        organiserId: owner === 'customer' ? ids.boss! : owner === 'other' ? ids.otherBoss! : ids.root!,
      })
      .returning();
    return row!;
  }

  /** A member of a registration's payload: a person of the world (with their account) or an outsider by name. */
  function member(role: 'applicant' | 'mentor', who: string, extra: Partial<TTeamMember> = {}): TTeamMember {
    const known = ids[who];
    return {
      role,
      userId: known ?? null,
      name: known ? `Real ${who}` : who,
      phone: '13800000000',
      documentType: 'idCard',
      documentNumber: `ID-${who}`,
      email: `${who.toLowerCase().replace(/[^a-z0-9]/g, '')}@example.com`,
      ...extra,
    };
  }

  /** A registration's payload: the leader first among the applicants, then the mentors. */
  function registrationBody(
    eventId: string,
    leader: string,
    team: { applicants?: string[]; mentors?: string[]; trackId?: string; teamName?: string } = {},
  ) {
    return {
      eventId,
      trackId: team.trackId ?? 'ai',
      teamName: team.teamName ?? `Team ${leader}`,
      members: [
        ...[leader, ...(team.applicants ?? [])].map((a) => member('applicant', a)),
        ...(team.mentors ?? ['teachA1']).map((m) => member('mentor', m)),
      ],
    };
  }

  /** A team written straight to the database: led by `leader`, applicants with accounts and the given mentors. */
  async function insertTeam(
    eventId: string,
    leader: string,
    team: {
      state?: 'inProgress' | 'pendingReview' | 'passed' | 'ended';
      applicants?: string[];
      mentors?: string[];
      trackId?: string;
      schoolId?: string;
    } = {},
  ) {
    const [registration] = await db
      .insert(eventRegistrations)
      .values({
        eventId,
        trackId: team.trackId ?? 'ai',
        teamName: `Team ${leader}`,
        leaderId: ids[leader]!,
        customerId: customer.id,
        schoolId: team.schoolId ?? schoolA.id,
        state: team.state ?? 'passed',
        submittedAt: team.state === 'inProgress' ? null : clock.now(),
      })
      .returning();
    const body = registrationBody(eventId, leader, team);
    await db.insert(eventTeamMembers).values(
      body.members.map((m, position) => ({
        registrationId: registration!.id,
        eventId,
        position,
        role: m.role,
        userId: m.userId ?? null,
        name: m.name,
        phone: m.phone ?? '',
        documentType: m.documentType ?? null,
        documentNumber: m.documentNumber ?? '',
        email: m.email ?? '',
      })),
    );
    return registration!;
  }

  /** A work accepted for review (PENDING_REVIEW) of a team, submitted `minute` minutes into the day before the start. */
  async function insertPendingWork(eventId: string, registrationId: string, name: string, minute: number) {
    const [row] = await db
      .insert(eventWorks)
      .values({
        eventId,
        registrationId,
        trackId: 'ai',
        name,
        state: 'PENDING_REVIEW',
        submittedAt: new Date(start.getTime() - DAY + minute * 60_000),
        createdBy: ids.boss!,
      })
      .returning();
    return row!.id;
  }

  const call = async (
    who: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object | Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload } : {}),
      headers: { ...(who ? { 'x-authorization': tokens[who] ?? '' } : {}), ...headers },
    });
  const code = (res: LightMyRequestResponse) => (res.json() as { errorCode: string }).errorCode;
  const data = <T = Record<string, unknown>>(res: LightMyRequestResponse) => (res.json() as { data: T }).data;

  return {
    t,
    db,
    clock,
    start,
    customer,
    other,
    schoolA,
    schoolB,
    otherSchool,
    classA,
    classB,
    ids,
    tokens,
    phaseDates,
    phaseIsos,
    createEvent,
    member,
    registrationBody,
    insertTeam,
    insertPendingWork,
    call,
    code,
    data,
  };
}

export type EventWorld = Awaited<ReturnType<typeof buildEventWorld>>;
