import { ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';

const SCHOOL = {
  id: 's-1',
  customerId: 'c-1',
  name: 'Demo Primary School',
  eduStages: ['primary'],
  enabled: true,
  listed: false,
};
const CLASS = {
  id: 'k-1',
  schoolId: 's-1',
  eduStage: 'primary',
  grade: 4,
  className: 'Grade 4 Class 1',
  startYear: 2023,
  graduateYear: 2029,
  stuCount: 30,
  classStatus: 'current',
};
const STUDENT = {
  id: 'p-1',
  username: 'student01',
  realName: 'Ada',
  phone: null,
  enabled: true,
  schoolId: 's-1',
  createdAt: '2026-11-01T08:00:00+08:00',
  classId: 'k-1',
  schoolNumber: '2023001',
};
const page = (list: unknown[]) => ok({ list, total: list.length, page: 1, size: 20 });
const HOME = {
  custcode: 'demo2026',
  name: 'Demo',
  banners: [],
  projectTypes: ['Vision'],
  footerSites: [],
  modules: { teacher: [], student: [] },
};
const STATS = {
  schools: 1,
  teachers: 1,
  students: 30,
  classes: 1,
  activeByDay: [{ date: '2026-11-22', users: 3 }],
  bySchool: [],
};

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.schoolInfo}`, () => ok([SCHOOL]));
  server.on(`GET ${ADMIN_API.classes}`, () => page([CLASS]));
  server.on(`GET ${ADMIN_API.classes}/options`, () => ok([CLASS]));
  server.on(`GET ${ADMIN_API.students}`, () => page([STUDENT]));
  server.on(`GET ${ADMIN_API.teachers}`, () => page([]));
  server.on(`GET ${ADMIN_API.schools}`, () => page([{ ...SCHOOL, notes: '', createdAt: STUDENT.createdAt }]));
  server.on(`GET ${ADMIN_API.periods}`, () => ok([]));
  server.on(`GET ${ADMIN_API.logs}`, () => page([]));
  server.on(`GET ${ADMIN_API.stats}`, () => ok(STATS));
  server.on(`GET ${ADMIN_API.customers}`, () => page([]));
  server.on(`GET ${ADMIN_API.subCustomers}`, () => ok([]));
  server.on(`GET ${ADMIN_API.upgradeSchedules}`, () => ok([]));
  server.on(`GET ${ADMIN_API.home}`, () => ok(HOME));
});

afterEach(stopFakeApi);

const SCREENS: [string, string, string][] = [
  ['/super/customers', 'Customers', ROLES.super],
  ['/admin/sub-customers', 'Sub-customers', ROLES.customerAdmin],
  ['/admin/schools', 'Schools', ROLES.customerAdmin],
  ['/admin/periods', 'Periods', ROLES.customerAdmin],
  ['/admin/logs', 'Operation logs', ROLES.customerAdmin],
  ['/admin/classes', 'Classes', ROLES.customerAdmin],
  ['/admin/history-classes', 'History classes', ROLES.customerAdmin],
  ['/admin/teachers', 'Teachers', ROLES.customerAdmin],
  ['/admin/students', 'Students', ROLES.customerAdmin],
  ['/admin/statistics', 'Teaching statistics', ROLES.customerAdmin],
  ['/admin/institution-home', 'Institution home page', ROLES.customerAdmin],
];

describe('administration screens', { timeout: 30_000 }, () => {
  it.each(SCREENS)('%s shows "%s" with no axe violations', async (path, heading, role) => {
    signInAs(role);
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
  });

  it('draws daily active users as a chart, and as a table on demand', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/statistics');
    const chart = await screen.findByRole('img', { name: 'Active users' });
    await waitFor(() => expect(chart.querySelector('svg')).not.toBeNull());
    await userEvent.setup().click(screen.getByText('Table'));
    expect(await screen.findByRole('cell', { name: '2026-11-22' })).toBeTruthy();
  });

  it('folds the menu above the screen on a narrow screen, and folds it again after a choice', async () => {
    const user = userEvent.setup();
    const wide = window.matchMedia;
    window.matchMedia = ((media: string) =>
      Object.assign(new EventTarget(), { media, matches: media === '(max-width: 900px)' })) as typeof wide;
    try {
      signInAs(ROLES.customerAdmin);
      renderApp('/admin/students');
      const menu = await screen.findByRole('navigation', { name: 'Administration menu' });
      const fold = menu.querySelector('details')!;
      expect(fold.open).toBe(false);
      await user.click(within(menu).getByText('Administration menu'));
      expect(fold.open).toBe(true);
      await user.click(within(menu).getByRole('link', { name: 'Classes' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Classes' })).toBeTruthy();
      const after = screen.getByRole('navigation', { name: 'Administration menu' });
      expect(after.querySelector('details')!.open).toBe(false);
    } finally {
      window.matchMedia = wide;
    }
  });

  it('shows a school administrator only the screens of its permissions, and refuses the others', async () => {
    signInAs(ROLES.schoolAdmin);
    renderApp('/admin/students');
    const menu = await screen.findByRole('navigation', { name: 'Administration menu' });
    const entries = within(menu)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(entries).toEqual([
      'Periods',
      'Schools',
      'Classes',
      'History classes',
      'Teachers',
      'Students',
      'Certificates',
      'Issue and revoke certificates',
      'Operation logs',
      'Teaching statistics',
      'Teacher certification',
    ]);
    expect(await screen.findByRole('cell', { name: 'Grade 4 Class 1' })).toBeTruthy();
    renderApp('/super/customers');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.to(ADMIN_API.customers)).toEqual([]);
  });

  it('dry-runs an import, lists every bad row with its number, and imports only a clean file', async () => {
    const user = userEvent.setup();
    let dryRuns = 0;
    server.on(`POST ${ADMIN_API.students}/import`, (request) =>
      request.url.includes('dryRun=true') && dryRuns++ === 0
        ? ok({
            total: 2,
            imported: 0,
            problems: [{ row: 3, reason: 'unknownClass', message: 'No current class with this name' }],
          })
        : ok({ total: 2, imported: request.url.includes('dryRun=true') ? 0 : 2, problems: [] }),
    );
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/students');
    await user.click(await screen.findByRole('button', { name: /Import$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Import students')).toBeTruthy();
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'students.xlsx'));
    const run = within(dialog).getByRole('button', { name: /Import \d+ rows/ });
    expect(run.hasAttribute('disabled')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByRole('cell', { name: 'No current class with this name' })).toBeTruthy();
    expect(within(dialog).getByRole('cell', { name: '3' })).toBeTruthy();
    expect(run.hasAttribute('disabled')).toBe(true);
    // The corrected file replaces the first one and is checked again.
    await user.upload(input, new File(['y'], 'students-fixed.xlsx'));
    await user.click(
      within(dialog)
        .getAllByRole('button')
        .find((b) => b.textContent === 'Check the file')!,
    );
    expect(await within(dialog).findByText('All 2 rows are ready to import.')).toBeTruthy();
    await user.click(await within(dialog).findByRole('button', { name: 'Import 2 rows' }));
    await waitFor(() => expect(server.requests.some((r) => r.url.includes('dryRun=false'))).toBe(true));
  });

  it('pages, searches and sorts the classes on the server', async () => {
    const user = userEvent.setup();
    server.on(`GET ${ADMIN_API.classes}`, () => ok({ list: [CLASS], total: 45, page: 1, size: 20 }));
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/classes');
    await screen.findByRole('cell', { name: 'Grade 4 Class 1' });
    expect(screen.getByText('45 in total')).toBeTruthy();
    const query = () => new URL(server.to(ADMIN_API.classes).at(-1)!.url, 'http://x').searchParams;
    expect(query().get('status')).toBe('current');
    await user.type(screen.getByRole('searchbox', { name: 'Search by class name' }), 'Grade 4{Enter}');
    await waitFor(() => expect(query().get('keyword')).toBe('Grade 4'));
    await user.click(screen.getByText('Students', { selector: 'th *' }));
    await waitFor(() => expect(query().get('sort')).toBe('stuCount,asc'));
    await user.click(screen.getByRole('listitem', { name: '3' }));
    await waitFor(() => expect(query().get('page')).toBe('3'));
    expect(query().get('keyword')).toBe('Grade 4');
  });

  it('dismisses a class only after a 472 px confirmation that says it cannot be undone', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.classes}/k-1/dismiss`, () => ok({ ...CLASS, classStatus: 'dismissed' }));
    signInAs(ROLES.schoolAdmin);
    renderApp('/admin/classes');
    await screen.findByRole('cell', { name: 'Grade 4 Class 1' });
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/cannot be undone/)).toBeTruthy();
    expect((confirm.closest('.ant-modal') as HTMLElement | null)?.style.width).toBe('472px');
    expect(server.to(`${ADMIN_API.classes}/k-1/dismiss`)).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.classes}/k-1/dismiss`)).toHaveLength(1));
  });

  it('refuses a link that is not http(s) in the institution home form, in the user’s language', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.institutionHome}`, () => ok(null));
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/institution-home');
    const link = await screen.findByRole('textbox', { name: 'Link of banner 1' });
    await user.type(link, 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A full address starting with http:// or https://')).toBeTruthy();
    expect(server.to(ADMIN_API.institutionHome)).toEqual([]);
    await user.clear(link);
    await user.type(link, 'https://school.test/spring');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.institutionHome)).toHaveLength(1));
  });

  it('lists a school for learners of the public space from its form', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.schools}/s-1`, (request) => ok({ ...SCHOOL, ...JSON.parse(request.body!) }));
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/schools');
    await screen.findByRole('cell', { name: 'Demo Primary School' });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(/can find this school by name/)).toBeTruthy();
    const listed = within(drawer).getByRole('switch', { name: 'Listed for public learners' });
    expect(listed.getAttribute('aria-checked')).toBe('false');
    await user.click(listed);
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.schools}/s-1`)).toHaveLength(1));
    expect(JSON.parse(server.to(`${ADMIN_API.schools}/s-1`)[0]!.body!)).toMatchObject({ listed: true });
  });
});
