import type { ComponentType } from 'react';
import type { ADMIN_PAGES } from '../features/admin/admin-pages';
import type { CATALOGUE_PAGES } from '../features/admin/catalogue-pages';
import type { CERTIFICATE_PAGES } from '../features/certificate/certificate-pages';
import type { TEMPLATE_PAGES } from '../features/certificate/template-pages';
import type { DATASET_PAGES } from '../features/dataset/dataset-pages';
import type { GROUP_PAGES } from '../features/group/group-pages';
import type { EVENT_PAGES } from '../features/event/event-pages';
import type { SECURITY_PAGES } from '../features/admin/security-pages';
import type { Namespace, ScreenKey } from '../locales/namespaces';
import { loadNamespaces } from './i18n';
import type { Module } from './module-gate';
import { ADMIN_PATHS, PATHS } from './paths';

/**
 * Every screen of the product (spec section 2) in one table. A screen with a `page` is real; the
 * others render the shared "coming soon" page until their feature lands. `area` marks the screen
 * a header entry leads to; the header links to it only once it has a page (see navigationLinks).
 */

export type NavArea = 'home' | 'courses' | 'projects' | 'datasets' | 'events' | 'ai' | 'groups';
export const NAV_AREAS: readonly NavArea[] = ['home', 'courses', 'projects', 'datasets', 'events', 'ai', 'groups'];

export type PageLoader = () => Promise<ComponentType>;

export interface Screen {
  /** Key of the screen's name in the `screens` namespace: its heading and document title. */
  id: ScreenKey;
  path: string;
  page?: PageLoader;
  area?: NavArea;
  /** The module an institution may switch off for a side; the page then refuses (see moduleGated). */
  module?: Module;
}

/**
 * A page's code and the text namespaces it reads, loaded together so it never renders untranslated, inside the
 * component library's theme (antd-scope.tsx).
 */
function page(load: () => Promise<ComponentType>, namespaces: readonly Namespace[] = []): PageLoader {
  return async () => {
    const [Page, scope] = await Promise.all([load(), import('./antd-scope'), loadNamespaces(namespaces)]);
    return scope.withAntdScope(Page);
  };
}

/** A page a visitor lands on, built without the component library so it loads fast (ui/shell-button.tsx). */
function plainPage(load: () => Promise<ComponentType>, namespaces: readonly Namespace[] = []): PageLoader {
  return async () => (await Promise.all([load(), loadNamespaces(namespaces)]))[0];
}

const homePage = plainPage(() => import('../features/home/home-page').then((m) => m.HomePage), ['home']);
const signPages = () => import('../features/sign/sign-pages');
const thirdPartyPages = () => import('../features/sign/third-party-pages');
const loginPage = page(() => signPages().then((m) => m.LoginPage), ['sign']);
const registerPage = page(() => signPages().then((m) => m.RegisterPage), ['sign']);
const resetPasswordPage = page(() => signPages().then((m) => m.ResetPasswordPage), ['sign']);
const superLoginPage = page(() => signPages().then((m) => m.SuperLoginPage), ['sign']);
const singleSignOnPage = page(() => signPages().then((m) => m.SingleSignOnPage), ['sign']);
const thirdPartyLoginPage = page(() => thirdPartyPages().then((m) => m.ThirdPartyLoginPage), ['sign']);
const thirdPartyCallbackPage = page(() => thirdPartyPages().then((m) => m.ThirdPartyCallbackPage), ['sign']);
const thirdPartyLandingPage = page(() => thirdPartyPages().then((m) => m.ThirdPartyLandingPage), ['sign']);
const profilePage = page(
  () => import('../features/profile/profile-page').then((m) => m.ProfilePage),
  ['profile', 'sign'],
);
const productChooserPage = page(() =>
  import('../features/products/product-chooser-page').then((m) => m.ProductChooserPage),
);
const protocolPage = plainPage(() => import('../features/legal/legal-page').then((m) => m.ProtocolPage), ['legal']);
const privacyPage = plainPage(() => import('../features/legal/legal-page').then((m) => m.PrivacyPage), ['legal']);

const coursePages = () => import('../features/course/course-pages');
// Visitors land on the course centre and on a course's page: each loads on its own, without the editor's code.
const courseCentrePage = page(
  () => import('../features/course/course-centre-page').then((m) => m.CourseCentrePage),
  ['course'],
);
const courseDetailPage = page(
  () => import('../features/course/course-detail-page').then((m) => m.CourseDetailPage),
  ['course', 'errors'],
);
const courseEditorPage = page(() => coursePages().then((m) => m.CourseEditorPage), ['course']);
const learningRecordPage = page(() => coursePages().then((m) => m.LearningRecordPage), ['course']);
const myCoursesPage = page(() => coursePages().then((m) => m.MyCoursesPage), ['course', 'schedule']);
// The schedule screens reuse the administration's list controls and confirmations, hence its texts.
const schedulePages = () => import('../features/schedule/schedule-pages');
const SCHEDULE_TEXTS: readonly Namespace[] = ['schedule', 'classroom', 'admin', 'errors'];
const schedulesPage = page(() => schedulePages().then((m) => m.SchedulesPage), SCHEDULE_TEXTS);
const scheduleDetailPage = page(() => schedulePages().then((m) => m.ScheduleDetailPage), SCHEDULE_TEXTS);
const scheduleStudentsPage = page(() => schedulePages().then((m) => m.ScheduleStudentsPage), SCHEDULE_TEXTS);
// The classroom shows sections and tasks as the course player does, and scores answers as the schedule page does.
const classroomPage = page(
  () => import('../features/classroom/classroom-pages').then((m) => m.ClassroomPage),
  [...SCHEDULE_TEXTS, 'course'],
);
const projectListPages = () => import('../features/project/project-list-page');
const projectsPage = page(() => projectListPages().then((m) => m.ProjectsPage), ['project']);
const myProjectsPage = page(() => projectListPages().then((m) => m.MyProjectsPage), ['project']);
const projectEditorPage = page(
  () => import('../features/project/project-editor-page').then((m) => m.ProjectEditorPage),
  ['project'],
);
// Datasets and groups: each feature's screens load as one chunk when the first of them opens.
const datasetPage = (name: keyof typeof DATASET_PAGES) =>
  page(
    () => import('../features/dataset/dataset-pages').then((m) => m.DATASET_PAGES[name]),
    ['dataset', 'project', 'errors'],
  );
// Certificates: the templates and their designer in one chunk; issuing, holders' and the public pages in another.
const templatePage = (name: keyof typeof TEMPLATE_PAGES) =>
  page(
    () => import('../features/certificate/template-pages').then((m) => m.TEMPLATE_PAGES[name]),
    ['certDesign', 'admin', 'errors'],
  );
const certificatePage = (name: keyof typeof CERTIFICATE_PAGES) =>
  page(
    () => import('../features/certificate/certificate-pages').then((m) => m.CERTIFICATE_PAGES[name]),
    ['certificate', 'admin', 'errors'],
  );
const groupPage = (name: keyof typeof GROUP_PAGES) =>
  page(() => import('../features/group/group-pages').then((m) => m.GROUP_PAGES[name]), ['group', 'errors']);
const eventPage = (name: keyof typeof EVENT_PAGES) =>
  page(
    () => import('../features/event/event-pages').then((m) => m.EVENT_PAGES[name]),
    ['event', 'eventReview', 'errors'],
  );
const securityPage = (name: keyof typeof SECURITY_PAGES) =>
  page(
    () => import('../features/admin/security-pages').then((m) => m.SECURITY_PAGES[name]),
    ['admin', 'security', 'errors'],
  );
const cataloguePage = (name: keyof typeof CATALOGUE_PAGES) =>
  page(
    () => import('../features/admin/catalogue-pages').then((m) => m.CATALOGUE_PAGES[name]),
    ['admin', 'catalogue', 'errors'],
  );
const adminPage = (name: keyof typeof ADMIN_PAGES, more: readonly Namespace[] = []) =>
  page(() => import('../features/admin/admin-pages').then((m) => m.ADMIN_PAGES[name]), ['admin', 'errors', ...more]);

const computeAllowancesPage = page(
  () => import('../features/admin/compute-allowances/compute-allowances-page').then((m) => m.ComputeAllowancesPage),
  ['admin', 'errors'],
);

export const comingSoonPage = plainPage(() =>
  import('../features/placeholders/coming-soon-page').then((m) => m.ComingSoonPage),
);

export const SCREENS: readonly Screen[] = [
  // Public pages and sign-in
  { id: 'home', path: PATHS.home, page: homePage, area: 'home' },
  { id: 'protocol', path: PATHS.protocol, page: protocolPage },
  { id: 'privacy', path: PATHS.privacy, page: privacyPage },
  { id: 'login', path: PATHS.login, page: loginPage },
  { id: 'userLogin', path: PATHS.userLogin, page: loginPage },
  { id: 'superLogin', path: PATHS.superLogin, page: superLoginPage },
  { id: 'thirdPartyLogin', path: PATHS.thirdPartyLogin, page: thirdPartyLoginPage },
  { id: 'thirdPartyCallback', path: PATHS.thirdPartyCallback, page: thirdPartyCallbackPage },
  { id: 'thirdPartyLanding', path: PATHS.thirdPartyLanding, page: thirdPartyLandingPage },
  { id: 'singleSignOn', path: PATHS.singleSignOn, page: singleSignOnPage },
  { id: 'register', path: PATHS.register, page: registerPage },
  { id: 'resetPassword', path: PATHS.resetPassword, page: resetPasswordPage },
  // Learner side
  { id: 'learnerHome', path: PATHS.learnerHome, page: homePage },
  { id: 'productChooser', path: '/pjedu/products', page: productChooserPage },
  { id: 'profile', path: PATHS.profile, page: profilePage },
  { id: 'myCourses', path: '/pjedu/my/courses', page: myCoursesPage, module: 'courses' },
  { id: 'myContests', path: '/pjedu/my/contests', page: eventPage('MyContestsPage'), module: 'events' },
  { id: 'myCases', path: '/pjedu/my/cases' },
  { id: 'activationCodes', path: '/pjedu/my/activation-codes' },
  { id: 'myProjects', path: '/pjedu/my/projects', page: myProjectsPage, module: 'projects' },
  { id: 'downloads', path: '/pjedu/downloads' },
  { id: 'projects', path: '/pjedu/projects', page: projectsPage, area: 'projects', module: 'projects' },
  { id: 'projectEditor', path: '/pjedu/projects/:projectId/editor', page: projectEditorPage, module: 'projects' },
  { id: 'datasets', path: '/pjedu/datasets', page: datasetPage('DatasetsPage'), area: 'datasets', module: 'datasets' },
  { id: 'datasetNew', path: '/pjedu/datasets/new', page: datasetPage('DatasetFormPage'), module: 'datasets' },
  {
    id: 'datasetEdit',
    path: '/pjedu/datasets/:datasetId/edit',
    page: datasetPage('DatasetFormPage'),
    module: 'datasets',
  },
  {
    id: 'datasetDetail',
    path: '/pjedu/datasets/:datasetId',
    page: datasetPage('DatasetDetailPage'),
    module: 'datasets',
  },
  { id: 'courseCentre', path: PATHS.courseCentre, page: courseCentrePage, module: 'courses' },
  { id: 'courses', path: '/pjedu/courses', page: courseCentrePage, area: 'courses', module: 'courses' },
  { id: 'courseDetail', path: '/pjedu/courses/:courseId', page: courseDetailPage, module: 'courses' },
  { id: 'courseEditor', path: '/pjedu/courses/:courseId/edit', page: courseEditorPage, module: 'courses' },
  { id: 'learningRecord', path: '/pjedu/courses/:courseId/record', page: learningRecordPage, module: 'courses' },
  { id: 'schedules', path: '/pjedu/schedules', page: schedulesPage, module: 'courses' },
  { id: 'scheduleDetail', path: '/pjedu/schedules/:scheduleId', page: scheduleDetailPage, module: 'courses' },
  {
    id: 'scheduleStudents',
    path: '/pjedu/schedules/:scheduleId/students',
    page: scheduleStudentsPage,
    module: 'courses',
  },
  { id: 'classroom', path: '/pjedu/schedules/:scheduleId/classroom', page: classroomPage, module: 'courses' },
  { id: 'groups', path: '/pjedu/groups', page: groupPage('GroupsPage'), area: 'groups', module: 'groups' },
  { id: 'groupDetail', path: '/pjedu/groups/:groupId', page: groupPage('GroupDetailPage'), module: 'groups' },
  { id: 'groupMembers', path: '/pjedu/groups/:groupId/members', page: groupPage('GroupMembersPage'), module: 'groups' },
  {
    id: 'groupProjects',
    path: '/pjedu/groups/:groupId/projects',
    page: groupPage('GroupProjectsPage'),
    module: 'groups',
  },
  { id: 'groupCourses', path: '/pjedu/groups/:groupId/courses', page: groupPage('GroupCoursesPage'), module: 'groups' },
  {
    id: 'groupDatasets',
    path: '/pjedu/groups/:groupId/datasets',
    page: groupPage('GroupDatasetsPage'),
    module: 'groups',
  },
  {
    id: 'groupBatchRegister',
    path: '/pjedu/groups/:groupId/batch-register',
    page: groupPage('GroupBatchRegisterPage'),
    module: 'groups',
  },
  { id: 'groupReview', path: '/pjedu/groups/:groupId/review', page: groupPage('GroupReviewPage'), module: 'groups' },
  {
    id: 'groupInvitation',
    path: '/pjedu/groups/:groupId/invitation',
    page: groupPage('GroupInvitationPage'),
    module: 'groups',
  },
  { id: 'events', path: '/pjedu/events', page: eventPage('EventsPage'), area: 'events', module: 'events' },
  { id: 'eventNew', path: '/pjedu/events/new', page: eventPage('EventFormPage'), module: 'events' },
  { id: 'eventEdit', path: '/pjedu/events/:eventId/edit', page: eventPage('EventFormPage'), module: 'events' },
  { id: 'eventDetail', path: '/pjedu/events/:eventId', page: eventPage('EventDetailPage'), module: 'events' },
  { id: 'myWorks', path: '/pjedu/events/:eventId/my-works', page: eventPage('MyWorksPage'), module: 'events' },
  {
    id: 'eventDeclaration',
    path: '/pjedu/events/:eventId/declaration',
    page: eventPage('DeclarationPage'),
    module: 'events',
  },
  {
    id: 'eventReviews',
    path: '/pjedu/events/:eventId/reviews',
    page: eventPage('ReviewsPage'),
    module: 'events',
  },
  {
    id: 'eventJudging',
    path: '/pjedu/events/:eventId/judging',
    page: eventPage('JudgingPage'),
    module: 'events',
  },
  {
    id: 'eventQualification',
    path: '/pjedu/events/:eventId/qualification',
    page: eventPage('QualificationPage'),
    module: 'events',
  },
  { id: 'certificateSearch', path: '/pjedu/certificate-search', page: certificatePage('CertificateSearchPage') },
  { id: 'aiArt', path: '/pjedu/ai/art', module: 'ai' },
  { id: 'aiHall', path: '/pjedu/ai/hall', area: 'ai', module: 'ai' },
  { id: 'books', path: '/pjedu/books', module: 'books' },
  { id: 'bookDetail', path: '/pjedu/books/:bookId', module: 'books' },
  { id: 'pointsMall', path: '/pjedu/mall', module: 'mall' },
  { id: 'exchangeRecords', path: '/pjedu/mall/exchanges', module: 'mall' },
  { id: 'help', path: '/pjedu/help' },
  { id: 'mmedu', path: '/pjedu/mmedu' },
  { id: 'xedu', path: '/pjedu/xedu' },
  // Open platform
  { id: 'openApiDocs', path: '/open/api-documents' },
  { id: 'openDocuments', path: '/open/documents' },
  { id: 'openTasks', path: '/open/tasks' },
  { id: 'openKeys', path: '/open/keys' },
  { id: 'openDomains', path: '/open/domains' },
  { id: 'openUsers', path: '/open/users' },
  // Administration (customers are created by super administrators)
  { id: 'customers', path: ADMIN_PATHS.customers, page: adminPage('CustomersPage') },
  { id: 'subCustomers', path: ADMIN_PATHS.subCustomers, page: adminPage('SubCustomersPage') },
  { id: 'schools', path: ADMIN_PATHS.schools, page: adminPage('SchoolsPage') },
  { id: 'periods', path: ADMIN_PATHS.periods, page: adminPage('PeriodsPage') },
  { id: 'logs', path: ADMIN_PATHS.logs, page: adminPage('LogsPage') },
  { id: 'classes', path: ADMIN_PATHS.classes, page: adminPage('ClassesPage') },
  { id: 'historyClasses', path: ADMIN_PATHS.historyClasses, page: adminPage('HistoryClassesPage') },
  { id: 'teachers', path: ADMIN_PATHS.teachers, page: adminPage('TeachersPage') },
  { id: 'students', path: ADMIN_PATHS.students, page: adminPage('StudentsPage') },
  { id: 'certificates', path: ADMIN_PATHS.certificates, page: templatePage('CertificateTemplatesPage') },
  { id: 'certificateNew', path: ADMIN_PATHS.certificateNew, page: templatePage('CertificateDesignerPage') },
  { id: 'certificateEdit', path: ADMIN_PATHS.certificateEdit, page: templatePage('CertificateDesignerPage') },
  {
    id: 'certificateIssuance',
    path: ADMIN_PATHS.certificateIssuance,
    page: certificatePage('CertificateIssuancePage'),
  },
  { id: 'myCertificates', path: '/admin/my-certificates', page: certificatePage('MyCertificatesPage') },
  { id: 'statistics', path: ADMIN_PATHS.statistics, page: adminPage('StatisticsPage', ['schedule']) },
  { id: 'institutionHome', path: ADMIN_PATHS.institutionHome, page: adminPage('InstitutionHomePage') },
  { id: 'computeAllowances', path: ADMIN_PATHS.computeAllowances, page: computeAllowancesPage },
  { id: 'adminUsers', path: ADMIN_PATHS.adminUsers, page: adminPage('AdminUsersPage') },
  { id: 'customRoles', path: ADMIN_PATHS.customRoles, page: adminPage('CustomRolesPage') },
  { id: 'systemConfig', path: ADMIN_PATHS.systemConfig, page: adminPage('SystemConfigPage') },
  { id: 'containerTypes', path: ADMIN_PATHS.containerTypes, page: adminPage('ContainerTypesPage') },
  { id: 'modules', path: ADMIN_PATHS.modules, page: adminPage('ModulesPage') },
  { id: 'certifications', path: ADMIN_PATHS.certifications, page: securityPage('CertificationsPage') },
  { id: 'addressRanges', path: ADMIN_PATHS.addressRanges, page: securityPage('AddressRangesPage') },
  { id: 'identityProviders', path: ADMIN_PATHS.identityProviders, page: securityPage('IdentityProvidersPage') },
  { id: 'outbox', path: ADMIN_PATHS.outbox, page: securityPage('OutboxPage') },
  { id: 'adminCourses', path: ADMIN_PATHS.adminCourses, page: cataloguePage('AdminCoursesPage') },
  { id: 'adminExperiments', path: ADMIN_PATHS.adminExperiments, page: cataloguePage('AdminExperimentsPage') },
  { id: 'courseCategories', path: ADMIN_PATHS.courseCategories, page: cataloguePage('CourseCategoriesPage') },
  { id: 'courseDifficulties', path: ADMIN_PATHS.courseDifficulties, page: cataloguePage('CourseDifficultiesPage') },
  { id: 'courseTags', path: ADMIN_PATHS.courseTags, page: cataloguePage('CourseTagsPage') },
  { id: 'coursePackages', path: ADMIN_PATHS.coursePackages, page: cataloguePage('CoursePackagesPage') },
];

export interface NavLinkTarget {
  area: NavArea;
  /** The area's screen once it is real; until then the area's introduction on the landing page. */
  to: string;
}

export function navigationLinks(screens: readonly Screen[] = SCREENS): NavLinkTarget[] {
  return NAV_AREAS.map((area) => {
    const screen = screens.find((s) => s.area === area && s.page);
    return { area, to: screen ? screen.path : `${PATHS.home}#${area}` };
  });
}
