import { ROLES, SCHEDULE_API, scheduleApi, UI_SIZES, type TScheduleSummary } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { DETAIL, serveSchedule } from './schedule-fixtures';

const SUMMARY: TScheduleSummary = {
  id: DETAIL.id,
  name: DETAIL.name,
  status: 'inProgress',
  startAt: DETAIL.startAt,
  startedAt: DETAIL.startAt,
  finishedAt: null,
  schoolId: 'school-1',
  schoolName: 'Demo Primary School',
  teachers: DETAIL.teachers,
  classes: DETAIL.classes,
  courses: [{ courseId: 'c-1', name: 'Intro to AI', versionNumber: 1 }],
  studentCount: 2,
  createdAt: DETAIL.createdAt,
};

let server: FakeServer;
let listed: TScheduleSummary[];

// The screens' code, loaded once before the first test's clock starts (a cold import takes seconds on a busy machine).
beforeAll(() => import('./schedule-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  listed = [SUMMARY];
  server.on(`GET ${SCHEDULE_API.base}`, () => ok({ list: listed, total: listed.length, page: 1, size: 20 }));
  server.on(`POST ${SCHEDULE_API.base}`, () => ok(DETAIL));
  serveSchedule(server);
});
afterEach(stopFakeApi);

const lastQuery = () => new URL(server.to(SCHEDULE_API.base).at(-1)!.url, 'http://x').searchParams;

describe('teaching schedules, for teachers', () => {
  it('lists the teacher’s schedules, searched and filtered on the server', async () => {
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp('/pjedu/schedules');
    const row = (await screen.findByRole('link', { name: 'Autumn AI' })).closest('tr')!;
    expect(within(row).getByText('In progress')).toBeTruthy();
    expect(within(row).getByText('Intro to AI')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'autumn{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('autumn'));
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByTitle('Finished'));
    await waitFor(() => expect(lastQuery().get('status')).toBe('finished'));
  });

  it('says what to do when there is no schedule yet', async () => {
    listed = [];
    signInAs(ROLES.teacher);
    renderApp('/pjedu/schedules');
    expect(await screen.findByText('No teaching schedules yet. Create one to teach a class a course.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /New schedule/ })).toHaveLength(2);
    expect(server.to(SCHEDULE_API.base)).toHaveLength(1);
  });

  it('creates a schedule of a course version and a class, and opens it', async () => {
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/schedules');
    await screen.findByRole('link', { name: 'Autumn AI' });
    await user.click(screen.getByRole('button', { name: /New schedule/ }));
    const drawer = await screen.findByRole('dialog');
    await user.type(within(drawer).getByLabelText('Name'), 'Spring AI');
    await user.click(within(drawer).getByRole('combobox', { name: 'Find a course by name' }));
    await user.click(await screen.findByTitle('Intro to AI · Teacher One'));
    await user.click(within(drawer).getByRole('combobox', { name: 'Version of Intro to AI' }));
    await user.click(await screen.findByTitle('Version 1'));
    await user.click(within(drawer).getByLabelText('Classes'));
    await user.click(await screen.findByTitle('4-1 (grade 4, 2 students)'));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(lastChange(server, SCHEDULE_API.base)).toMatchObject({
        name: 'Spring AI',
        courses: [{ courseId: 'c-1', versionId: 'v-1' }],
        classIds: ['class-1'],
        teacherIds: [],
        studentIds: [],
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/schedules/s-1'));
  });

  it('starts a schedule, and finishes and deletes one only after the 472 px confirmation', async () => {
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    const first = renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await waitFor(() => expect(server.to(scheduleApi('s-1').start)).toHaveLength(1));
    first.unmount();

    serveSchedule(server, { ...DETAIL, status: 'inProgress' });
    const second = renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('button', { name: 'Finish' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getAllByText('Finish "Autumn AI"?').length).toBeGreaterThan(0);
    expect((confirm.closest('.ant-modal') as HTMLElement).style.width).toBe(`${UI_SIZES.confirmDialogWidth}px`);
    await user.click(within(confirm).getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(server.to(scheduleApi('s-1').finish)).toHaveLength(1));
    second.unmount();

    const { router } = renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('button', { name: /Delete/ }));
    const deleting = await screen.findByRole('dialog');
    expect(within(deleting).getAllByText('Delete "Autumn AI"?').length).toBeGreaterThan(0);
    await user.click(within(deleting).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.to(scheduleApi('s-1').base).some((r) => r.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/schedules'));
  });

  it('offers to move the class to a newer version of a course', async () => {
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp('/pjedu/schedules/s-1');
    await user.click(await screen.findByRole('button', { name: 'Move to version 2' }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Move to version 2' }));
    await waitFor(() =>
      expect(lastChange(server, scheduleApi('s-1').base)).toEqual({ courses: [{ courseId: 'c-1', versionId: 'v-2' }] }),
    );
  });

  it('shows a schedule that is not the caller’s as missing', async () => {
    signInAs(ROLES.teacher);
    server.on(`GET ${scheduleApi('s-9').base}`, () => ({
      status: 404,
      body: { errorCode: '1004', errorMsg: 'The page or resource was not found', data: null },
    }));
    renderApp('/pjedu/schedules/s-9');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This teaching schedule cannot be shown' }),
    ).toBeTruthy();
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe on the list and the detail in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.teacher);
    const list = renderApp('/pjedu/schedules');
    await screen.findByRole('link', { name: 'Autumn AI' });
    expect(await axeViolations()).toEqual([]);
    list.unmount();
    renderApp('/pjedu/schedules/s-1');
    await screen.findByRole('heading', { level: 1, name: /Autumn AI/ });
    expect(await axeViolations()).toEqual([]);
  });
});
