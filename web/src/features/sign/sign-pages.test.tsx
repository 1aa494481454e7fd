import { API, ROLES, type TTracePoint } from '@aiedu/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../app/feedback';
import { changeLanguage } from '../../app/i18n';
import { closeLoginDialog } from '../../app/sign-dialogs';
import { clearSession, readGradeInfo, readSession } from '../../app/session';
import { createFakeServer, fail, ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from '../admin/admin-api';

const LOGIN = { id: 'u-1', roles: ['ROLE_STUDENT'], token: 'access-1', refreshToken: 'refresh-1' };
const USER = { id: 'u-1', username: 'student01', nickname: 'Ada', realName: '', avatarUrl: null };
const PUZZLE = {
  captchaId: 'cap-1',
  displayData: {
    baseImg: 'data:image/png;base64,AA==',
    jigsawImg: 'data:image/png;base64,AA==',
    y: 10,
    width: 348,
    height: 160,
    pieceSize: 60,
  },
};

let server: FakeServer;

function bodyOf(path: string, index = 0): Record<string, unknown> {
  return JSON.parse(server.to(path)[index]?.body ?? '{}') as Record<string, unknown>;
}

beforeEach(async () => {
  clearSession();
  // The customer code of the last sign-in is remembered on purpose; every test starts from a new browser.
  document.cookie = 'custcode=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  sessionStorage.clear();
  // Product choices outlive a sign-out on purpose too.
  localStorage.clear();
  await changeLanguage('en', { remember: false });
  server = createFakeServer();
  server.on(`GET ${API.sysSetting}`, () => ok({ isCustomerSingle: false, isVerifyCode: false, custcode: null }));
  server.on(`GET ${API.userInfo}`, () => ok(USER));
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(false));
  server.on(`POST ${API.authLogin}`, () => ok({ ...LOGIN, mustChangePassword: false, isSuper: false }));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
});

afterEach(() => {
  vi.restoreAllMocks();
  closeLoginDialog();
  clearSession();
});

async function fillPasswordLogin(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Institution code'), 'demo2026');
  await user.type(screen.getByLabelText('Username, email or phone'), 'student01');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Student@2026');
}

/** A trace starts at 0 ms and never goes back in time. */
function expectInTimeOrder(trace: TTracePoint[]) {
  expect(trace[0]?.t).toBe(0);
  trace.forEach((point, i) => {
    expect(Number.isInteger(point.t)).toBe(true);
    if (i > 0) expect(point.t).toBeGreaterThanOrEqual(trace[i - 1]!.t);
  });
}

/** Opens the sign-in page and signs in, where the server asks for the puzzle: its slider, focused. */
async function signInUntilPuzzle(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/portal/sign/login');
  await fillPasswordLogin(user);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  const slider = await screen.findByRole('slider', { name: 'Puzzle slider' });
  slider.focus();
  return slider;
}

describe('password sign-in page', () => {
  it('enables submit only when every field is filled, sends the base64 password and saves the session', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/portal/sign/login?from=%2Fpjedu%2Fcourses');
    const submit = await screen.findByRole('button', { name: 'Sign in' });
    expect(submit.hasAttribute('disabled')).toBe(true);

    await fillPasswordLogin(user);
    await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(false));
    await user.click(submit);

    // The course centre's code loads before the navigation completes.
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/courses'), { timeout: 15_000 });
    expect(bodyOf(API.authLogin)).toMatchObject({
      custcode: 'demo2026',
      usernameOrEmailOrPhone: 'student01',
      password: btoa('Student@2026'),
    });
    expect(readSession()).toMatchObject({
      token: 'access-1',
      refreshToken: 'refresh-1',
      userId: 'u-1',
      custcode: 'demo2026',
    });
  });

  it('shows the server refusal next to the form and stays on the page', async () => {
    server.on(`POST ${API.authLogin}`, () => fail('1102', 'Username or password incorrect', 400));
    const user = userEvent.setup();
    const { router } = renderApp('/portal/sign/login');
    await fillPasswordLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Username or password incorrect')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/portal/sign/login');
    expect(readSession().token).toBeNull();
  });

  it('says how long a sign-in is held back after failures (1101)', async () => {
    server.on(`POST ${API.authLogin}`, () => ({
      status: 429,
      body: { errorCode: '1101', errorMsg: 'Too many login attempts, please try again later', data: { retryAfter: 8 } },
    }));
    const user = userEvent.setup();
    renderApp('/portal/sign/login');
    await fillPasswordLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(
      await screen.findByText('Too many login attempts, please try again later You can try again in 8 s.'),
    ).toBeTruthy();
    expect(readSession().token).toBeNull();
  });

  it('asks for the slider puzzle when the server says so; a wrong slide loads a new puzzle, a right one signs in', async () => {
    server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(true));
    let puzzles = 0;
    server.on(`GET ${API.captcha}`, () => ok({ ...PUZZLE, captchaId: `cap-${++puzzles}` }));
    server.on(`POST ${API.captchaCheck}`, (request) => {
      const { checkedData } = JSON.parse(request.body ?? '{}') as { checkedData: { x: number } };
      return checkedData.x === 120 ? ok({ pass: true }) : fail('1116', 'Verification failed, try again', 400);
    });
    const user = userEvent.setup();
    const slider = await signInUntilPuzzle(user);
    await user.keyboard('{End}');
    expect(slider.getAttribute('aria-valuenow')).toBe('281');
    await user.keyboard('{ArrowRight}');
    expect(slider.getAttribute('aria-valuenow')).toBe('281');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Verification failed, try again')).toBeTruthy();
    await waitFor(() => expect(puzzles).toBe(2));
    expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('0');
    expect(server.to(API.authLogin)).toHaveLength(0);

    screen.getByRole('slider').focus();
    await user.keyboard(
      '{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}',
    );
    await user.keyboard('{Enter}');

    await waitFor(() => expect(server.to(API.authLogin)).toHaveLength(1));
    expect(bodyOf(API.authLogin)).toMatchObject({ captchaId: 'cap-2' });
    // Each key press moved the slider one step: the trace has where it was and where it went, at the press.
    const { checkedData } = bodyOf(API.captchaCheck, 1) as { checkedData: { x: number; trace: TTracePoint[] } };
    expect(checkedData.x).toBe(120);
    expect(checkedData.trace.map((point) => point.x)).toEqual(
      Array.from({ length: 12 }, (_, i) => [i * 10, (i + 1) * 10]).flat(),
    );
    expectInTimeOrder(checkedData.trace);
    await waitFor(() => expect(readSession().token).toBe('access-1'));
  });

  it('sends the trace of a drag of the slider with its check', async () => {
    server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(true));
    server.on(`GET ${API.captcha}`, () => ok(PUZZLE));
    server.on(`POST ${API.captchaCheck}`, () => ok({ pass: true }));
    const slider = await signInUntilPuzzle(userEvent.setup());
    await waitFor(() => expect(slider.getAttribute('aria-disabled')).not.toBe('true'));

    fireEvent.pointerDown(slider, { pointerId: 7, clientX: 500 });
    for (const clientX of [500, 504, 530, 590, 640, 652, 655]) fireEvent.pointerMove(slider, { pointerId: 7, clientX });
    fireEvent.pointerUp(slider, { pointerId: 7, clientX: 656 });

    await waitFor(() => expect(server.to(API.captchaCheck)).toHaveLength(1));
    const { checkedData } = bodyOf(API.captchaCheck) as { checkedData: { x: number; trace: TTracePoint[] } };
    expect(checkedData.x).toBe(156);
    expect(checkedData.trace.map((point) => point.x)).toEqual([0, 0, 4, 30, 90, 140, 152, 155, 156]);
    expectInTimeOrder(checkedData.trace);
    await waitFor(() => expect(server.to(API.authLogin)).toHaveLength(1));
  });

  it("fetches and stores an organisation administrator's grades after sign-in", async () => {
    const grades = [{ eduStage: 'primary', grade: 4, classCount: 2 }];
    server.on(`POST ${API.authLogin}`, () =>
      ok({ ...LOGIN, roles: ['ROLE_ADMINORGANIZE'], mustChangePassword: false, isSuper: false }),
    );
    server.on(`GET ${API.organizeGrades}`, () => ok(grades));
    const user = userEvent.setup();
    renderApp('/portal/sign/login');
    await fillPasswordLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(readGradeInfo()).toEqual(grades));
    expect(readSession().isGrade).toBe(true);
  });

  it("fetches an organisation administrator's grades only once an administrator-set password is replaced", async () => {
    const grades = [{ eduStage: 'primary', grade: 4, classCount: 2 }];
    let replaced = false;
    server.on(`POST ${API.authLogin}`, () =>
      ok({ ...LOGIN, roles: ['ROLE_ADMINORGANIZE'], mustChangePassword: true, isSuper: false }),
    );
    server.on(`GET ${API.organizeGrades}`, () =>
      replaced ? ok(grades) : fail('1118', 'Please change your password first', 403),
    );
    server.on(`PUT ${API.defaultPassword}`, () => {
      replaced = true;
      return ok({ token: 'access-2', refreshToken: 'refresh-2' });
    });
    const user = userEvent.setup();
    renderApp('/portal/sign/login');
    await fillPasswordLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const dialog = await screen.findByRole('dialog', { name: 'Choose your own password' });
    expect(readSession()).toMatchObject({ token: 'access-1', isGrade: false });
    expect(readGradeInfo()).toEqual([]);
    await user.type(within(dialog).getByLabelText('New password'), 'Admin2026x');
    await user.type(within(dialog).getByLabelText('Confirm password'), 'Admin2026x');
    await user.click(within(dialog).getByRole('button', { name: 'Save password' }));

    await waitFor(() => expect(readGradeInfo()).toEqual(grades));
    expect(readSession()).toMatchObject({ token: 'access-2', isGrade: true });
  });

  it('loads a new puzzle at once when the sign-in with a passed puzzle asks for the puzzle again', async () => {
    server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(true));
    let puzzles = 0;
    const spent = new Set<string>();
    server.on(`GET ${API.captcha}`, () => ok({ ...PUZZLE, captchaId: `cap-${++puzzles}` }));
    server.on(`POST ${API.captchaCheck}`, (request) => {
      const { captchaId } = JSON.parse(request.body ?? '{}') as { captchaId: string };
      return spent.has(captchaId) ? fail('1116', 'Verification failed, try again', 400) : ok({ pass: true });
    });
    server.on(`POST ${API.authLogin}`, (request) => {
      const { captchaId } = JSON.parse(request.body ?? '{}') as { captchaId: string };
      spent.add(captchaId);
      // The first try crossed the failure limit meanwhile: the puzzle once more.
      return server.to(API.authLogin).length === 1
        ? fail('1104', 'Please complete the slider verification', 400)
        : ok({ ...LOGIN, mustChangePassword: false, isSuper: false });
    });
    const user = userEvent.setup();
    await signInUntilPuzzle(user);
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(server.to(API.authLogin)).toHaveLength(1));
    await waitFor(() => expect(puzzles).toBe(2));
    await waitFor(() => expect(screen.getByRole('slider').getAttribute('aria-disabled')).not.toBe('true'));

    screen.getByRole('slider').focus();
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(readSession().token).toBe('access-1'));
    expect(bodyOf(API.captchaCheck, 1)).toMatchObject({ captchaId: 'cap-2' });
    expect(bodyOf(API.authLogin, 1)).toMatchObject({ captchaId: 'cap-2' });
    expect(screen.queryByText('Verification failed, try again')).toBeNull();
  });

  it('signs in to the deployment’s one customer, its code field hidden, in a browser that never used it', async () => {
    server.on(`GET ${API.sysSetting}`, () =>
      ok({ isCustomerSingle: true, isVerifyCode: false, custcode: 'ourschool1' }),
    );
    const user = userEvent.setup();
    renderApp('/portal/sign/login');
    await user.type(await screen.findByLabelText('Username, email or phone'), 'student01');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Student@2026');
    expect(screen.queryByLabelText('Institution code')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(server.to(API.authLogin)).toHaveLength(1));
    expect(bodyOf(API.authLogin)).toMatchObject({ custcode: 'ourschool1', usernameOrEmailOrPhone: 'student01' });
    expect(server.to(API.authVerifyCodeEnabled)[0]?.url).toContain('custcode=ourschool1');
  });

  it('locks the customer code given by ?r=', async () => {
    renderApp('/portal/sign/login?r=other2026');
    const field = await screen.findByLabelText('Institution code');
    expect((field as HTMLInputElement).value).toBe('other2026');
    expect(field.hasAttribute('readonly')).toBe(true);
  });
});

describe('where a sign-in lands', () => {
  const APPS = [
    { id: 'pjedu', name: 'AI Learning', description: 'Courses and projects', path: '/pjedu/home' },
    { id: 'admin', name: 'Institution Administration', description: 'Schools and classes', path: '/admin' },
    { id: 'open', name: 'Open Platform', description: 'API documents', path: '/open' },
  ];

  function signInAsSchoolAdmin() {
    server.on(`POST ${API.authLogin}`, () =>
      ok({ ...LOGIN, roles: [ROLES.schoolAdmin], mustChangePassword: false, isSuper: false }),
    );
  }

  async function signInOnThePage(path = '/portal/sign/login') {
    const user = userEvent.setup();
    const view = renderApp(path);
    await fillPasswordLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    return { user, router: view.router };
  }

  beforeEach(() => {
    server.on(`GET ${API.apps}`, () => ok(APPS));
    server.on(`GET ${ADMIN_API.periods}`, () => ok([]));
  });

  it('shows a school administrator the chooser; the chosen administration is where the next sign-in lands', async () => {
    signInAsSchoolAdmin();
    const { user, router } = await signInOnThePage();

    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/products'), { timeout: 15_000 });
    expect(await screen.findByRole('heading', { level: 2, name: 'Institution Administration' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Open Platform' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Go to Institution Administration' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/periods'), { timeout: 15_000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Periods' })).toBeTruthy();
    expect(readSession()).toMatchObject({ isUserSelect: true, product: 'admin' });

    // Signed out and in again: straight to the administration, the chooser not asked for.
    cleanup();
    clearSession();
    const requested = server.to(API.apps).length;
    const again = await signInOnThePage('/user/sign/login');
    await waitFor(() => expect(again.router.state.location.pathname).toBe('/admin/periods'), { timeout: 15_000 });
    expect(server.to(API.apps)).toHaveLength(requested);
  });

  it('sends a student straight to the learning home', async () => {
    const { router } = await signInOnThePage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/home'), { timeout: 15_000 });
    expect(server.to(API.apps)).toHaveLength(0);
  });

  it('lets the return path win over the chooser, on the sign-in and the single sign-on pages', async () => {
    signInAsSchoolAdmin();
    const { router } = await signInOnThePage('/portal/sign/login?from=%2Fpjedu%2Fuserprofile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/userprofile'), { timeout: 15_000 });

    cleanup();
    clearSession();
    const targetUrl = encodeURIComponent(`${window.location.origin}/pjedu/courses?page=2`);
    const sso = await signInOnThePage(`/pjedu/login?targetUrl=${targetUrl}&clientId=test-client`);
    await waitFor(() => expect(sso.router.state.location.pathname).toBe('/pjedu/courses'), { timeout: 15_000 });
    expect(server.to(API.apps)).toHaveLength(0);
  });

  it('offers a signed-in user of several products the chooser from the account menu', async () => {
    signInAsSchoolAdmin();
    const { user, router } = await signInOnThePage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/products'), { timeout: 15_000 });
    await user.click(await screen.findByRole('link', { name: 'Go to AI Learning' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/home'));

    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    await user.click(await screen.findByRole('link', { name: 'Switch product' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/products'));
  });
});

describe('login dialog', () => {
  it('shows why a disabled account cannot sign in, in the dialog, and stays on the page', async () => {
    server.on(`POST ${API.authLogin}`, () => fail('E003', 'This account has been disabled', 401));
    const toastError = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    const { router } = renderApp('/home');
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await user.type(await within(dialog).findByLabelText('Institution code'), 'demo2026');
    await user.type(within(dialog).getByLabelText('Username, email or phone'), 'student01');
    await user.type(within(dialog).getByLabelText('Password', { selector: 'input' }), 'Student@2026');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    expect(await within(dialog).findByText('This account has been disabled')).toBeTruthy();
    // Not the "session ended" reaction: no toast, and no sign-in page loaded over this one.
    expect(toastError).not.toHaveBeenCalled();
    expect(server.to(API.authToken)).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBe(dialog);
  });
});

describe('sign-up', () => {
  it('sends a code only for a complete phone, counts down 60 s, then registers and signs in with the same phone', async () => {
    server.on(`POST ${API.sendCode}`, () => ok(null));
    server.on(`POST ${API.registerByPhone}`, () => ok({ id: 'u-1' }));
    const user = userEvent.setup();
    renderApp('/portal/sign/register');
    const send = await screen.findByRole('button', { name: 'Send code' });
    await user.type(screen.getByLabelText('Phone number'), '1380013800');
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Phone number'), '0');
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
    await user.click(send);

    expect(await screen.findByRole('button', { name: /Send again in (59|60) s/ })).toBeTruthy();
    expect(bodyOf(API.sendCode)).toEqual({ scene: 'REGISTER', target: '13800138000', type: 'phone' });

    const submit = screen.getByRole('button', { name: 'Sign up' });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'Learn2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Learn2027');
    expect(await screen.findByText('The two passwords you typed do not match')).toBeTruthy();
    // Every field is filled but the agreement: submit waits for it.
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox'));
    await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(false));
    await user.click(screen.getByRole('checkbox'));
    expect(await screen.findByText('Please read and agree to the user agreement and privacy policy')).toBeTruthy();
    await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(true));
    await user.click(screen.getByRole('checkbox'));
    await user.click(submit);
    expect(server.to(API.registerByPhone)).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'Learn2026');
    await user.click(submit);

    await waitFor(() => expect(server.to(API.authLogin)).toHaveLength(1));
    expect(bodyOf(API.registerByPhone)).toEqual({
      phone: '13800138000',
      password: btoa('Learn2026'),
      verifyCode: '123456',
    });
    expect(bodyOf(API.authLogin)).toMatchObject({ custcode: '', usernameOrEmailOrPhone: '13800138000' });
  });
});

describe('sign-up where every sign-in passes the puzzle', () => {
  it('registers once, shows the puzzle, and signs in with the new account once it is passed', async () => {
    server.on(`GET ${API.sysSetting}`, () => ok({ isCustomerSingle: false, isVerifyCode: true }));
    server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(true));
    server.on(`GET ${API.captcha}`, () => ok(PUZZLE));
    server.on(`POST ${API.captchaCheck}`, () => ok({ pass: true }));
    server.on(`POST ${API.sendCode}`, () => ok(null));
    server.on(`POST ${API.registerByPhone}`, () => ok({ id: 'u-1' }));
    const user = userEvent.setup();
    renderApp('/portal/sign/register');
    await user.type(await screen.findByLabelText('Phone number'), '13800138000');
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'Learn2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Learn2026');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const slider = await screen.findByRole('slider', { name: 'Puzzle slider' });
    expect(server.to(API.registerByPhone)).toHaveLength(1);
    expect(server.to(API.authLogin)).toHaveLength(0);
    slider.focus();
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(readSession().token).toBe('access-1'));
    expect(bodyOf(API.authLogin)).toMatchObject({
      custcode: '',
      usernameOrEmailOrPhone: '13800138000',
      captchaId: 'cap-1',
    });
    expect(server.to(API.registerByPhone)).toHaveLength(1);
  });
});

describe('phone-code sign-in and password reset forms', () => {
  it('enable the reset only once every field is filled', async () => {
    const user = userEvent.setup();
    renderApp('/portal/sign/reset-password');
    const reset = await screen.findByRole('button', { name: 'Reset password' });
    expect(reset.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Institution code'), 'demo2026');
    await user.type(screen.getByLabelText('Phone number or email'), '13800138000');
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'Reset2026');
    expect(reset.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Confirm password'), 'Reset2026');
    await waitFor(() => expect(reset.hasAttribute('disabled')).toBe(false));
    await user.clear(screen.getByLabelText('Institution code'));
    await waitFor(() => expect(reset.hasAttribute('disabled')).toBe(true));
  });

  it('enable the phone-code sign-in only once every field is filled', async () => {
    const user = userEvent.setup();
    renderApp('/portal/sign/login');
    await user.click(await screen.findByRole('tab', { name: 'Phone code' }));
    const panel = screen.getByRole('tabpanel');
    const signIn = within(panel).getByRole('button', { name: 'Sign in' });
    await user.type(within(panel).getByLabelText('Institution code'), 'demo2026');
    await user.type(within(panel).getByLabelText('Phone number'), '13800138000');
    expect(signIn.hasAttribute('disabled')).toBe(true);
    await user.type(within(panel).getByLabelText('Verification code'), '123456');
    await waitFor(() => expect(signIn.hasAttribute('disabled')).toBe(false));
  });
});

describe('password reset', () => {
  it('shows "reset password done", then returns to the sign-in page', async () => {
    server.on(`POST ${API.sendCode}`, () => ok(null));
    server.on(`POST ${API.resetPassword}`, () => ok(null));
    const user = userEvent.setup();
    const { router } = renderApp('/portal/sign/reset-password');
    await user.click(await screen.findByLabelText('Personal account (no institution)'));
    await user.type(screen.getByLabelText('Phone number or email'), '13800138000');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'Reset2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Reset2026');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    await waitFor(() => expect(server.requests.map((r) => r.url)).toContain(API.resetPassword));
    expect(await screen.findByText('Reset password done')).toBeTruthy();
    expect(bodyOf(API.resetPassword)).toMatchObject({
      user: '13800138000',
      password: btoa('Reset2026'),
      verifyCode: '654321',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal/sign/login'), { timeout: 15_000 });
  });

  it('takes an email of up to 50 characters in any case as the contact, which 11 characters never allowed', async () => {
    server.on(`POST ${API.sendCode}`, () => ok(null));
    const user = userEvent.setup();
    renderApp('/portal/sign/reset-password');
    await user.click(await screen.findByLabelText('Personal account (no institution)'));
    const contact = screen.getByLabelText('Phone number or email');
    await user.type(contact, 'Ada.Lovelace@School.example');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(server.to(API.sendCode)).toHaveLength(1));
    expect(bodyOf(API.sendCode)).toMatchObject({ scene: 'RESET_PWD', target: 'Ada.Lovelace@School.example' });

    // The field takes no more than 50 characters, and says what it wants.
    await user.clear(contact);
    await user.type(contact, `${'a'.repeat(60)}@x.test`);
    expect((contact as HTMLInputElement).value).toHaveLength(50);
    expect(await screen.findByText('Enter a valid phone number or an email of at most 50 characters')).toBeTruthy();
    expect(server.to(API.sendCode)).toHaveLength(1);
  });
});
