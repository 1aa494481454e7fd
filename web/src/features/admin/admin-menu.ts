import type { Permission } from '@aiedu/contracts';
import type { ADMIN_PATHS } from '../../app/paths';

export type AdminScreen = keyof typeof ADMIN_PATHS;

export interface AdminMenuGroup {
  /** Key of the group's name in the `admin` namespace (`menu.<group>`). */
  group:
    'institution' | 'platform' | 'schools' | 'classes' | 'people' | 'courses' | 'certificates' | 'records' | 'security';
  /**
   * `fromTeaching`: teachers reach the screen from their own account menu; it alone does not make the administration
   * one of their products (their sign-in still lands on learning, without the product chooser).
   */
  items: { screen: AdminScreen; permission: Permission; fromTeaching?: true }[];
}

/**
 * The administration menu, grouped by object (UX.md "Administration"). Each entry names the permission of
 * the contracts' table that its calls need, so a role sees exactly the screens it may use.
 */
export const ADMIN_MENU: readonly AdminMenuGroup[] = [
  {
    group: 'institution',
    items: [
      { screen: 'customers', permission: 'customer.manage' },
      { screen: 'subCustomers', permission: 'subCustomer.manage' },
      { screen: 'institutionHome', permission: 'subCustomer.manage' },
      { screen: 'computeAllowances', permission: 'compute.manage' },
      { screen: 'periods', permission: 'period.manage' },
    ],
  },
  {
    group: 'platform',
    items: [
      { screen: 'systemConfig', permission: 'system.manage' },
      { screen: 'containerTypes', permission: 'system.manage' },
      { screen: 'modules', permission: 'customer.manage' },
    ],
  },
  { group: 'schools', items: [{ screen: 'schools', permission: 'school.edit' }] },
  {
    group: 'classes',
    items: [
      { screen: 'classes', permission: 'class.manage' },
      { screen: 'historyClasses', permission: 'class.manage' },
    ],
  },
  {
    group: 'people',
    items: [
      { screen: 'teachers', permission: 'teacher.manage' },
      { screen: 'students', permission: 'student.manage' },
    ],
  },
  {
    group: 'courses',
    items: [
      { screen: 'adminCourses', permission: 'courseList.view' },
      { screen: 'adminExperiments', permission: 'course.catalogue' },
      { screen: 'courseCategories', permission: 'course.catalogue' },
      { screen: 'courseDifficulties', permission: 'course.catalogue' },
      { screen: 'courseTags', permission: 'course.catalogue' },
      { screen: 'coursePackages', permission: 'course.catalogue' },
    ],
  },
  {
    group: 'certificates',
    items: [
      { screen: 'certificates', permission: 'certificate.manage' },
      { screen: 'certificateIssuance', permission: 'certificate.issue', fromTeaching: true },
    ],
  },
  {
    group: 'records',
    items: [
      { screen: 'logs', permission: 'log.view' },
      { screen: 'statistics', permission: 'statistics.view' },
    ],
  },
  {
    group: 'security',
    items: [
      { screen: 'adminUsers', permission: 'user.manage' },
      { screen: 'customRoles', permission: 'role.manage' },
      { screen: 'certifications', permission: 'certification.review' },
      { screen: 'addressRanges', permission: 'shield.manage' },
      { screen: 'identityProviders', permission: 'sso.manage' },
      { screen: 'outbox', permission: 'outbox.view' },
    ],
  },
];

/** The permission a screen needs. */
export function screenPermission(screen: AdminScreen): Permission {
  for (const group of ADMIN_MENU) for (const item of group.items) if (item.screen === screen) return item.permission;
  throw new Error(`No admin screen ${screen}`);
}

/** The groups and entries of the permissions the user holds (`can`); groups left empty are dropped. */
export function visibleMenu(can: (permission: Permission) => boolean): AdminMenuGroup[] {
  return ADMIN_MENU.map((group) => ({
    ...group,
    items: group.items.filter((item) => can(item.permission)),
  })).filter((group) => group.items.length > 0);
}
