import { z } from 'zod';
import { ZListQuery } from './user.js';
import { COURSE_CODE_ALPHABET, LIMITS } from './validation.js';

/** Groups: clubs or teams that may cross classes and schools (spec 3, 4, 5 and 6). */

/** Limits of a group's forms and batches (spec 5 and 9). */
export const GROUP_LIMITS = {
  name: 50,
  description: LIMITS.description,
  coverBytes: LIMITS.coverBytes,
  /** Usernames added directly in one request ("group batch add limited per time"). */
  addUsernames: 50,
  /** Rows of one batch registration. */
  batchRows: 200,
  refuseReason: LIMITS.remark,
  inviteCode: 8,
} as const;

/** Invitation codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), as course codes. */
export const GROUP_INVITE_CODE_ALPHABET = COURSE_CODE_ALPHABET;
export const GROUP_INVITE_CODE = new RegExp(`^[${GROUP_INVITE_CODE_ALPHABET}]{${GROUP_LIMITS.inviteCode}}$`);

/** Which groups a list shows: those the caller owns, those they joined (not owning), or both. */
export const GROUP_SCOPES = ['mine', 'joined', 'visible'] as const;
export type GroupScope = (typeof GROUP_SCOPES)[number];
export const GROUP_SORTS = ['createdAt', 'name', 'members'] as const;
export const GROUP_ROLES = ['owner', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
/** How a member came in: created the group, added by the owner, joined by code, or batch-registered. */
export const GROUP_JOINED_VIA = ['created', 'added', 'code', 'batch'] as const;
export const GROUP_REQUEST_STATES = ['pending', 'approved', 'refused'] as const;
export type GroupRequestState = (typeof GROUP_REQUEST_STATES)[number];

/** Group API paths. Static paths under `base` are matched before `/:id`. */
export const GROUP_API = {
  base: '/api/v1/groups',
  /** POST `{ code }`: join by invitation code. */
  join: '/api/v1/groups/join',
  /** The caller's own join requests and their outcome. */
  myRequests: '/api/v1/groups/requests/mine',
  /** The batch registration template (xlsx), headers in the caller's language. */
  batchTemplate: '/api/v1/groups/batch-register/template',
} as const;

/** Paths of one group's calls. */
export const groupApi = (id: string) => {
  const base = `${GROUP_API.base}/${id}`;
  return {
    base,
    /** PUT multipart `file`: an image (jpg, png, gif, jpeg) of at most 2 MB. */
    cover: `${base}/cover`,
    members: `${base}/members`,
    member: (userId: string) => `${base}/members/${userId}`,
    quit: `${base}/quit`,
    invitation: `${base}/invitation`,
    invitationReset: `${base}/invitation/reset`,
    requests: `${base}/requests`,
    approve: (requestId: string) => `${base}/requests/${requestId}/approve`,
    refuse: (requestId: string) => `${base}/requests/${requestId}/refuse`,
    batchRegister: `${base}/batch-register`,
    /** POST multipart `file` (xlsx), `?dryRun=true|false`. */
    batchRegisterXlsx: `${base}/batch-register/xlsx`,
    projects: `${base}/projects`,
    project: (projectId: string) => `${base}/projects/${projectId}`,
    courses: `${base}/courses`,
    course: (courseId: string) => `${base}/courses/${courseId}`,
  };
};

const name = z.string().trim().min(1).max(GROUP_LIMITS.name);
const description = z.string().trim().max(GROUP_LIMITS.description);

export const ZGroupListQuery = ZListQuery.extend({
  scope: z.enum(GROUP_SCOPES).default('visible'),
  sort: z
    .string()
    .regex(new RegExp(`^(${GROUP_SORTS.join('|')}),(asc|desc)$`))
    .optional()
    .describe('default createdAt,desc'),
});
export type TGroupListQuery = z.input<typeof ZGroupListQuery>;

export const ZCreateGroupRequest = z.object({
  name,
  description: description.default(''),
  joinReview: z.boolean().default(false).describe('joining by code waits for the owner’s approval'),
});
export type TCreateGroupRequest = z.input<typeof ZCreateGroupRequest>;
/** Changes only the fields sent. */
export const ZUpdateGroupRequest = z.object({ name, description, joinReview: z.boolean() }).partial();
export type TUpdateGroupRequest = z.infer<typeof ZUpdateGroupRequest>;

/** A group as lists show it. */
export const ZGroup = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  coverUrl: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
  myRole: z.enum(GROUP_ROLES),
  joinReview: z.boolean(),
  memberCount: z.number().int(),
  projectCount: z.number().int(),
  courseCount: z.number().int(),
  datasetCount: z.number().int().describe('datasets shared with the group'),
  createdAt: z.string(),
});
export type TGroup = z.infer<typeof ZGroup>;

export const ZGroupInvitation = z.object({ code: z.string(), enabled: z.boolean() });
export type TGroupInvitation = z.infer<typeof ZGroupInvitation>;

/** A group's detail; the invitation and the count of pending requests are the owner's only. */
export const ZGroupDetail = ZGroup.extend({
  invitation: ZGroupInvitation.nullable().describe('owner only; null for members'),
  pendingRequests: z.number().int().describe('owner only; 0 for members'),
  canBatchRegister: z.boolean().describe('the owner is a teacher of a customer'),
});
export type TGroupDetail = z.infer<typeof ZGroupDetail>;

export const ZGroupMember = z.object({
  userId: z.string(),
  username: z.string(),
  realName: z.string(),
  schoolName: z.string().describe('empty when the member has no school'),
  role: z.enum(GROUP_ROLES),
  joinedVia: z.enum(GROUP_JOINED_VIA),
  joinedAt: z.string(),
});
export type TGroupMember = z.infer<typeof ZGroupMember>;

/** Adds users of the owner's own school (or customer) directly; others join by code (6006). */
export const ZAddGroupMembersRequest = z.object({
  usernames: z.array(z.string().trim().min(1).max(30)).min(1).max(GROUP_LIMITS.addUsernames),
});
export type TAddGroupMembersRequest = z.infer<typeof ZAddGroupMembersRequest>;
export const ZAddGroupMembersResult = z.object({
  added: z.array(z.string()).describe('usernames added'),
  alreadyMembers: z.array(z.string()).describe('usernames that were members already (left as they were)'),
});
export type TAddGroupMembersResult = z.infer<typeof ZAddGroupMembersResult>;

export const ZSetInvitationRequest = z.object({ enabled: z.boolean() });

export const ZJoinGroupRequest = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .transform((code) => code.toUpperCase()),
});
export type TJoinGroupRequest = z.input<typeof ZJoinGroupRequest>;
export const ZJoinGroupResult = z.object({
  state: z.enum(['joined', 'pending']),
  groupId: z.string(),
});
export type TJoinGroupResult = z.infer<typeof ZJoinGroupResult>;

export const ZGroupRequestQuery = ZListQuery.extend({ state: z.enum(GROUP_REQUEST_STATES).default('pending') });
export type TGroupRequestQuery = z.input<typeof ZGroupRequestQuery>;

/** A join request as the owner reviews it. */
export const ZGroupJoinRequest = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  realName: z.string(),
  schoolName: z.string(),
  state: z.enum(GROUP_REQUEST_STATES),
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TGroupJoinRequest = z.infer<typeof ZGroupJoinRequest>;

export const ZRefuseJoinRequest = z.object({
  reason: z.string().trim().max(GROUP_LIMITS.refuseReason).default(''),
});
export type TRefuseJoinRequest = z.input<typeof ZRefuseJoinRequest>;

/** One of the caller's own join requests, so the applicant learns the outcome. */
export const ZMyGroupJoinRequest = z.object({
  id: z.string(),
  groupId: z.string(),
  groupName: z.string(),
  state: z.enum(GROUP_REQUEST_STATES),
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TMyGroupJoinRequest = z.infer<typeof ZMyGroupJoinRequest>;

/**
 * A row of a batch registration. Rows are checked one by one by the server, so every bad row is answered with its
 * number and reason instead of failing the whole request on the first; the password is base64 of UTF-8.
 */
export const ZBatchRegisterRow = z.object({
  username: z.string().max(200),
  phone: z.string().max(200),
  password: z.string().max(200).describe('base64 of the UTF-8 password'),
});
export type TBatchRegisterRow = z.infer<typeof ZBatchRegisterRow>;
export const ZBatchRegisterRequest = z.object({
  rows: z.array(ZBatchRegisterRow).min(1).describe('at most 200 rows (6008)'),
  dryRun: z.boolean().default(false),
});
export type TBatchRegisterRequest = z.input<typeof ZBatchRegisterRequest>;
export const ZBatchRegisterXlsxQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** Why a row of a batch registration is refused; the web client words each reason. */
export const BATCH_ROW_REASONS = [
  'usernameInvalid',
  'usernameDuplicate',
  'usernameTaken',
  'phoneInvalid',
  'phoneDuplicate',
  'phoneTaken',
  'passwordInvalid',
] as const;
export type BatchRowReason = (typeof BATCH_ROW_REASONS)[number];
export const ZBatchRowError = z.object({
  row: z
    .number()
    .int()
    .describe('JSON: the 1-based position in `rows`; xlsx: the sheet row number (headers are row 1)'),
  username: z.string(),
  field: z.enum(['username', 'phone', 'password']),
  reason: z.enum(BATCH_ROW_REASONS),
});
export type TBatchRowError = z.infer<typeof ZBatchRowError>;
/**
 * A batch's outcome. A dry run creates nothing and lists every bad row; a real run with any bad row answers 6007
 * with `{ errors }` as `data` and creates nothing; otherwise every account is created and joins the group.
 */
export const ZBatchRegisterResult = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  created: z.number().int(),
  errors: z.array(ZBatchRowError),
});
export type TBatchRegisterResult = z.infer<typeof ZBatchRegisterResult>;

export const ZShareProjectRequest = z.object({ projectId: z.uuid() });
export const ZShareCourseRequest = z.object({ courseId: z.uuid() });

/** A project shared with a group. */
export const ZGroupProject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ownerId: z.string(),
  ownerName: z.string(),
  updatedAt: z.string(),
  canUnshare: z.boolean().describe('the caller owns the project or the group'),
});
export type TGroupProject = z.infer<typeof ZGroupProject>;

/** A course shared with a group. */
export const ZGroupCourse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  coverUrl: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
  published: z.boolean().describe('learners may start it only once published'),
  updatedAt: z.string(),
  canUnshare: z.boolean().describe('the caller owns the course or the group'),
});
export type TGroupCourse = z.infer<typeof ZGroupCourse>;
