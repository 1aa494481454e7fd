import { API, COURSE_API, SCHEDULE_API, type TArea, type TUserInfo } from '@aiedu/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession, readSession, saveLogin } from '../../app/session';
import { courseSummary } from '../../test/course-fixtures';
import { createFakeServer, fail, ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const USER: TUserInfo = {
  id: 'u-1',
  username: 'student01',
  domainId: 'c-1',
  custcode: 'demo2026',
  roles: ['ROLE_STUDENT'],
  nickname: 'Ada',
  realName: 'Ada Lovelace',
  avatarUrl: null,
  gender: 'female',
  birthDay: '2015-03-01',
  identity: 'student',
  areas: ['Zhejiang', 'Hangzhou'],
  schoolName: 'Demo Primary',
  signature: '',
  phone: null,
  email: null,
  judges: false,
  mustChangePassword: false,
};

let server: FakeServer;

const STUDY = [
  { ...courseSummary({ id: 'c-1', name: 'Intro to AI' }), progress: 40, learnerVersionNumber: 1 },
  { ...courseSummary({ id: 'c-2', name: 'Robots', status: 'closed' }), progress: 100, learnerVersionNumber: 1 },
];

const SCHEDULES = [
  {
    id: 's-1',
    name: 'Autumn AI',
    status: 'inProgress',
    startAt: '2026-09-02T00:00:00Z',
    teachers: [{ id: 't-1', name: 'Ms Li' }],
    courses: [{ courseId: 'c-1', name: 'Intro to AI', versionNumber: 1, state: 'open' }],
    tasks: { assigned: 3, submitted: 1 },
  },
];

/** A few of the divisions the server knows (GB/T 2260 codes), by parent code. */
const DIVISIONS: Record<string, TArea[]> = {
  '': [{ code: 'CN', name: '中国', leaf: false }],
  CN: [
    { code: '11', name: '北京市', leaf: false },
    { code: '33', name: '浙江省', leaf: false },
  ],
  '33': [
    { code: '3301', name: '杭州市', leaf: false },
    { code: '3302', name: '宁波市', leaf: false },
  ],
  '3301': [{ code: '330106', name: '西湖区', leaf: true }],
};

function parentCodes(): string[] {
  return server
    .to(API.areaChildren)
    .map((r) => new URL(r.url, 'http://localhost').searchParams.get('parentCode') ?? '');
}

function sentProfile(): Record<string, unknown> {
  return JSON.parse(server.to(API.userInfo).find((r) => r.method === 'PUT')?.body ?? '{}') as Record<string, unknown>;
}

async function openBasicInfo(areas: string[]) {
  server.on(`GET ${API.userInfo}`, () => ok({ ...USER, areas }));
  renderApp('/pjedu/userprofile?slideKey=basic');
  return screen.findByRole('combobox', { name: 'Province and city' });
}

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  saveLogin({ token: 'access-1', refreshToken: 'refresh-1', userId: 'u-1', roles: ['ROLE_STUDENT'] });
  server = createFakeServer();
  server.on(`GET ${API.userInfo}`, () => ok(USER));
  server.on(`GET ${API.pointsTotal}`, () => ok(12));
  server.on(`GET ${API.teacherCertification}`, () => ok(null));
  server.on(`PUT ${API.userInfo}`, (request) => ok({ ...USER, ...(JSON.parse(request.body ?? '{}') as object) }));
  server.on(`GET ${COURSE_API.study}`, () => ok(STUDY));
  server.on(`GET ${SCHEDULE_API.study}`, () => ok(SCHEDULES));
  server.on(`GET ${API.areaChildren}`, (request) => {
    const parent = new URL(request.url, 'http://localhost').searchParams.get('parentCode') ?? '';
    return ok(DIVISIONS[parent] ?? []);
  });
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
});

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

describe('profile page', () => {
  it('asks a visitor to log in', async () => {
    clearSession();
    renderApp('/pjedu/userprofile');
    expect(await screen.findByText('Please log in to see this page.')).toBeTruthy();
    expect(screen.queryByLabelText('Nickname')).toBeNull();
  });

  it('opens the basic information by default and saves the changed fields', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile');
    const nickname = await screen.findByLabelText('Nickname');
    expect((nickname as HTMLInputElement).value).toBe('Ada');
    await user.clear(nickname);
    await user.type(nickname, 'Countess');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(server.to(API.userInfo).filter((r) => r.method === 'PUT')).toHaveLength(1));
    const sent = JSON.parse(server.to(API.userInfo).find((r) => r.method === 'PUT')?.body ?? '{}') as object;
    expect(sent).toMatchObject({
      nickname: 'Countess',
      realName: 'Ada Lovelace',
      schoolName: 'Demo Primary',
      birthDay: '2015-03-01',
      province: 'Zhejiang',
      city: 'Hangzhou',
    });
    expect(await screen.findByText('Profile saved')).toBeTruthy();
  });

  it('refuses a nickname over 10 characters before sending it', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile');
    const nickname = await screen.findByLabelText('Nickname');
    await user.clear(nickname);
    // maxLength stops typing; a pasted value is cut the same way, so the limit holds either way.
    fireEvent.change(nickname, { target: { value: 'abcdefghijkl' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At most 10 characters')).toBeTruthy();
    expect(server.to(API.userInfo).filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('changes the password with both passwords base64-encoded and keeps this session on the new tokens', async () => {
    server.on(`PUT ${API.changePassword}`, (request) => {
      const body = JSON.parse(request.body ?? '{}') as { oriPasswd: string };
      return body.oriPasswd === btoa('Student@2026')
        ? ok({ token: 'access-2', refreshToken: 'refresh-2' })
        : fail('1102', 'Username or password incorrect', 400);
    });
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile?slideKey=password');
    await user.type(await screen.findByLabelText('Current password'), 'Wrong@2026');
    await user.type(screen.getByLabelText('New password'), 'Better2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Better2026');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText('Username or password incorrect')).toBeTruthy();
    expect(readSession().token).toBe('access-1');

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'Student@2026');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(readSession().token).toBe('access-2'));
    expect(JSON.parse(server.to(API.changePassword)[1]?.body ?? '{}')).toEqual({
      oriPasswd: btoa('Student@2026'),
      newPasswd: btoa('Better2026'),
    });
  });

  it("asks an administrator's own new password to be strong (8–20, three kinds), a learner's to be simple", async () => {
    server.on(`PUT ${API.changePassword}`, () => ok({ token: 'access-2', refreshToken: 'refresh-2' }));
    saveLogin({ token: 'access-1', refreshToken: 'refresh-1', userId: 'u-1', roles: ['ROLE_SCHOOLADMIN'] });
    const user = userEvent.setup();
    const view = renderApp('/pjedu/userprofile?slideKey=password');
    await user.type(await screen.findByLabelText('Current password'), 'Admin@2026');
    await user.type(screen.getByLabelText('New password'), 'Kid7ok');
    await user.type(screen.getByLabelText('Confirm password'), 'Kid7ok');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(
      await screen.findByText(
        '8–20 characters with at least three of uppercase letters, lowercase letters, digits and symbols, without spaces',
      ),
    ).toBeTruthy();
    expect(server.to(API.changePassword)).toHaveLength(0);
    view.unmount();

    saveLogin({ token: 'access-1', refreshToken: 'refresh-1', userId: 'u-1', roles: ['ROLE_STUDENT'] });
    renderApp('/pjedu/userprofile?slideKey=password');
    await user.type(await screen.findByLabelText('Current password'), 'Student@2026');
    await user.type(screen.getByLabelText('New password'), 'Kid7ok');
    await user.type(screen.getByLabelText('Confirm password'), 'Kid7ok');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(server.to(API.changePassword)).toHaveLength(1));
  });

  it('refuses an avatar of the wrong type without uploading it', async () => {
    renderApp('/pjedu/userprofile?slideKey=avatar');
    await screen.findByText('Choose a picture');
    const input = document.querySelector<HTMLInputElement>('input[type=file]');
    expect(input).toBeTruthy();
    fireEvent.change(input as HTMLInputElement, {
      target: { files: [new File(['GIF89a'], 'cat.gif', { type: 'image/gif' })] },
    });
    expect(await screen.findByText('Only JPG, PNG, BMP or JPEG pictures can be used')).toBeTruthy();
    expect(server.to(API.avatarUpload)).toHaveLength(0);
  });

  it('binds an email longer than the sign-up field allows, with a code sent to it', async () => {
    server.on(`POST ${API.sendCode}`, () => ok(null));
    server.on(`PUT ${API.bindContact}`, () => ok({ ...USER, email: 'ada.lovelace@school.example' }));
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile?slideKey=account');
    const send = await screen.findByRole('button', { name: 'Send code' });
    await user.type(screen.getByLabelText('Phone number or email'), 'ada.lovelace@school.example');
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
    await user.click(send);
    await waitFor(() => expect(server.to(API.sendCode)).toHaveLength(1));
    expect(JSON.parse(server.to(API.sendCode)[0]?.body ?? '{}')).toMatchObject({
      scene: 'BIND',
      target: 'ada.lovelace@school.example',
    });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Bind' }));
    await waitFor(() => expect(server.to(API.bindContact)).toHaveLength(1));
    expect(screen.queryByText('Enter a valid phone number or email')).toBeNull();
  });

  it('opens My study for ?slideKey=study: joined courses with progress and records, and schedules', async () => {
    renderApp('/pjedu/userprofile?slideKey=study');
    expect(await screen.findByRole('heading', { level: 2, name: 'My study' })).toBeTruthy();
    const courses = screen.getByRole('region', { name: 'Courses I joined' });
    const first = (await within(courses).findByRole('link', { name: 'Intro to AI' })).closest('tr') as HTMLElement;
    expect(first.querySelector('a')?.getAttribute('href')).toBe('/pjedu/courses/c-1');
    expect(
      within(first).getByRole('progressbar', { name: 'Progress of Intro to AI' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(within(first).getByRole('link', { name: 'Learning record of Intro to AI' }).getAttribute('href')).toBe(
      '/pjedu/courses/c-1/record',
    );
    const second = within(courses).getByRole('link', { name: 'Robots' }).closest('tr') as HTMLElement;
    expect(within(second).getByText('Closed')).toBeTruthy();
    expect(within(second).getByRole('link', { name: 'Learning record of Robots' }).getAttribute('href')).toBe(
      '/pjedu/courses/c-2/record',
    );

    const schedules = screen.getByRole('region', { name: 'My teaching schedules' });
    const schedule = await within(schedules).findByRole('link', { name: 'Autumn AI' });
    expect(schedule.getAttribute('href')).toBe('/pjedu/schedules/s-1');
    expect(within(schedules).getByText('Tasks answered: 1 of 3')).toBeTruthy();
  });

  it('shows how to join a course when My study is empty, and no schedules to a teacher', async () => {
    server.on(`GET ${COURSE_API.study}`, () => ok([]));
    saveLogin({ token: 'access-1', refreshToken: 'refresh-1', userId: 'u-1', roles: ['ROLE_TEACHER'] });
    renderApp('/pjedu/userprofile?slideKey=study');
    expect(await screen.findByText(/You have not joined a course yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Join a course' }).getAttribute('href')).toBe('/pjedu/my/courses');
    expect(screen.queryByRole('region', { name: 'My teaching schedules' })).toBeNull();
    expect(server.to(SCHEDULE_API.study)).toHaveLength(0);
  });

  it.each(['basic', 'study', 'account', 'avatar', 'certification', 'password'])(
    'the %s section has no accessibility violations',
    async (slideKey) => {
      renderApp(`/pjedu/userprofile?slideKey=${slideKey}`);
      await screen.findByRole('heading', { level: 2 });
      await waitFor(() => expect(document.querySelector('.ant-skeleton')).toBeNull());
      const result = await axe.run(document.body, { resultTypes: ['violations'] });
      expect(result.violations.map((v) => v.id)).toEqual([]);
    },
  );
});

describe('basic information: province and city', () => {
  it('picks a province, then a city, from the divisions and saves their names', async () => {
    const user = userEvent.setup();
    const field = await openBasicInfo([]);
    await waitFor(() => expect(parentCodes()).toEqual(['CN']));

    await user.click(field);
    await user.click(await screen.findByTitle('浙江省'));
    await user.click(await screen.findByTitle('杭州市'));
    // A city is as far as the profile goes: no districts are asked for.
    expect(parentCodes()).toEqual(['CN', '33']);
    expect(screen.queryByTitle('西湖区')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentProfile()).toMatchObject({ province: '浙江省', city: '杭州市' }));
  });

  it('shows a saved province and city with their level loaded', async () => {
    const field = await openBasicInfo(['浙江省', '杭州市']);

    await waitFor(() => expect(parentCodes()).toEqual(['CN', '33']));
    const form = field.closest('form') as HTMLElement;
    expect(within(form).getByTitle('浙江省 / 杭州市')).toBeTruthy();
  });

  it('keeps a place typed before there was a picker, shown and saved as it was', async () => {
    const user = userEvent.setup();
    const field = await openBasicInfo(['Zhejiang', 'Hangzhou']);

    const form = field.closest('form') as HTMLElement;
    expect(await within(form).findByTitle('Zhejiang / Hangzhou')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentProfile()).toMatchObject({ province: 'Zhejiang', city: 'Hangzhou' }));
  });
});
