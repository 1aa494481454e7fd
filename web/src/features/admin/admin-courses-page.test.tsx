import { COURSE_API, ROLES, type TAdminCourse } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

const course = (overrides: Partial<TAdminCourse>): TAdminCourse => ({
  id: 'c-1',
  code: 'ABCDEF',
  name: 'Robots for beginners',
  status: 'published',
  takenDown: false,
  publicScope: 'customer',
  ownerName: 'Teacher One',
  customerName: 'Demo School District',
  versionNumber: 2,
  learners: 12,
  createdAt: '2026-11-01T08:00:00Z',
  updatedAt: '2026-11-20T08:00:00Z',
  ...overrides,
});
const COURSES = [
  course({}),
  course({ id: 'c-2', code: 'GHJKMN', name: 'Vision draft', status: 'draft', versionNumber: null, learners: 0 }),
  course({ id: 'c-3', code: 'PQRSTU', name: 'Old maths', status: 'modifying', customerName: null, takenDown: true }),
];

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${COURSE_API.admin}`, () => ok({ list: COURSES, total: 3, page: 1, size: 20 }));
  server.on(`PUT ${COURSE_API.base}/c-1/taken-down`, () => ok(null));
  server.on(`PUT ${COURSE_API.base}/c-3/taken-down`, () => ok(null));
});

afterEach(stopFakeApi);

const lastQuery = () => new URL(server.to(COURSE_API.admin).at(-1)!.url, 'http://x').searchParams;

describe('the administrators’ list of courses', () => {
  it('lists every course with its state, owner and institution, searched and filtered on the server', async () => {
    signInAs(ROLES.super, '');
    const user = userEvent.setup();
    renderApp('/admin/courses');
    const row = (await screen.findByText('Robots for beginners')).closest('tr')!;
    expect(within(row).getByText('Code: ABCDEF')).toBeTruthy();
    expect(within(row).getByText('Published')).toBeTruthy();
    expect(within(row).getByText('Demo School District')).toBeTruthy();
    expect(within(row).getByText('Version 2')).toBeTruthy();
    const old = screen.getByText('Old maths').closest('tr')!;
    expect(within(old).getByText('Being revised')).toBeTruthy();
    expect(within(old).getByText('Taken down')).toBeTruthy();
    expect(within(old).getByText('Public space')).toBeTruthy();
    expect(screen.getByText('Vision draft').closest('tr')!.textContent).toContain('None yet');
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: 'All courses' }).getAttribute('href')).toBe('/admin/courses');

    await user.type(screen.getByRole('searchbox', { name: 'Search by name, code or owner' }), 'robot{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('robot'));
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByTitle('Being revised'));
    await waitFor(() => expect(lastQuery().get('status')).toBe('modifying'));
    expect(lastQuery().get('keyword')).toBe('robot');
    expect(lastQuery().get('page')).toBe('1');
  });

  it('lets a super administrator take a course down after confirming, and put one back', async () => {
    signInAs(ROLES.super, '');
    const user = userEvent.setup();
    renderApp('/admin/courses');
    const row = (await screen.findByText('Robots for beginners')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Take down' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getAllByText('Take down "Robots for beginners"?').length).toBeGreaterThan(0);
    await user.click(within(confirm).getByRole('button', { name: 'Take down' }));
    await waitFor(() => expect(lastChange(server, `${COURSE_API.base}/c-1/taken-down`)).toEqual({ takenDown: true }));
    const old = screen.getByText('Old maths').closest('tr')!;
    await user.click(within(old).getByRole('button', { name: 'Put back' }));
    await waitFor(() => expect(lastChange(server, `${COURSE_API.base}/c-3/taken-down`)).toEqual({ takenDown: false }));
  });

  it('shows a customer administrator the list without the super administrators’ actions', async () => {
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/courses');
    const row = (await screen.findByText('Robots for beginners')).closest('tr')!;
    expect(within(row).queryByRole('button')).toBeNull();
  });

  it('refuses a teacher without asking the server for the list', async () => {
    signInAs(ROLES.teacher);
    renderApp('/admin/courses');
    expect(await screen.findByText('The current user does not have permission to access this page')).toBeTruthy();
    expect(server.to(COURSE_API.admin)).toHaveLength(0);
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.super, '');
    renderApp('/admin/courses');
    await screen.findByText('Robots for beginners');
    expect(await axeViolations()).toEqual([]);
  });
});
