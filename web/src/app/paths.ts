/** Fixed addresses the spec names (section 2); the route table and the API client both use them. */
export const PATHS = {
  root: '/',
  home: '/home',
  protocol: '/home/protocol',
  privacy: '/home/privacy',
  login: '/portal/sign/login',
  userLogin: '/user/sign/login',
  superLogin: '/pjPortal/super/sign/login',
  thirdPartyLanding: '/iaif',
  learnerHome: '/pjedu/home',
  singleSignOn: '/pjedu/login',
  courseCentre: '/pjedu/course',
  profile: '/pjedu/userprofile',
  profileStudy: '/pjedu/userprofile?slideKey=study',
  register: '/portal/sign/register',
  resetPassword: '/portal/sign/reset-password',
  thirdPartyLogin: '/portal/sign/thirdparty',
  /** Where an identity provider sends the browser back: `/user/sign/login/<type>?code=…&state=…`. */
  thirdPartyCallback: '/user/sign/login/:type',
  myProjects: '/pjedu/my/projects',
  myCourses: '/pjedu/my/courses',
  schedules: '/pjedu/schedules',
  myContests: '/pjedu/my/contests',
  courses: '/pjedu/courses',
  pointsMall: '/pjedu/mall',
  /** Where a super administrator lands after signing in. */
  superHome: '/super/customers',
} as const;

/** The administration screens (spec section 2, "Admin screens"). */
export const ADMIN_PATHS = {
  customers: '/super/customers',
  subCustomers: '/admin/sub-customers',
  schools: '/admin/schools',
  periods: '/admin/periods',
  logs: '/admin/logs',
  classes: '/admin/classes',
  historyClasses: '/admin/history-classes',
  teachers: '/admin/teachers',
  students: '/admin/students',
  statistics: '/admin/statistics',
  institutionHome: '/admin/institution-home',
  computeAllowances: '/admin/compute-allowances',
  outbox: '/super/outbox',
  certifications: '/admin/teacher-certifications',
  addressRanges: '/admin/address-ranges',
  identityProviders: '/admin/identity-providers',
  adminCourses: '/admin/courses',
  adminExperiments: '/super/experiments',
  courseCategories: '/super/course-categories',
  courseDifficulties: '/super/course-difficulties',
  courseTags: '/super/course-tags',
  coursePackages: '/super/course-packages',
  adminUsers: '/admin/users',
  customRoles: '/super/roles',
  systemConfig: '/super/system-config',
  containerTypes: '/super/container-types',
  modules: '/super/modules',
} as const;

/** A project's editor (route `projectEditor`). */
export const projectEditorPath = (projectId: string) => `/pjedu/projects/${projectId}/editor`;
