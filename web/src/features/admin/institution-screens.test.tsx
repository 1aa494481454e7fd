import { ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from './admin-api';
import { CATALOGUE_API } from './catalogue-api';

const SCHOOL = {
  id: 's-1',
  customerId: 'c-2',
  customerName: 'East Branch',
  name: 'Branch Primary',
  eduStages: ['primary'],
  enabled: true,
  notes: '',
  listed: false,
  createdAt: '2026-11-01T08:00:00+08:00',
};
const CLASS = {
  id: 'k-1',
  schoolId: 's-1',
  eduStage: 'primary',
  grade: 4,
  className: 'Grade 4 Class 1',
  startYear: 2023,
  graduateYear: 2029,
  stuCount: 0,
  classStatus: 'current',
};
const SUB = { id: 'c-2', code: 'east2026', name: 'East Branch' };
const page = (list: unknown[]) => ok({ list, total: list.length, page: 1, size: 20 });

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${ADMIN_API.schools}`, () => page([SCHOOL]));
  server.on(`GET ${ADMIN_API.schoolInfo}`, () => ok([SCHOOL]));
  server.on(`GET ${ADMIN_API.subCustomers}`, () => ok([SUB]));
  server.on(`GET ${ADMIN_API.classes}`, () => page([CLASS]));
  server.on(`GET ${ADMIN_API.upgradeSchedules}`, () => ok([]));
});
afterEach(stopFakeApi);

describe('institution screens', { timeout: 30_000 }, () => {
  it('shows which customer each school belongs to and lets a new one go to a sub-customer', async () => {
    const user = userEvent.setup();
    server.on(`POST ${ADMIN_API.schools}`, (request) => ok({ ...SCHOOL, ...JSON.parse(request.body!) }));
    signInAs(ROLES.customerAdmin);
    renderApp('/admin/schools');
    expect(await screen.findByRole('cell', { name: 'East Branch' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /New school/ }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('combobox', { name: 'Customer' }));
    await user.click(await screen.findByTitle('East Branch (east2026)'));
    await user.type(within(drawer).getByRole('textbox', { name: 'School name' }), 'New Branch School');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.schools).filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(JSON.parse(server.to(ADMIN_API.schools).find((r) => r.method === 'POST')!.body!)).toMatchObject({
      customerId: 'c-2',
      name: 'New Branch School',
    });
  });

  it('lets an organisation administrator see and edit their school, without creating or switching schools', async () => {
    signInAs(ROLES.organizeAdmin);
    renderApp('/admin/schools');
    expect(await screen.findByRole('cell', { name: 'Branch Primary' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /New school/ })).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('gives a customer course packages from the catalogue, the same record as the package’s customers', async () => {
    const user = userEvent.setup();
    const customer = {
      id: 'c-2',
      parentId: null,
      code: 'east2026',
      name: 'East Branch',
      enabled: true,
      remark: '',
      schoolQuota: null,
      teacherQuota: null,
      studentQuota: null,
      containerConcurrency: null,
      maxStartsPerPerson: null,
      studyConcurrency: null,
      containerTypes: ['BASIC'],
      coursePackages: [{ id: 'p-1', name: 'AI basics' }],
      country: '',
      province: '',
      city: '',
      district: '',
      adminUsername: 'admin',
      adminName: 'Admin',
      creator: 'root',
      schoolCount: 0,
      createdAt: SCHOOL.createdAt,
    };
    server.on(`GET ${ADMIN_API.customers}`, () => page([customer]));
    server.on(`GET ${CATALOGUE_API.packages}`, () =>
      page([
        {
          id: 'p-1',
          name: 'AI basics',
          courseIds: [],
          customerIds: ['c-2'],
          courses: [],
          customers: [],
          createdAt: '',
        },
        { id: 'p-2', name: 'Robotics', courseIds: [], customerIds: [], courses: [], customers: [], createdAt: '' },
      ]),
    );
    server.on(`PUT ${ADMIN_API.customers}/c-2`, (request) => ok({ ...customer, ...JSON.parse(request.body!) }));
    signInAs(ROLES.super, '');
    renderApp('/super/customers');
    expect(await screen.findByRole('cell', { name: 'root' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Created by' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('AI basics')).toBeTruthy();
    await user.click(within(drawer).getByRole('combobox', { name: 'Course packages' }));
    await user.click(await screen.findByTitle('Robotics'));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.customers}/c-2`)).toHaveLength(1));
    expect(JSON.parse(server.to(`${ADMIN_API.customers}/c-2`)[0]!.body!).coursePackages).toEqual(['p-1', 'p-2']);
  });

  it('names who created each teacher', async () => {
    server.on(`GET ${ADMIN_API.teachers}`, () =>
      page([
        {
          id: 't-1',
          username: 'teach01',
          realName: 'Ms Li',
          phone: null,
          enabled: true,
          schoolId: 's-1',
          createdAt: SCHOOL.createdAt,
          remark: '',
          certified: false,
          alsoTeacher: false,
          creator: 'head01',
        },
      ]),
    );
    signInAs(ROLES.schoolAdmin);
    renderApp('/admin/teachers');
    expect(await screen.findByRole('columnheader', { name: 'Created by' })).toBeTruthy();
    expect(await screen.findByRole('cell', { name: 'head01' })).toBeTruthy();
  });

  it('deletes a class without students after a confirmation', async () => {
    const user = userEvent.setup();
    server.on(`DELETE ${ADMIN_API.classes}/k-1`, () => ok({ ...CLASS, classStatus: 'deleted' }));
    signInAs(ROLES.schoolAdmin);
    renderApp('/admin/classes');
    await screen.findByRole('cell', { name: 'Grade 4 Class 1' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/Only a class without students/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.classes}/k-1`)).toHaveLength(1));
  });

  it.each([
    ['en', '/admin/schools', ROLES.customerAdmin],
    ['zh_CHS', '/admin/schools', ROLES.customerAdmin],
    ['en', '/admin/schools', ROLES.organizeAdmin],
    ['zh_CHS', '/admin/classes', ROLES.schoolAdmin],
    ['en', '/admin/classes', ROLES.schoolAdmin],
  ] as const)('passes axe in %s on %s (%s)', async (language, path, role) => {
    await changeLanguage(language, { remember: false });
    signInAs(role);
    renderApp(path);
    await screen.findByRole('cell', { name: path.endsWith('classes') ? 'Grade 4 Class 1' : 'Branch Primary' });
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
  });
});
