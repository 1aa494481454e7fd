import { z } from 'zod';
import { required, text } from './event-fields.js';
import { DOCUMENT_TYPES, EVENT_LIMITS, REGISTRATION_STATES, TEAM_ROLES, WORK_STATES } from './event.js';
import { ZListQuery } from './user.js';

/** Event teams: the declaration's members, the registration and the qualification audit, and the teams' works. */

/** Spec 3's applicant, also used for mentors. Minors' data is seen only by the team and the event's organisers. */
export const ZTeamMember = z.object({
  role: z.enum(TEAM_ROLES),
  /** The platform account it is, so the member finds the team in "my contests"; none for outside mentors. */
  userId: z.uuid().nullable().default(null),
  name: required(50),
  photoKey: z.string().max(300).nullable().default(null),
  birthday: z.iso.date().nullable().default(null),
  ethnicity: text(30).default(''),
  documentType: z.enum(DOCUMENT_TYPES).nullable().default(null),
  documentNumber: text(30).default(''),
  school: text(100).default(''),
  grade: text(30).default(''),
  studentNumber: text(30).default(''),
  phone: z
    .string()
    .regex(/^\+?[0-9]{6,15}$/, 'a phone number')
    .or(z.literal(''))
    .default(''),
  email: z.email().or(z.literal('')).default(''),
  qq: z
    .string()
    .regex(/^[0-9]{5,12}$/)
    .or(z.literal(''))
    .default(''),
  wechat: text(40).default(''),
  address: text(200).default(''),
  district: text(100).default(''),
});
export type TTeamMember = z.input<typeof ZTeamMember>;

export const ZSaveRegistration = z.object({
  eventId: z.uuid(),
  trackId: z.string().max(40),
  teamName: required(EVENT_LIMITS.teamName),
  /** Spec 5: at least one applicant and one mentor; counts within the event's limits (checked by the server: 4504). */
  members: z
    .array(ZTeamMember)
    .min(2)
    .max(EVENT_LIMITS.teamMax + EVENT_LIMITS.mentorMax),
});
export type TSaveRegistration = z.input<typeof ZSaveRegistration>;

export const ZRegistration = z.object({
  id: z.string(),
  eventId: z.string(),
  trackId: z.string(),
  teamName: z.string(),
  leaderId: z.string(),
  leaderName: z.string(),
  schoolName: z.string(),
  state: z.enum(REGISTRATION_STATES),
  /** The organisers' reason, after a refusal. */
  refuseReason: z.string().nullable(),
  members: z.array(ZTeamMember.extend({ photoUrl: z.string().nullable() })),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TRegistration = z.infer<typeof ZRegistration>;

export const ZQualificationQuery = ZListQuery.extend({
  eventId: z.uuid(),
  state: z.enum(REGISTRATION_STATES).optional(),
});
export const ZQualificationDecision = z.discriminatedUnion('decision', [
  z.object({ registrationId: z.uuid(), decision: z.literal('pass') }),
  z.object({
    registrationId: z.uuid(),
    decision: z.literal('refuse'),
    reason: required(EVENT_LIMITS.reason),
    /** Whether the team may correct and send it again (back to inProgress) or it ends here. */
    final: z.boolean().default(false),
  }),
]);
export type TQualificationDecision = z.input<typeof ZQualificationDecision>;

export const ZSaveWork = z.object({
  eventId: z.uuid(),
  name: required(EVENT_LIMITS.workName),
  description: text(EVENT_LIMITS.workDescription).default(''),
  tags: z.array(required(EVENT_LIMITS.tag)).max(EVENT_LIMITS.tags).default([]),
  link: z.url().max(EVENT_LIMITS.link).or(z.literal('')).default(''),
  coverKey: z.string().max(300).nullable().default(null),
  /** The tus upload's storage key of an MP4 (≤ 500 MB). */
  videoKey: z.string().max(300).nullable().default(null),
  /** A notebook project of a team member; its snapshot is frozen at submission. */
  projectId: z.uuid().nullable().default(null),
});
export type TSaveWork = z.input<typeof ZSaveWork>;
export const ZUpdateWork = ZSaveWork.omit({ eventId: true }).extend({ id: z.uuid() });
export type TUpdateWork = z.input<typeof ZUpdateWork>;

export const ZWork = z.object({
  id: z.string(),
  eventId: z.string(),
  registrationId: z.string(),
  teamName: z.string(),
  schoolName: z.string(),
  trackId: z.string(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  link: z.string(),
  coverUrl: z.string().nullable(),
  coverKey: z.string().nullable(),
  hasVideo: z.boolean(),
  videoKey: z.string().nullable(),
  /** A signed link to the video, valid for some hours, that a browser's video element plays and seeks (byte ranges). */
  videoUrl: z.string().nullable().optional(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  /** The project version frozen at submission. */
  projectVersion: z.string().nullable(),
  state: z.enum(WORK_STATES),
  failReason: z.string().nullable(),
  judgeGroup: z.number().int().nullable(),
  /** The review round the work is in, or the last it reached (1 until a round is closed). */
  reviewRound: z.number().int(),
  /** Once results are published. */
  score: z.number().nullable(),
  rank: z.number().int().nullable(),
  award: z.string().nullable(),
  submittedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TWork = z.infer<typeof ZWork>;

export const ZWorkAdminQuery = ZListQuery.extend({
  eventId: z.uuid(),
  state: z.enum(WORK_STATES).optional(),
  trackId: z.string().max(40).optional(),
});
export const ZWorkAuditDecision = z.discriminatedUnion('decision', [
  z.object({ workId: z.uuid(), decision: z.literal('accept') }),
  z.object({ workId: z.uuid(), decision: z.literal('refuse'), reason: required(EVENT_LIMITS.reason) }),
]);
export type TWorkAuditDecision = z.input<typeof ZWorkAuditDecision>;
