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
  'shield.manage': [SUPER, customerAdmin],
  'sso.manage': [SUPER, customerAdmin],
  'course.learn': [student, teacher, ...SCHOOL_ADMINS],
  /** Writing courses; the service also demands a certified teacher to create one. */
  'course.author': [teacher],
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
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(roles: readonly string[], permission: Permission): boolean {
  const allowed: readonly string[] = PERMISSIONS[permission];
  return roles.some((role) => allowed.includes(role));
}
