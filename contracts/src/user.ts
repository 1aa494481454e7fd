import { z } from 'zod';
import { LIMITS, normalizeContact } from './validation.js';

export const VERIFY_SCENES = ['REGISTER', 'RESET_PWD', 'LOGIN', 'BIND'] as const;

/** A phone or an email as typed, read as it is stored and compared: an email in lower case (`normalizeContact`). */
export const ZContact = z.string().trim().min(1).max(100).overwrite(normalizeContact);

export const ZSendCodeRequest = z.object({
  scene: z.enum(VERIFY_SCENES),
  target: ZContact,
  type: z.enum(['email', 'phone', 'unknown']).optional().default('unknown'),
  custcode: z.string().max(LIMITS.customerCode).optional().default(''),
});

const ZCode = z.string().regex(/^\d{6}$/, 'six digits');
const ZBase64Password = z.string().min(1).max(200).describe('base64 of the UTF-8 password');

export const ZRegisterByPhoneRequest = z.object({
  phone: z.string().regex(/^1\d{10}$/),
  password: ZBase64Password,
  verifyCode: ZCode,
});

export const ZCodeLoginRequest = z.object({
  user: ZContact.describe('phone or email'),
  verifyCode: ZCode,
  custcode: z.string().max(LIMITS.customerCode).optional().default(''),
});

export const ZResetPasswordRequest = z.object({
  user: ZContact.describe('phone or email'),
  password: ZBase64Password,
  verifyCode: ZCode,
  custcode: z.string().max(LIMITS.customerCode).optional().default(''),
});

export const ZChangePasswordRequest = z.object({ oriPasswd: ZBase64Password, newPasswd: ZBase64Password });
export const ZModifyPasswordRequest = z.object({ pwd: ZBase64Password, newPwd: ZBase64Password });
export const ZDefaultPasswordRequest = z.object({ newPasswd: ZBase64Password });

export const GENDERS = ['male', 'female', 'unknown'] as const;

export const ZUserInfo = z.object({
  id: z.string(),
  username: z.string(),
  domainId: z.string().nullable().describe('The customer (tenant) id; null in the public space'),
  custcode: z.string(),
  roles: z.array(z.string()),
  nickname: z.string(),
  realName: z.string(),
  avatarUrl: z.string().nullable(),
  gender: z.enum(GENDERS),
  birthDay: z.string().nullable(),
  identity: z.enum(['teacher', 'student']).nullable(),
  areas: z.array(z.string()).describe('[province, city]'),
  schoolName: z.string(),
  signature: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  judges: z.boolean(),
  mustChangePassword: z.boolean(),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

export const ZUpdateUserInfoRequest = z.object({
  nickname: z.string().trim().max(LIMITS.nickname).optional(),
  realName: z.string().trim().max(LIMITS.realName).optional(),
  schoolName: z.string().trim().max(LIMITS.schoolName).optional(),
  gender: z.enum(GENDERS).optional(),
  birthDay: z.iso.date().nullable().optional(),
  identity: z.enum(['teacher', 'student']).optional(),
  province: z.string().trim().max(50).optional(),
  city: z.string().trim().max(50).optional(),
  signature: z.string().trim().max(LIMITS.description).optional(),
});
export type TUpdateUserInfoRequest = z.infer<typeof ZUpdateUserInfoRequest>;

export const ZOutboxItem = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'email']),
  target: z.string(),
  subject: z.string(),
  body: z.string(),
  deliveredBy: z.string(),
  delivered: z.boolean(),
  createdAt: z.string(),
});

export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional(),
});

export const ZPage = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
/** One page of a list, as every list call answers it (`ZPage`). */
export type TPage<T> = { list: T[]; total: number; page: number; size: number };

export const ZTeacherCertificationRequest = z.discriminatedUnion('region', [
  z.object({
    region: z.literal('mainland'),
    schoolName: z.string().trim().min(1).max(LIMITS.schoolName),
    teacherNumber: z.string().trim().min(1).max(50),
    idNumber: z.string().regex(/^\d{17}[\dXx]$/, 'an 18-character resident identity number'),
    phone: z.string().regex(/^1\d{10}$/),
    verifyCode: z.string().regex(/^\d{6}$/),
  }),
  z.object({
    region: z.literal('other'),
    schoolName: z.string().trim().min(1).max(LIMITS.schoolName),
    documentType: z.enum(['passport', 'other']),
    documentNumber: z.string().trim().min(3).max(50),
    contact: z.string().trim().min(3).max(100),
  }),
]);
export type TTeacherCertificationRequest = z.infer<typeof ZTeacherCertificationRequest>;

export const ZTeacherCertification = z.object({
  id: z.string(),
  userId: z.string(),
  region: z.enum(['mainland', 'other']),
  schoolName: z.string(),
  teacherNumber: z.string(),
  idNumber: z.string().describe('Masked: only the first 3 and last 4 characters are shown'),
  phone: z.string(),
  documentType: z.enum(['passport', 'other', 'id']),
  documentNumber: z.string().describe('Masked'),
  contact: z.string(),
  status: z.enum(['pending', 'certified', 'rejected']),
  reason: z.string(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type TTeacherCertification = z.infer<typeof ZTeacherCertification>;

export const ZReviewCertificationRequest = z.object({
  status: z.enum(['certified', 'rejected']),
  reason: z.string().trim().max(LIMITS.remark).default(''),
});

export const ZSchoolOption = z.object({ id: z.string(), name: z.string() });
