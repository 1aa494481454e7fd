import { API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../test/fake-api';
import { axeViolations, startVisitorApi, stopFakeApi } from '../test/page-kit';
import { renderApp } from '../test/render-app';
import { changeLanguage } from './i18n';
import { readSession } from './session';

const USER = {
  id: 'u-1',
  username: 'student01',
  domainId: 'c-1',
  custcode: 'demo2026',
  roles: [ROLES.student],
  nickname: 'Ada',
  realName: '',
  avatarUrl: null,
  gender: 'unknown',
  birthDay: null,
  identity: 'student',
  areas: [],
  schoolName: '',
  signature: '',
  phone: null,
  email: null,
  judges: false,
  mustChangePassword: false,
};

let server: FakeServer;

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  server = startVisitorApi();
});
afterEach(stopFakeApi);

const loginDialog = (name = 'Sign in') => screen.findByRole('dialog', { name });

describe('a page for signed-in people, opened by a visitor', () => {
  it.each([
    ['/pjedu/userprofile', 'My profile'],
    ['/admin/classes', 'Classes'],
    ['/pjedu/my/projects', 'Projects'],
  ])('%s opens the login dialog at once, over its card', async (path, title) => {
    renderApp(path);
    expect(await loginDialog()).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
  });

  it('opens it once: closed, the card stays with its button, which opens it again', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile');
    const dialog = await loginDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = screen.getByRole('region', { name: 'My profile' });
    expect(within(card).getByText('Please log in to see this page.')).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'Log in' }));
    expect(await loginDialog()).toBeTruthy();
  });

  it('shows the page as the user once they sign in in the dialog, with their school kept as schoolNumber', async () => {
    server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(false));
    server.on(`POST ${API.authLogin}`, () =>
      ok({
        id: 'u-1',
        roles: [ROLES.student],
        token: 'access-1',
        refreshToken: 'refresh-1',
        mustChangePassword: false,
        isSuper: false,
        schoolId: 'school-7',
      }),
    );
    server.on(`GET ${API.userInfo}`, () => ok(USER));
    server.on(`GET ${API.pointsTotal}`, () => ok(0));
    const user = userEvent.setup();
    renderApp('/pjedu/userprofile?slideKey=basic');
    const dialog = await loginDialog();
    await user.type(within(dialog).getByLabelText('Institution code'), 'demo2026');
    await user.type(within(dialog).getByLabelText('Username, email or phone'), 'student01');
    await user.type(within(dialog).getByLabelText('Password', { selector: 'input' }), 'Student@2026');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByLabelText('Nickname')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readSession()).toMatchObject({ userId: 'u-1', schoolNumber: 'school-7' });
  });

  it.each(['en', 'zh_CHS'] as const)('has no accessibility violations in %s with the dialog open', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp('/pjedu/userprofile');
    await loginDialog(language === 'en' ? 'Sign in' : '登录');
    await screen.findByLabelText(language === 'en' ? 'Institution code' : '机构代码');
    expect(await axeViolations()).toEqual([]);
  });
});
