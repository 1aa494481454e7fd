import { describe, expect, it } from 'vitest';
import enScreens from '../locales/en/screens.json';
import { NAV_AREAS, navigationLinks, SCREENS, type Screen } from './routes';

/** Every route the spec names in section 2. */
const SPEC_PATHS = [
  '/home',
  '/portal/sign/login',
  '/user/sign/login',
  '/home/protocol',
  '/home/privacy',
  '/iaif',
  '/pjedu/course',
  '/pjedu/userprofile',
  '/pjedu/home',
  '/pjedu/login',
  '/pjPortal/super/sign/login',
];

/** The screens section 2 lists without paths. */
const OTHER_SCREENS = [
  ...['login', 'register', 'resetPassword', 'productChooser', 'learnerHome', 'profile'],
  ...['myCourses', 'myContests', 'myCases', 'activationCodes', 'downloads'],
  ...['openApiDocs', 'openDocuments', 'openTasks', 'openKeys', 'openDomains', 'openUsers'],
  ...['projects', 'myProjects', 'projectEditor', 'datasets', 'datasetNew', 'datasetEdit'],
  ...['courseEditor', 'courseCentre', 'courses', 'courseDetail', 'learningRecord'],
  ...['schedules', 'scheduleDetail', 'scheduleStudents'],
  ...['certificateNew', 'certificateEdit'],
  ...['groups', 'groupDetail', 'groupMembers', 'groupProjects', 'groupCourses', 'groupBatchRegister', 'groupReview'],
  'groupInvitation',
  ...['customers', 'subCustomers', 'schools', 'periods', 'logs', 'classes', 'historyClasses', 'teachers'],
  ...['students', 'certificates', 'myCertificates', 'certificateIssuance', 'statistics', 'institutionHome'],
  ...['events', 'eventDetail', 'myWorks', 'eventDeclaration', 'eventReviews', 'eventJudging'],
  ...['eventQualification', 'eventNew', 'eventEdit', 'certificateSearch'],
  ...['aiArt', 'aiHall', 'books', 'bookDetail', 'pointsMall', 'exchangeRecords', 'help', 'mmedu', 'xedu'],
  ...['thirdPartyLogin', 'thirdPartyLanding', 'singleSignOn', 'superLogin', 'userLogin'],
];

describe('route table', () => {
  const paths = SCREENS.map((s) => s.path);

  it.each(SPEC_PATHS)('has %s', (path) => {
    expect(paths).toContain(path);
  });

  it('has each path and each screen once, every screen with a title', () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(SCREENS.map((s) => s.id)).size).toBe(SCREENS.length);
    for (const screen of SCREENS) expect(enScreens[screen.id]).toBeTruthy();
  });

  it.each(OTHER_SCREENS)('has a route for the screen "%s"', (id) => {
    expect(SCREENS.map((s) => s.id)).toContain(id);
  });

  it('keeps every path under a clear prefix', () => {
    const prefixes = ['/pjedu/', '/admin/', '/open/', '/super/', '/portal/', '/user/', '/home', '/iaif', '/pjPortal/'];
    for (const path of paths)
      expect(
        prefixes.some((p) => path.startsWith(p)),
        path,
      ).toBe(true);
  });

  it('makes the landing, legal, sign-in and administration pages real and leaves the rest coming soon', () => {
    const real = SCREENS.filter((s) => s.page).map((s) => s.path);
    expect(real).toEqual(
      expect.arrayContaining([
        '/home',
        '/pjedu/home',
        '/home/protocol',
        '/home/privacy',
        '/portal/sign/login',
        '/iaif',
      ]),
    );
    for (const path of ['/admin/schools', '/admin/students', '/admin/classes', '/super/customers'])
      expect(SCREENS.find((s) => s.path === path)?.page, path).toBeDefined();
    for (const path of ['/admin/certificates', '/admin/certificates/issuance', '/pjedu/certificate-search'])
      expect(SCREENS.find((s) => s.path === path)?.page, path).toBeDefined();
    for (const path of [
      '/pjedu/events',
      '/pjedu/events/:eventId',
      '/pjedu/events/:eventId/judging',
      '/pjedu/my/contests',
    ])
      expect(SCREENS.find((s) => s.path === path)?.page, path).toBeDefined();
    expect(SCREENS.find((s) => s.path === '/pjedu/ai/hall')?.page).toBeUndefined();
  });
});

describe('navigation', () => {
  it('has an entry for every area, linking only to real pages', () => {
    const links = navigationLinks();
    expect(links.map((l) => l.area)).toEqual(NAV_AREAS);
    expect(links[0]).toEqual({ area: 'home', to: '/home' });
    expect(links.find((l) => l.area === 'courses')?.to).toBe('/pjedu/courses');
    expect(links.find((l) => l.area === 'projects')?.to).toBe('/pjedu/projects');
    // Areas still coming soon lead to their introduction on the landing page.
    expect(links.find((l) => l.area === 'datasets')?.to).toBe('/pjedu/datasets');
    expect(links.find((l) => l.area === 'groups')?.to).toBe('/pjedu/groups');
    expect(links.find((l) => l.area === 'events')?.to).toBe('/pjedu/events');
    expect(links.find((l) => l.area === 'ai')?.to).toBe('/home#ai');
  });

  it('links an area to its screen once that screen has a page', () => {
    const page = async () => () => null;
    const screens: Screen[] = SCREENS.map((s) => (s.area === 'datasets' ? { ...s, page } : s));
    expect(navigationLinks(screens).find((l) => l.area === 'datasets')?.to).toBe('/pjedu/datasets');
  });
});
