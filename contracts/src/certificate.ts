import { z } from 'zod';
import { LANGUAGES } from './languages.js';
import { ZListQuery } from './user.js';

/**
 * Certificates (spec 2, 3, 5, 6, 7 and 8): templates designed on a background image, issued to students in
 * issuances that may wait for an auditor's review, each holder's certificate numbered by the template's rule,
 * revocable, verifiable by anyone from its number or QR code, and exportable as an Open Badges 3.0 credential.
 */

const MB = 1024 * 1024;

export const CERT_LIMITS = {
  name: 50,
  remark: 100,
  title: 30,
  /** The free text under the name, with placeholders. */
  content: 300,
  /** What the certificate is for: the course, event or achievement the content's `{awardFor}` names. */
  awardFor: 100,
  /** Letters before the number's date part (spec 5: 0–10). */
  numberLetters: 10,
  numberDigitsMin: 3,
  numberDigitsMax: 6,
  /** Certificate images: the background and the seal (spec 5: under 5 MB). */
  imageBytes: 5 * MB,
  reason: 100,
  /** Students of one issuance (a school's year group fits). */
  issueUsers: 1000,
  /** Rows of one xlsx list of students. */
  listRows: 1000,
  /** A credential file the verification page accepts. */
  credentialBytes: 64 * 1024,
} as const;

/** The page sizes, in PDF points (1 pt = 1 designer pixel): spec 5's size hint 650×930 and its landscape twin. */
export const CERT_PAGE = {
  portrait: { width: 650, height: 930 },
  landscape: { width: 930, height: 650 },
} as const;

export const CERT_TYPES = ['teaching', 'activity', 'custom'] as const;
export type CertType = (typeof CERT_TYPES)[number];
export const CERT_LAYOUTS = ['portrait', 'landscape'] as const;
export type CertLayout = (typeof CERT_LAYOUTS)[number];
/** The parts placed on the page; `content` is the free text, `qr` the verification code. */
export const CERT_ELEMENTS = ['title', 'name', 'content', 'number', 'date', 'seal', 'qr'] as const;
export type CertElement = (typeof CERT_ELEMENTS)[number];
export const CERT_TEXT_ELEMENTS = ['title', 'name', 'content', 'number', 'date'] as const;
export const CERT_FONTS = ['regular', 'bold'] as const;
export const CERT_ALIGNS = ['left', 'center', 'right'] as const;
/** The placeholders the content may hold, replaced for each holder. */
export const CERT_PLACEHOLDERS = ['{name}', '{awardFor}', '{date}', '{number}', '{issuer}'] as const;

/**
 * An issuance: `pending` waits for an auditor (when the customer asks for review); `refused` says why and may be
 * corrected and sent again; `withdrawn` was taken back before review; `issued` gave every holder a numbered
 * certificate.
 */
export const CERT_ISSUANCE_STATES = ['pending', 'refused', 'withdrawn', 'issued'] as const;
export type CertIssuanceState = (typeof CERT_ISSUANCE_STATES)[number];
/** A holder's certificate: valid, or revoked with a reason (it stays verifiable as revoked). */
export const USER_CERT_STATES = ['valid', 'revoked'] as const;
export type UserCertState = (typeof USER_CERT_STATES)[number];
/** Where an issuance's students were picked from. */
export const CERT_SOURCES = ['class', 'course', 'schedule', 'list', 'manual'] as const;
export type CertSource = (typeof CERT_SOURCES)[number];

/** Certificate API paths (spec 7's families cert, certPic, certIss, review, auditor, and the holders' userCert). */
export const CERT_API = {
  /** GET list (`ZCertListQuery`), POST create, PUT update (`id` in the body), DELETE `?certId`. */
  cert: '/api/v1/cert',
  /** GET `?certId`: one template with everything the designer needs. */
  certDetail: '/api/v1/cert/detail',
  /** Templates an issuer may choose: every active template of the caller's customer (teachers included). */
  certOptions: '/api/v1/cert/options',
  /** PUT multipart `file` (JPG/PNG ≤ 5 MB), `?originUrl` the image it replaces: answers `ZCertPic`. */
  uploadCertPic: '/api/v1/cert/uploadCertPic',
  /** GET an uploaded certificate image by its key (`?key`), for the designer. */
  certPic: '/api/v1/certPic',
  /** POST a design (`ZCertDesign`) and sample values: answers the PDF, the same rendering as an issued one. */
  preview: '/api/v1/cert/preview',
  /** GET `?prefix&digits`: the number the next certificate of that rule would get today. */
  nextNumber: '/api/v1/cert/nextNumber',
  /** Public, no sign-in: GET `?number`, rate-limited. Answers `ZCertVerification` or 4005. */
  verify: '/api/v1/cert/verify',
  /** Public, no sign-in: POST `{ credential }` (an Open Badges 3.0 JWT): answers `ZCredentialVerification`. */
  verifyCredential: '/api/v1/cert/verifyCredential',

  /** GET list (`ZCertIssuanceListQuery`), POST create (`ZCreateCertIssuance`). */
  certIss: '/api/v1/certIss',
  /** GET `?certIssId`: the issuance with its holders. */
  certIssDetail: '/api/v1/certIss/detail',
  /** PUT `?certIssId` with `ZCreateCertIssuance` minus `certId`: corrects a refused issuance and sends it again. */
  certIssResubmit: '/api/v1/certIss/resubmit',
  /** POST `{ certIssId }`: every certificate of an issued issuance as one merged PDF (a blob). */
  certIssDownload: '/api/v1/certIss/download',
  /** GET: the xlsx list template, headers in the caller's language. */
  userTemplate: '/api/v1/certIss/userTemplate',
  /** POST multipart `file`, `?fileType=xlsx`: reads a list of students; answers `ZCertUserListResult` (a dry run). */
  uploadUserTemplate: '/api/v1/certIss/uploadUserTemplate',
  /** GET `?source&sourceId`: the students of a class, a course's learners or a schedule's students. */
  candidates: '/api/v1/certIss/candidates',

  /** GET: issuances waiting for the caller's review (auditors). POST `ZCertReviewDecision`. DELETE `?reviewId` withdraws a pending one (its issuer). */
  review: '/api/v1/review',
  /** GET `?certIssId`: the review records of an issuance. */
  reviewHistory: '/api/v1/review/history',

  /** GET the customer's auditors, POST `{ userId }`, DELETE `?auditorId&userId`. */
  auditor: '/api/v1/auditor',
  /** GET / PUT `ZCertSettings`: whether issuances wait for review. */
  auditorSettings: '/api/v1/auditor/settings',

  /** GET: issued certificates the caller manages (`ZUserCertListQuery`). */
  userCert: '/api/v1/userCert',
  /** GET: the caller's own certificates. */
  myCerts: '/api/v1/userCert/mine',
  /** PUT `?userCertId` with `{ reason }`. */
  revoke: '/api/v1/userCert/revoke',
  /** PUT `?userCertId` with `ZReissueRequest`: a corrected certificate with a new number replaces a revoked one. */
  reissue: '/api/v1/userCert/reissue',
  /** GET `?userCertId`: the PDF (holder, issuer or administrators). */
  pdf: '/api/v1/userCert/pdf',
  /** GET `?userCertId&width`: the certificate as a PNG picture, drawn from its PDF (the same readers). */
  png: '/api/v1/userCert/png',
  /** GET `?userCertId`: the Open Badges 3.0 credential as a JWT file (`.jwt`). */
  badge: '/api/v1/userCert/badge',
} as const;

/** A certificate's picture: `width` pixels wide (its page's height follows), at most twice a landscape page's width. */
export const CERT_PNG_WIDTH = { min: 100, max: 1860, default: 1300 } as const;

/** The platform's public signing keys (JWKS), for anyone checking a credential's proof. */
export const CERT_JWKS_PATH = '/.well-known/jwks.json';
/** The public verification page; QR codes point to it with `?number=`. */
export const CERT_SEARCH_PAGE = '/pjedu/certificate-search';

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => v === '' || v.trim() !== '', 'not only spaces');
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #RRGGBB');
const coordinate = z.number().min(0).max(CERT_PAGE.landscape.width);

/** Where and how one part sits on the page: its box's top-left corner and width, in designer pixels. */
export const ZCertElementStyle = z.object({
  x: coordinate,
  y: coordinate,
  width: z.number().min(10).max(CERT_PAGE.landscape.width),
  fontSize: z.number().int().min(8).max(96).describe('text parts only'),
  color: colour,
  align: z.enum(CERT_ALIGNS),
  font: z.enum(CERT_FONTS),
  visible: z.boolean(),
  label: z.string().max(20).default('').describe('text before the value, e.g. "No." for the number'),
});
export type TCertElementStyle = z.infer<typeof ZCertElementStyle>;

/** The number rule: 0–10 letters, then the issue date as yyyyMMdd, then a sequence of `digits` digits. */
export const ZCertNumberRule = z.object({
  prefix: z
    .string()
    .regex(new RegExp(`^[A-Za-z]{0,${CERT_LIMITS.numberLetters}}$`), 'letters only, at most 10')
    .default(''),
  digits: z.number().int().min(CERT_LIMITS.numberDigitsMin).max(CERT_LIMITS.numberDigitsMax).default(4),
});
export type TCertNumberRule = z.infer<typeof ZCertNumberRule>;

/** Everything drawn: the renderer's input, the designer's state and an issued certificate's frozen copy. */
export const ZCertDesign = z.object({
  layout: z.enum(CERT_LAYOUTS),
  /** Storage key of the background image (JPG/PNG), or none for a plain page. */
  backgroundKey: z.string().max(300).nullable(),
  sealKey: z.string().max(300).nullable(),
  title: text(CERT_LIMITS.title),
  content: text(CERT_LIMITS.content).describe(`may hold ${CERT_PLACEHOLDERS.join(' ')}`),
  /** The language of the date and the labels drawn. */
  language: z.enum(LANGUAGES),
  elements: z.object(
    Object.fromEntries(CERT_ELEMENTS.map((e) => [e, ZCertElementStyle])) as {
      [K in CertElement]: typeof ZCertElementStyle;
    },
  ),
});
export type TCertDesign = z.infer<typeof ZCertDesign>;

export const ZCertFields = z.object({
  name: z.string().trim().min(1).max(CERT_LIMITS.name),
  type: z.enum(CERT_TYPES),
  remark: text(CERT_LIMITS.remark).default(''),
  numberRule: ZCertNumberRule,
  design: ZCertDesign,
});
export const ZCreateCertRequest = ZCertFields;
export type TCreateCertRequest = z.input<typeof ZCreateCertRequest>;
export const ZUpdateCertRequest = ZCertFields.extend({ id: z.uuid() });
export type TUpdateCertRequest = z.input<typeof ZUpdateCertRequest>;

export const ZCertListQuery = ZListQuery.extend({ type: z.enum(CERT_TYPES).optional() });
export type TCertListQuery = z.input<typeof ZCertListQuery>;

/** A template as lists show it. */
export const ZCert = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(CERT_TYPES),
  remark: z.string(),
  layout: z.enum(CERT_LAYOUTS),
  creatorId: z.string(),
  creatorName: z.string(),
  numberRule: ZCertNumberRule,
  backgroundUrl: z.string().nullable(),
  issuedCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCert = z.infer<typeof ZCert>;
export const ZCertDetail = ZCert.extend({
  design: ZCertDesign,
  sealUrl: z.string().nullable(),
});
export type TCertDetail = z.infer<typeof ZCertDetail>;

/** An uploaded certificate image: its storage key (for the design) and an address to show it. */
export const ZCertPic = z.object({
  key: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type TCertPic = z.infer<typeof ZCertPic>;

export const ZCertPreviewRequest = z.object({
  design: ZCertDesign,
  numberRule: ZCertNumberRule.optional(),
  /** Sample values; the holder's name defaults to the caller's. */
  holderName: z.string().max(CERT_LIMITS.name).optional(),
  awardFor: z.string().max(CERT_LIMITS.awardFor).optional(),
});
export type TCertPreviewRequest = z.input<typeof ZCertPreviewRequest>;

export const ZNextNumberQuery = z.object({
  prefix: ZCertNumberRule.shape.prefix,
  digits: z.coerce.number().int().min(CERT_LIMITS.numberDigitsMin).max(CERT_LIMITS.numberDigitsMax).default(4),
});
export const ZNextNumber = z.object({ number: z.string() });

/** A student an issuance may go to. */
export const ZCertCandidate = z.object({
  userId: z.string(),
  username: z.string(),
  realName: z.string(),
  schoolName: z.string(),
  className: z.string(),
});
export type TCertCandidate = z.infer<typeof ZCertCandidate>;
export const ZCandidatesQuery = z.object({
  source: z.enum(['class', 'course', 'schedule']),
  sourceId: z.uuid(),
});

/** One row of an uploaded list: found (with the user) or refused with the reason. */
export const ZCertUserListRow = z.object({
  row: z.number().int().describe('the spreadsheet row, 2 for the first under the headers'),
  username: z.string(),
  realName: z.string(),
  user: ZCertCandidate.nullable(),
  error: z.string().nullable().describe('why the row names no student of the caller’s scope, in the caller’s language'),
});
export type TCertUserListRow = z.infer<typeof ZCertUserListRow>;
export const ZCertUserListResult = z.object({
  rows: z.array(ZCertUserListRow),
  valid: z.number().int(),
  invalid: z.number().int(),
});
export type TCertUserListResult = z.infer<typeof ZCertUserListResult>;

export const ZCreateCertIssuance = z.object({
  certId: z.uuid(),
  awardFor: z.string().trim().min(1).max(CERT_LIMITS.awardFor),
  /** The date printed and numbered; default today in the customer's time zone. */
  issueDate: z.iso.date().optional(),
  source: z.enum(CERT_SOURCES),
  sourceId: z.uuid().optional().describe('the class, course or schedule the students came from'),
  /** Spec 5: at least one student. */
  userIds: z.array(z.uuid()).min(1).max(CERT_LIMITS.issueUsers),
});
export type TCreateCertIssuance = z.input<typeof ZCreateCertIssuance>;
export const ZResubmitCertIssuance = ZCreateCertIssuance.omit({ certId: true });

export const ZCertIssuanceListQuery = ZListQuery.extend({
  state: z.enum(CERT_ISSUANCE_STATES).optional(),
  certId: z.uuid().optional(),
});
export type TCertIssuanceListQuery = z.input<typeof ZCertIssuanceListQuery>;

export const ZCertIssuance = z.object({
  id: z.string(),
  certId: z.string(),
  certName: z.string(),
  awardFor: z.string(),
  issueDate: z.string().describe('yyyy-MM-dd'),
  source: z.enum(CERT_SOURCES),
  state: z.enum(CERT_ISSUANCE_STATES),
  /** The last refusal's reason, while refused. */
  refuseReason: z.string().nullable(),
  /** The review record that waits, while pending: its issuer withdraws it with `DELETE review?reviewId`. */
  pendingReviewId: z.string().nullable(),
  issuerId: z.string(),
  issuerName: z.string(),
  holderCount: z.number().int(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TCertIssuance = z.infer<typeof ZCertIssuance>;

/** A holder's certificate. `number` is null until its issuance is issued. */
export const ZUserCert = z.object({
  id: z.string(),
  issuanceId: z.string(),
  certId: z.string(),
  certName: z.string(),
  certType: z.enum(CERT_TYPES),
  userId: z.string(),
  username: z.string(),
  holderName: z.string(),
  awardFor: z.string(),
  number: z.string().nullable(),
  state: z.enum(USER_CERT_STATES),
  issuedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  /** The certificate that replaced this one after a correction. */
  replacedById: z.string().nullable(),
  replacedByNumber: z.string().nullable(),
  issuerName: z.string().describe('the customer that issued it'),
});
export type TUserCert = z.infer<typeof ZUserCert>;

export const ZCertIssuanceDetail = ZCertIssuance.extend({ holders: z.array(ZUserCert) });
export type TCertIssuanceDetail = z.infer<typeof ZCertIssuanceDetail>;

export const ZUserCertListQuery = ZListQuery.extend({
  number: z.string().trim().max(40).optional(),
  certId: z.uuid().optional(),
  state: z.enum(USER_CERT_STATES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
}).describe('`keyword` matches the holder’s name or username');
export type TUserCertListQuery = z.input<typeof ZUserCertListQuery>;

export const ZRevokeRequest = z.object({ reason: z.string().trim().min(1).max(CERT_LIMITS.reason) });
export const ZReissueRequest = z.object({
  holderName: z.string().trim().min(1).max(CERT_LIMITS.name).optional(),
  awardFor: z.string().trim().min(1).max(CERT_LIMITS.awardFor).optional(),
  reason: z.string().trim().min(1).max(CERT_LIMITS.reason).describe('why the old one is revoked'),
});
export type TReissueRequest = z.infer<typeof ZReissueRequest>;

export const ZCertReviewDecision = z.discriminatedUnion('decision', [
  z.object({ certIssId: z.uuid(), decision: z.literal('approve') }),
  z.object({
    certIssId: z.uuid(),
    decision: z.literal('refuse'),
    reason: z.string().trim().min(1).max(CERT_LIMITS.reason),
  }),
]);
export type TCertReviewDecision = z.infer<typeof ZCertReviewDecision>;

/** A review record: one issuance's request for review and, once decided, the auditor's decision. */
export const ZCertReview = z.object({
  id: z.string(),
  issuanceId: z.string(),
  state: z.enum(['pending', 'approved', 'refused', 'withdrawn']),
  reason: z.string().nullable(),
  auditorId: z.string().nullable(),
  auditorName: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TCertReview = z.infer<typeof ZCertReview>;
/** The review queue: pending issuances with their review's id. */
export const ZCertReviewItem = ZCertIssuance.extend({ reviewId: z.string() });
export type TCertReviewItem = z.infer<typeof ZCertReviewItem>;

export const ZCertAuditor = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  realName: z.string(),
  createdAt: z.string(),
});
export type TCertAuditor = z.infer<typeof ZCertAuditor>;
export const ZAddAuditorRequest = z.object({ userId: z.uuid() });
export const ZCertSettings = z.object({ reviewRequired: z.boolean() });
export type TCertSettings = z.infer<typeof ZCertSettings>;

export const ZCertVerifyQuery = z.object({ number: z.string().trim().min(1).max(40) });
/** What anyone may learn from a number: enough to tell a genuine certificate, nothing to find others. */
export const ZCertVerification = z.object({
  number: z.string(),
  state: z.enum(USER_CERT_STATES),
  holderName: z.string(),
  certName: z.string(),
  awardFor: z.string(),
  issuerName: z.string(),
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type TCertVerification = z.infer<typeof ZCertVerification>;

export const ZVerifyCredentialRequest = z.object({ credential: z.string().min(1).max(CERT_LIMITS.credentialBytes) });
/**
 * A credential file's check: `genuine` when its proof verifies with the platform's key and it names a certificate
 * the platform issued; the certificate's current state then says whether it was revoked since.
 */
export const ZCredentialVerification = z.object({
  genuine: z.boolean(),
  certificate: ZCertVerification.nullable(),
});
export type TCredentialVerification = z.infer<typeof ZCredentialVerification>;
