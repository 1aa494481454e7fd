import { EVENT_API, type RegistrationState, type TEvent, type TRegistration, type TTeamMember } from '@aiedu/contracts';
import type { AppContext } from '../../platform/context.js';
import type { eventRegistrations, eventTeamMembers } from '../../platform/db/schema/index.js';
import { datesOf, type EventRow } from './event-access.js';
import { eventPhase, eventState } from './event-clock.js';
import { fileUrl } from './work.repository.js';

/** Event images (covers, pictures of the description): public, by a stable address. */
export const IMAGE_FOLDER = 'events/images';

/** The stable public address of an event image. */
export const imageUrl = (key: string | null) => (key ? `${EVENT_API.file}?key=${encodeURIComponent(key)}` : null);

export type RegistrationRow = typeof eventRegistrations.$inferSelect;
export type MemberRow = typeof eventTeamMembers.$inferSelect;

export interface EventFacts {
  organiserName: string;
  teamCount: number;
  workCount: number;
}

/** An event as the API answers it, without the caller's part (`viewer`). */
export function presentEventBase(ctx: AppContext, row: EventRow, facts: EventFacts): Omit<TEvent, 'viewer'> {
  const now = ctx.now();
  const iso = (d: Date) => d.toISOString();
  return {
    id: row.id,
    name: row.name,
    coverUrl: imageUrl(row.coverKey),
    coverKey: row.coverKey,
    description: row.description,
    tracks: row.tracks,
    phases: {
      registrationStart: iso(row.registrationStart),
      registrationEnd: iso(row.registrationEnd),
      submissionStart: iso(row.submissionStart),
      submissionEnd: iso(row.submissionEnd),
      reviewStart: iso(row.reviewStart),
      reviewEnd: iso(row.reviewEnd),
      resultsAt: iso(row.resultsAt),
    },
    eligibility: row.eligibility,
    teamMin: row.teamMin,
    teamMax: row.teamMax,
    mentorMin: row.mentorMin,
    mentorMax: row.mentorMax,
    awards: row.awards,
    tieRule: row.tieRule,
    platformWide: row.customerId === null,
    state: eventState(datesOf(row), now),
    phase: eventPhase(datesOf(row), now),
    organiserName: facts.organiserName,
    teamCount: facts.teamCount,
    workCount: facts.workCount,
    resultsPublished: row.resultsPublishedAt !== null,
    serverTime: now.toISOString(),
    createdAt: iso(row.createdAt),
  };
}

/**
 * A registration's state as the API answers it, by the server's clock: one never sent (or sent back to be
 * corrected) when registration closed ended then. One sent in time waits for the organisers, who audit after the
 * close as well.
 */
export function registrationStateNow(ctx: AppContext, event: EventRow, state: RegistrationState): RegistrationState {
  if (state !== 'inProgress') return state;
  return ctx.now().getTime() >= event.registrationEnd.getTime() ? 'ended' : state;
}

/** The personal data of a member only the team and the event's organisers read. */
const PERSONAL = ['birthday', 'documentNumber', 'phone', 'email', 'qq', 'wechat', 'address'] as const;

function presentMember(ctx: AppContext, m: MemberRow, personal: boolean) {
  const member: Required<TTeamMember> & { photoUrl: string | null } = {
    role: m.role,
    userId: m.userId,
    name: m.name,
    photoKey: personal ? m.photoKey : null,
    birthday: m.birthday,
    ethnicity: m.ethnicity,
    documentType: personal ? m.documentType : null,
    documentNumber: m.documentNumber,
    school: m.school,
    grade: m.grade,
    studentNumber: m.studentNumber,
    phone: m.phone,
    email: m.email,
    qq: m.qq,
    wechat: m.wechat,
    address: m.address,
    district: m.district,
    photoUrl: personal ? fileUrl(ctx, m.photoKey) : null,
  };
  if (!personal) {
    member.birthday = null;
    for (const field of PERSONAL) if (field !== 'birthday') member[field] = '';
  }
  return member;
}

export interface RegistrationFacts {
  leaderName: string;
  schoolName: string;
}

/** A registration with its members; their personal data only when `personal` (the team, the organisers). */
export function presentRegistration(
  ctx: AppContext,
  event: EventRow,
  row: RegistrationRow,
  members: MemberRow[],
  facts: RegistrationFacts,
  personal: boolean,
): TRegistration {
  return {
    id: row.id,
    eventId: row.eventId,
    trackId: row.trackId,
    teamName: row.teamName,
    leaderId: row.leaderId,
    leaderName: facts.leaderName,
    schoolName: facts.schoolName,
    state: registrationStateNow(ctx, event, row.state),
    refuseReason: row.refuseReason,
    members: [...members].sort((a, b) => a.position - b.position).map((m) => presentMember(ctx, m, personal)),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
