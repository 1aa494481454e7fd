import { API, ROLES, type TTracePoint } from '@aiedu/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../app/feedback';
import { clearSession, readGradeInfo, readSession } from '../../app/session';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { endSignPages, LOGIN, PUZZLE, requestBody, startSignPages } from './sign-test-kit';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from '../admin/admin-api';

let server: FakeServer;
const bodyOf = (path: string, index = 0) => requestBody(server, path, index);

beforeEach(async () => {
  server = await startSignPages();
});
afterEach(endSignPages);

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
