import { z } from 'zod';
import { CONTAINER_TYPES } from './constants.js';
import { ZHttpUrl, ZOptionalHttpUrl } from './links.js';
import { updateOf } from './update-schema.js';
import { CUSTOMER_CODE, LIMITS, USERNAME } from './validation.js';

const quota = z.number().int().min(0).max(10_000_000).nullable().describe('null: no limit');

/** A customer's quotas, in the order its forms show them. */
export const QUOTA_FIELDS = [
  'schoolQuota',
  'teacherQuota',
  'studentQuota',
  'containerConcurrency',
  'maxStartsPerPerson',
  'studyConcurrency',
] as const;
export type QuotaField = (typeof QUOTA_FIELDS)[number];

export const ZQuotas = z.object({
  schoolQuota: quota,
  teacherQuota: quota,
  studentQuota: quota,
  containerConcurrency: quota,
  maxStartsPerPerson: quota,
  studyConcurrency: quota,
} satisfies Record<QuotaField, typeof quota>);

/** Region by administrative-division codes: country (`CN`), province, city, district (see the area-children call). */
export const ZRegion = z.object({
  country: z.string().max(12),
  province: z.string().max(12),
  city: z.string().max(12),
  district: z.string().max(12),
});

/**
 * What a customer is given besides quotas: container types and course packages. The packages are those of the
 * course catalogue (`/api/v1/courses/packages`), named by id: the customer's list and each package's customers are
 * one record, whichever side sets it.
 */
export const ZCustomerOffer = z.object({
  containerTypes: z.array(z.enum(CONTAINER_TYPES)).max(CONTAINER_TYPES.length),
  coursePackages: z.array(z.uuid()).max(50).describe('ids of the course packages given to the customer'),
});

export const ZCustomer = ZQuotas.extend(ZRegion.shape)
  .extend(ZCustomerOffer.shape)
  .extend({
    id: z.string(),
    parentId: z.string().nullable(),
    code: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    remark: z.string(),
    adminUsername: z.string(),
    adminName: z.string(),
    creator: z.string().nullable().describe('username of the administrator who created it'),
    coursePackages: z.array(z.object({ id: z.string(), name: z.string() })).describe('the course packages given to it'),
    schoolCount: z.number().int(),
    createdAt: z.string(),
  });
export type TCustomer = z.infer<typeof ZCustomer>;

export const ZCreateCustomerRequest = ZQuotas.partial()
  .extend(ZRegion.partial().shape)
  .extend(ZCustomerOffer.partial().shape)
  .extend({
    code: z.string().regex(CUSTOMER_CODE, '6–20 letters or digits'),
    name: z.string().trim().min(1).max(50),
    remark: z.string().trim().max(LIMITS.notes).default(''),
    adminUsername: z.string().trim().min(3).max(30).regex(USERNAME),
    adminName: z.string().trim().min(1).max(LIMITS.realName),
    adminPassword: z.string().min(1).max(200).describe('base64 of the UTF-8 password (6–20 characters)'),
  });
export type TCreateCustomerRequest = z.infer<typeof ZCreateCustomerRequest>;

export const ZUpdateCustomerRequest = ZQuotas.partial()
  .extend(ZRegion.partial().shape)
  .extend(ZCustomerOffer.partial().shape)
  .extend({
    name: z.string().trim().min(1).max(50).optional(),
    remark: z.string().trim().max(LIMITS.notes).optional(),
  });

/**
 * What a sub-customer under one customer may be given: that customer's quotas (null: no limit) and container types,
 * narrowed by every customer above it. A sub-customer's quotas stay within these (null only where the parent has no
 * limit) and its container types among these.
 */
export const ZSubCustomerLimits = ZQuotas.extend({ containerTypes: ZCustomerOffer.shape.containerTypes });
export type TSubCustomerLimits = z.infer<typeof ZSubCustomerLimits>;

export const ZSwitchRequest = z.object({ enabled: z.boolean() });

export const ZSchool = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string().describe('the customer (or sub-customer) the school belongs to'),
  name: z.string(),
  eduStages: z.array(z.string()),
  enabled: z.boolean(),
  notes: z.string(),
  listed: z.boolean().describe("found in the profile's school search by learners of the public space"),
  createdAt: z.string(),
});
export type TSchool = z.infer<typeof ZSchool>;

export const EDU_STAGES = ['primary', 'junior', 'senior', 'vocational', 'university'] as const;

export const ZCreateSchoolRequest = z.object({
  name: z.string().trim().min(1).max(50),
  eduStages: z.array(z.enum(EDU_STAGES)).min(1).max(EDU_STAGES.length),
  notes: z.string().trim().max(LIMITS.notes).default(''),
  listed: z
    .boolean()
    .optional()
    .describe("found in the profile's school search by learners of the public space (off unless set)"),
});
/** Changes only the fields sent. */
export const ZUpdateSchoolRequest = updateOf(ZCreateSchoolRequest);

export const ZSortedListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional(),
  sort: z
    .string()
    .regex(/^\w+,(asc|desc)$/)
    .optional(),
});

/** Years of each education stage: a class graduates after its last grade. */
export const STAGE_YEARS: Record<(typeof EDU_STAGES)[number], number> = {
  primary: 6,
  junior: 3,
  senior: 3,
  vocational: 3,
  university: 4,
};

/** A school education stage (`GET /api/v1/school_stage`): the fixed list schools and classes are built on. */
export const ZSchoolStage = z.object({
  key: z.enum(EDU_STAGES),
  name: z.string().describe("the stage's name in the request language"),
  years: z.number().int().describe('grades of the stage: a class graduates after the last'),
  schools: z.number().int().describe("schools of the caller's scope that teach the stage"),
});
export type TSchoolStage = z.infer<typeof ZSchoolStage>;

/** The year a class leaves its stage: the start year (grade 1) plus the stage's years. */
export function graduateYearOf(eduStage: (typeof EDU_STAGES)[number], startYear: number): number {
  return startYear + STAGE_YEARS[eduStage];
}

/** `deleted`: a class without students taken out of every list (irreversible, like `dismissed`). */
export const CLASS_STATUSES = ['current', 'history', 'graduated', 'dismissed', 'deleted'] as const;

export const ZClass = z.object({
  id: z.string(),
  schoolId: z.string(),
  eduStage: z.enum(EDU_STAGES),
  grade: z.number().int(),
  className: z.string(),
  startYear: z.number().int(),
  graduateYear: z.number().int(),
  stuCount: z.number().int(),
  classStatus: z.enum(CLASS_STATUSES),
});
export type TClass = z.infer<typeof ZClass>;

/** Fields a class list sorts by (`sort=field,asc|desc`); without a sort it goes by stage, grade and name. */
export const CLASS_SORT_FIELDS = ['className', 'grade', 'startYear', 'stuCount', 'createdAt'] as const;

export const ZClassListQuery = z.object({
  status: z.enum(['current', 'history']).default('current'),
  schoolId: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(100).optional().describe('part of the class name'),
  sort: z
    .string()
    .regex(new RegExp(`^(${CLASS_SORT_FIELDS.join('|')}),(asc|desc)$`))
    .optional(),
});
export type TClassListQuery = z.infer<typeof ZClassListQuery>;

/** A class as the pickers of other forms show it (every current class of the scope, unpaged). */
export const ZClassOption = ZClass.pick({ id: true, schoolId: true, eduStage: true, grade: true, className: true });
export type TClassOption = z.infer<typeof ZClassOption>;

export const ZCreateClassRequest = z.object({
  schoolId: z.uuid(),
  eduStage: z.enum(EDU_STAGES),
  grade: z.number().int().min(1).max(6),
  className: z.string().trim().min(1).max(30),
});

/** A class's statistics for its head teacher: students, daily active students, courses given to it. */
export const ZClassStatistics = z.object({
  classId: z.string(),
  className: z.string(),
  students: z.number().int(),
  courses: z.number().int(),
  activeByDay: z.array(z.object({ date: z.string(), users: z.number().int() })),
});
export type TClassStatistics = z.infer<typeof ZClassStatistics>;

export const ZUpgradeClassesRequest = z.object({ classIds: z.array(z.uuid()).min(1).max(1000) });

export const ZPerson = z.object({
  id: z.string(),
  username: z.string(),
  realName: z.string(),
  phone: z.string().nullable(),
  enabled: z.boolean(),
  schoolId: z.string().nullable(),
  createdAt: z.string(),
});

export const ZTeacher = ZPerson.extend({
  remark: z.string(),
  certified: z.boolean(),
  alsoTeacher: z.boolean(),
  creator: z.string().nullable().describe('username of the administrator who created the teacher'),
});
export type TTeacher = z.infer<typeof ZTeacher>;

export const ZStudent = ZPerson.extend({ classId: z.string().nullable(), schoolNumber: z.string().nullable() });
export type TStudent = z.infer<typeof ZStudent>;

/** A student as the teaching side's student management shows one: with the names of their class and school. */
export const ZStudentDetail = ZStudent.extend({ className: z.string().nullable(), schoolName: z.string() });
export type TStudentDetail = z.infer<typeof ZStudentDetail>;

const ZAdminPassword = z.string().min(1).max(200).describe('base64 of the UTF-8 password (6–20 characters)');

export const ZCreateTeacherRequest = z.object({
  schoolId: z.uuid(),
  username: z.string().trim().min(3).max(30).regex(USERNAME),
  realName: z.string().trim().min(1).max(LIMITS.realName),
  phone: z
    .string()
    .regex(/^1\d{10}$/)
    .optional(),
  remark: z.string().trim().max(LIMITS.remark).default(''),
  password: ZAdminPassword,
});

export const ZCreateStudentRequest = z.object({
  classId: z.uuid(),
  username: z.string().trim().min(3).max(30).regex(USERNAME),
  realName: z.string().trim().min(1).max(LIMITS.realName),
  schoolNumber: z.string().trim().max(30).optional(),
  password: ZAdminPassword,
});

export const ZUpdateTeacherRequest = updateOf(ZCreateTeacherRequest.pick({ realName: true, remark: true })).extend({
  phone: z
    .string()
    .regex(/^1\d{10}$/)
    .nullable()
    .optional(),
  alsoTeacher: z
    .boolean()
    .optional()
    .describe('for a school administrator who also teaches: false ends the teaching (and removes the teacher)'),
});
export const ZUpdateStudentRequest = updateOf(ZCreateStudentRequest.pick({ realName: true, classId: true })).extend({
  schoolNumber: z.string().trim().max(30).nullable().optional(),
});

export const ZResetPasswordByAdminRequest = z.object({ password: ZAdminPassword });

/** Navigation entries and features a side (teacher or student) may be given by its institution. */
export const MODULES = [
  'courses',
  'projects',
  'datasets',
  'events',
  'ai',
  'groups',
  'mall',
  'books',
  'hardware',
] as const;

/** The modules each side of a customer may use: the navigation entries and features its teachers and students see. */
export const ZSideModules = z.object({ teacher: z.array(z.enum(MODULES)), student: z.array(z.enum(MODULES)) });
export type TSideModules = z.infer<typeof ZSideModules>;

export const ZInstitutionHome = z.object({
  custcode: z.string(),
  name: z.string(),
  banners: z.array(z.object({ imageUrl: z.string(), link: z.string() })).max(3),
  projectTypes: z.array(z.string()).max(LIMITS.homeProjectTypes),
  footerSites: z.array(z.object({ name: z.string(), url: z.string() })),
  modules: ZSideModules,
});
export type TInstitutionHome = z.infer<typeof ZInstitutionHome>;

/** A container type as the platform runs it: limits of this server, default weekly minutes, customers offered it. */
export const ZContainerTypeConfig = z.object({
  runtimeType: z.enum(CONTAINER_TYPES),
  cpu: z.number(),
  memoryMb: z.number().int(),
  weeklyMinutes: z.number().int().describe('for customers that set none: the platform default, else the deployment'),
  deploymentWeeklyMinutes: z.number().int().describe('COMPUTE_WEEKLY_MINUTES_<TYPE> of the configuration'),
  customized: z.boolean().describe('a super administrator set the platform default'),
  customers: z.number().int().describe('customers offered this type'),
});
export type TContainerTypeConfig = z.infer<typeof ZContainerTypeConfig>;

/** A week has 10,080 minutes. */
export const ZSetContainerTypeRequest = z.object({
  runtimeType: z.enum(CONTAINER_TYPES),
  weeklyMinutes: z.number().int().min(0).max(10_080).nullable().describe('null: back to the deployment default'),
});

/**
 * The institution's own home content. Its modules are the super administrator's to set (unknown fields are
 * refused), and a body that changes nothing is refused too.
 */
export const ZUpdateInstitutionHomeRequest = z
  .strictObject({
    bannerLinks: z.array(ZOptionalHttpUrl).max(3).optional(),
    projectTypes: z
      .array(z.string().trim().min(1).max(20))
      .max(LIMITS.homeProjectTypes)
      .refine((types) => new Set(types).size === types.length, 'no duplicates')
      .optional(),
    footerSites: z
      .array(z.object({ name: z.string().trim().min(1).max(30), url: ZHttpUrl }))
      .max(10)
      .optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'nothing to change');
