import { ROLES } from './constants.js';

/** The longest stored link. */
export const LINK_MAX = 500;

/** The drag behind a slide: at most this many points, within the two minutes a puzzle lives. */
export const CAPTCHA_TRACE = { maxPoints: 1000, maxMs: 120_000 } as const;

/**
 * Input patterns and form limits of the specification (sections 5 and 9), shared by the server's
 * schemas and the web forms. Every pattern is tested against tables of accepted and refused examples.
 */

/** Weak password: 6–20 visible ASCII characters (no space, no control or non-ASCII characters). */
export const WEAK_PASSWORD = /^[\x21-\x7e]{6,20}$/;

/** Simple password: 6–20 visible ASCII characters with at least one lowercase, one uppercase and one digit. */
export const SIMPLE_PASSWORD = /^(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\D*\d)[\x21-\x7e]{6,20}$/;

/** Strong password: 8–20 visible ASCII characters from at least three of upper, lower, digit, special. */
export function isStrongPassword(value: string): boolean {
  if (!/^[\x21-\x7e]{8,20}$/.test(value)) return false;
  const classes = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z\d]/].filter((re) => re.test(value)).length;
  return classes >= 3;
}

export type PasswordStrength = 'weak' | 'simple' | 'strong';

export function isValidPassword(value: string, strength: PasswordStrength): boolean {
  if (strength === 'strong') return isStrongPassword(value);
  return (strength === 'simple' ? SIMPLE_PASSWORD : WEAK_PASSWORD).test(value);
}

/**
 * Which of the three rules a form uses (DECISIONS leaves it to the product; docs/api.md, "Decisions"):
 * - a password an administrator sets for someone else (an initial password, a reset, an import) is **weak**: the
 *   person must replace it at the next sign-in, so it only has to be typeable;
 * - a password people choose for themselves (sign-up, reset by code, change, replacing an administrator's) is
 *   **simple**, and **strong** for the accounts that administer others (the roles of `PRIVILEGED_ROLES`).
 * Sign-in accepts whatever was set.
 */
export const ADMIN_SET_PASSWORD_RULE: PasswordStrength = 'weak';

/** Roles whose own password follows the strong rule: they can reach other people's data. */
export const PRIVILEGED_ROLES: readonly string[] = [
  ROLES.super,
  ROLES.customerAdmin,
  ROLES.subCustomerAdmin,
  ROLES.schoolAdmin,
  ROLES.organizeAdmin,
];

/** The rule of a password chosen by the holder of these roles for themselves. */
export function ownPasswordRule(roles: readonly string[]): PasswordStrength {
  return roles.some((role) => PRIVILEGED_ROLES.includes(role)) ? 'strong' : 'simple';
}

/** Phone: exactly 11 digits starting with 1. */
export const PHONE = /^1\d{10}$/;

/** Username: letters, digits, '-' and '_'. */
export const USERNAME = /^[A-Za-z0-9_-]+$/;

/** Email: standard format, lowercase, no Chinese (no non-ASCII) characters. */
export const EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;

/** Customer code: 6–20 letters or digits. */
export const CUSTOMER_CODE = /^[A-Za-z0-9]{6,20}$/;

/** Batch registration username: 3–30 letters and digits. */
export const BATCH_USERNAME = /^[A-Za-z0-9]{3,30}$/;

/** Batch registration password: letters and digits combined (both present), at least 8 and at most 20. */
export const BATCH_PASSWORD = /^(?=[^A-Za-z]*[A-Za-z])(?=\D*\d)[A-Za-z0-9]{8,20}$/;

/** A version segment as typed in the version input: 0–99, no leading zero. */
export const VERSION_SEGMENT_INPUT = /^(0|[1-9]\d?)$/;

/** Course code: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L). */
export const COURSE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const COURSE_CODE = new RegExp(`^[${COURSE_CODE_ALPHABET}]{6}$`);

/**
 * A phone or an email as it is stored and compared: an email in lower case (spec 5 asks for lowercase emails, and
 * people type `Ada@School.cn` as often as `ada@school.cn`), a phone as typed; surrounding spaces dropped.
 */
export function normalizeContact(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
}

/**
 * The contact field (phone or email) of sign-up, reset, code sign-in and binding: a phone of 11 characters (spec 9,
 * "contact field max 11", which is what a phone has) or an email of at most `LIMITS.email`, in any case.
 */
export function isContact(value: string): boolean {
  const contact = normalizeContact(value);
  return (
    (contact.length <= LIMITS.contact && PHONE.test(contact)) || (contact.length <= LIMITS.email && EMAIL.test(contact))
  );
}

/** Image file extensions accepted by image uploads; the variant accepts bmp instead of gif. */
export const IMAGE_TYPES = ['jpg', 'png', 'gif', 'jpeg'] as const;
export const IMAGE_TYPES_BMP = ['jpg', 'png', 'bmp', 'jpeg'] as const;
export const BANNER_TYPES = ['jpg', 'png', 'bmp'] as const;

export function hasExtension(fileName: string, allowed: readonly string[]): boolean {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  return fileName.includes('.') && allowed.includes(ext);
}

/**
 * A link an administrator or author stores and the app shows as a link (banners, footer sites, a course's AI
 * links): http or https to a host, never `javascript:`, `data:` or a relative path.
 */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** Only letters, digits, CJK, space, '-', '_' and '.' may appear in a renamed file or folder. */
export const RENAME_SAFE = /^[\p{L}\p{N} ._-]+$/u;

export function isSafeName(value: string): boolean {
  return value.trim().length > 0 && value.length <= LIMITS.rename && RENAME_SAFE.test(value) && !/^\.+$/.test(value);
}

const MB = 1024 * 1024;

/** Lengths, counts and sizes of sections 5 and 9. Sizes are in bytes. */
export const LIMITS = {
  /** The contact field as a phone (spec 9). */
  contact: 11,
  /** The contact field as an email: spec 9's 11 characters fit a phone, not most addresses. */
  email: 50,
  customerCode: 20,
  loginPassword: 20,
  nickname: 10,
  realName: 20,
  schoolName: 20,
  notes: 50,
  remark: 100,
  courseTitle: 100,
  chapterTitle: 100,
  rename: 30,
  treeTitle: 30,
  description: 300,
  tags: 10,
  coverBytes: 2 * MB,
  sectionsPerCourse: 100,
  tasksPerSection: 10,
  resourcesPerSection: 10,
  resourceBytes: 2 * 1024 * MB,
  bannerBytes: 3 * MB,
  avatarBytes: 5 * MB,
  homeProjectTypes: 6,
  annotationCategories: 50,
  annotationFileBytes: 100 * MB,
  projectUploadBytes: 100 * MB,
  datasetName: 100,
  datasetDescription: 1000,
  certificateImageBytes: 5 * MB,
  certificateNumberLetters: 10,
  eventImageBytes: 10 * MB,
  eventVideoBytes: 500 * MB,
  declarationPhotoBytes: 2 * MB,
  courseCode: 6,
  phone: 11,
  scoreMin: 0,
  scoreMax: 100,
  versionSegmentMax: 99,
  projectVersionSegmentMax: 100,
  studentPasswordMin: 6,
  studentPasswordMax: 20,
  sliderMin: 0,
  sliderMax: 281,
} as const;

/** List paging (DECISIONS: page is 1-based, size defaults to 20, at most 100). */
export const PAGING = { defaultSize: 20, maxSize: 100 } as const;
