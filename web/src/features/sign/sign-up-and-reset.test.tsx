import { API } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSession } from '../../app/session';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { endSignPages, PUZZLE, requestBody, startSignPages } from './sign-test-kit';

let server: FakeServer;
const bodyOf = (path: string, index = 0) => requestBody(server, path, index);

beforeEach(async () => {
  server = await startSignPages();
});
afterEach(endSignPages);

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
