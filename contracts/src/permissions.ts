import { ROLES, type Role } from './constants.js';

const { super: SUPER, customerAdmin, subCustomerAdmin, schoolAdmin, organizeAdmin, teacher, student } = ROLES;
const INSTITUTION_ADMINS = [SUPER, customerAdmin, subCustomerAdmin] as const;
const SCHOOL_ADMINS = [...INSTITUTION_ADMINS, schoolAdmin, organizeAdmin] as const;

/**
 * Who may do what (spec section 6): every permission and the roles that hold it. Routes declare the permission
 * they need; the server's guard and the web's menus both read this one table.
 */
export const PERMISSIONS = {
  'outbox.view': [SUPER],
  /** Platform name and logo, sign-in switches, container types. */
  'system.manage': [SUPER],
  'customer.manage': [SUPER],
  'subCustomer.manage': [SUPER, customerAdmin],
  /** Creating schools and switching them on or off. */
  'school.manage': [...INSTITUTION_ADMINS],
  /** Seeing and editing schools: school and organisation administrators only their own. */
  'school.edit': [...SCHOOL_ADMINS],
  'user.manage': [...INSTITUTION_ADMINS],
  'period.manage': [...SCHOOL_ADMINS],
  'class.manage': [...SCHOOL_ADMINS],
  'teacher.manage': [...SCHOOL_ADMINS],
  'student.manage': [...SCHOOL_ADMINS],
  /** The teaching side's student management: search, detail, password reset, switch (teachers: their school). */
  'studentAccount.manage': [teacher, ...SCHOOL_ADMINS],
  /** A teacher's own classes: creating one in their school, headed by them, and listing those they head. */
  'class.teach': [teacher],
  /** A class's statistics: its head teacher, or the administrators of its school. */
  'classStats.view': [teacher, ...SCHOOL_ADMINS],
  'log.view': [...SCHOOL_ADMINS],
  'statistics.view': [...SCHOOL_ADMINS],
  'certification.review': [SUPER, customerAdmin, subCustomerAdmin, schoolAdmin],
  /** Certificate templates, and the issuances of the caller's scope (a school administrator: their school's). */
  'certificate.manage': [...INSTITUTION_ADMINS, schoolAdmin],
  /** The customer's certificate auditors and whether issuances wait for review: a rule of the whole institution. */
  'certificateReview.manage': [...INSTITUTION_ADMINS],
  /**
   * Issuing certificates from the customer's templates: teachers to the students of their classes, courses and
   * schedules, administrators to those of their scope (spec 6: teachers choose certificates).
   */
  'certificate.issue': [teacher, ...INSTITUTION_ADMINS, schoolAdmin],
  /** Organising events and contests: their settings, the qualification audit, judges, review and results. */
  'event.manage': [...INSTITUTION_ADMINS],
  /** Registering a team for an event and submitting its works (judges are named per event, not by role). */
  'event.take': [student, teacher],
  'shield.manage': [SUPER, customerAdmin],
  'sso.manage': [SUPER, customerAdmin],
  'course.learn': [student, teacher, ...SCHOOL_ADMINS],
  /**
   * Writing courses; the service also demands a certified teacher to create one. Institution administrators write
   * the courses they own: the starter courses they imported.
   */
  'course.author': [teacher, ...INSTITUTION_ADMINS],
  /** Importing the starter courses shipped with the platform into the caller's customer, as their own copy. */
  'course.import': [...INSTITUTION_ADMINS],
  /** Categories, difficulties, tags, packages, applications and taking courses down. */
  'course.catalogue': [SUPER],
  /** The administrators' list of courses with their states: everything, or their customer's subtree. */
  'courseList.view': [...INSTITUTION_ADMINS],
  'compute.manage': [...INSTITUTION_ADMINS],
  /**
   * Teaching schedules, their tasks and scores, and the classes and students of the teacher's own school: every
   * teacher, certified or not (spec 6 asks certification only to create courses).
   */
  'schedule.teach': [teacher],
  /** The schedules of the caller's scope, read-only, for administrators (`admin_organize/schedule`). */
  'schedule.oversee': [...SCHOOL_ADMINS],
  /** Custom roles: creating, changing, switching and deleting them (assigning one is `user.manage`). */
  'role.manage': [SUPER],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(roles: readonly string[], permission: Permission): boolean {
  const allowed: readonly string[] = PERMISSIONS[permission];
  return roles.some((role) => allowed.includes(role));
}

/** Every permission a role holds in the table. */
export function permissionsOfRole(role: string): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => hasPermission([role], p));
}

/**
 * A custom role an administrator account holds: the permissions of its built-in `baseRole` narrowed to
 * `permissions`, and none of them while the role is switched off. The account's other roles (a school
 * administrator's `ROLE_TEACHER`) keep theirs.
 */
export interface HeldCustomRole {
  baseRole: string;
  permissions: readonly string[];
  enabled: boolean;
}

/** `hasPermission` for an account that may hold a custom role: what the server's guard and the web's menus ask. */
export function hasEffectivePermission(
  roles: readonly string[],
  permission: Permission,
  custom: HeldCustomRole | null | undefined,
): boolean {
  if (!custom) return hasPermission(roles, permission);
  const others = roles.filter((role) => role !== custom.baseRole);
  if (hasPermission(others, permission)) return true;
  return custom.enabled && custom.permissions.includes(permission) && hasPermission([custom.baseRole], permission);
}
