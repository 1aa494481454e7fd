import { EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { at, EVENT, queryOf, REGISTRATION, serveEvents } from './event-page-fixtures';

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}/declaration`;
const OPEN = at('2026-12-03T00:00:00Z', { phase: 'registration' });
const DRAFT = { ...REGISTRATION, state: 'inProgress' as const, submittedAt: null };

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvents(server, OPEN);
  server.on(`POST ${EVENT_API.registration}`, () => ok(DRAFT));
  server.on(`PUT ${EVENT_API.registrationSubmit}`, () => ok({ ...DRAFT, state: 'pendingReview' }));
  server.on(`PUT ${EVENT_API.registrationWithdraw}`, () => ok({ ...DRAFT, state: 'ended' }));
  signInAs(ROLES.student);
});
afterEach(stopFakeApi);

const section = (name: string) => screen.getByRole('region', { name }) as HTMLElement;
const saves = () => server.to(EVENT_API.registration).filter((r) => r.method === 'POST');

describe('the registration and declaration form', { timeout: 90_000 }, () => {
  it('needs an applicant and a mentor within the limits before it sends, then saves and sends it', async () => {
    const user = userEvent.setup();
    renderApp(path);
    const team = await screen.findByLabelText('Team name');
    const applicants = section('Applicants');
    // The signed-in user is the first applicant.
    expect((within(applicants).getByLabelText('Name') as HTMLInputElement).value).toBe('Admin');
    expect(within(applicants).getByText('Applicant 1 · you')).toBeTruthy();
    await user.type(team, 'Night owls');

    await user.click(screen.getByRole('button', { name: /Send for the audit/ }));
    expect(
      await within(section('Mentors')).findByText('From 1 to 1 mentors.', { selector: '[role=alert] *' }),
    ).toBeTruthy();
    expect(saves()).toHaveLength(0);

    // Two applicants at most: the add button stops there.
    await user.click(within(applicants).getByRole('button', { name: /Add an applicant/ }));
    expect(
      within(applicants)
        .getByRole('button', { name: /Add an applicant/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    await user.click(within(applicants).getByRole('button', { name: /Remove Applicant 2/ }));

    const mentors = section('Mentors');
    await user.click(within(mentors).getByRole('button', { name: /Add a mentor/ }));
    await user.type(within(mentors).getByLabelText('Name'), 'Ms Wang');
    await user.type(within(mentors).getByLabelText('Email'), 'wang@example.com');
    await user.click(within(mentors).getByRole('combobox', { name: 'Document type' }));
    await user.click(await screen.findByTitle('Passport'));
    await user.click(screen.getByRole('button', { name: /Send for the audit/ }));
    await waitFor(() => expect(server.to(EVENT_API.registrationSubmit)).toHaveLength(1));
    const body = lastChange(server, EVENT_API.registration) as { members: Record<string, unknown>[] };
    expect(body).toMatchObject({ eventId: EVENT.id, trackId: 'vision', teamName: 'Night owls' });
    expect(body.members).toHaveLength(2);
    expect(body.members[0]).toMatchObject({ role: 'applicant', userId: 'u-1', name: 'Admin' });
    expect(body.members[1]).toEqual({
      role: 'mentor',
      userId: null,
      name: 'Ms Wang',
      photoKey: null,
      birthday: null,
      ethnicity: '',
      documentType: 'passport',
      documentNumber: '',
      school: '',
      grade: '',
      studentNumber: '',
      phone: '',
      email: 'wang@example.com',
      qq: '',
      wechat: '',
      address: '',
      district: '',
    });
    expect(queryOf(server, EVENT_API.registrationSubmit).get('registrationId')).toBe(DRAFT.id);
  });

  it('refuses a team without any applicant', async () => {
    const user = userEvent.setup();
    renderApp(path);
    await user.type(await screen.findByLabelText('Team name'), 'Night owls');
    const applicants = section('Applicants');
    await user.click(within(applicants).getByRole('button', { name: /Remove Applicant 1/ }));
    const mentors = section('Mentors');
    await user.click(within(mentors).getByRole('button', { name: /Add a mentor/ }));
    await user.type(within(mentors).getByLabelText('Name'), 'Ms Wang');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(await within(applicants).findByText('From 1 to 2 applicants.', { selector: '[role=alert] *' })).toBeTruthy();
    expect(saves()).toHaveLength(0);
  });

  it('takes a photo of at most 2 MB and sends its key with the member', async () => {
    server.on(`POST ${EVENT_API.uploadPhoto}`, () => ok({ key: 'photos/li.png', url: '/files/li.png' }));
    server.on(`GET ${EVENT_API.registration}`, () => ok(DRAFT));
    const user = userEvent.setup();
    renderApp(path);
    await screen.findByDisplayValue('Night owls');
    const applicants = section('Applicants');
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 2 * 1024 * 1024 + 1 });
    await user.upload(applicants.querySelector('input[type=file]') as HTMLInputElement, big);
    expect(await within(applicants).findByText('The photo must be 2 MB or smaller.')).toBeTruthy();
    expect(server.to(EVENT_API.uploadPhoto)).toHaveLength(0);
    await user.upload(
      applicants.querySelector('input[type=file]') as HTMLInputElement,
      new File(['png'], 'li.png', { type: 'image/png' }),
    );
    expect(await within(applicants).findByRole('img', { name: 'Photo of Applicant 1' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    const body = lastChange(server, EVENT_API.registration) as { members: { photoKey: string | null }[] };
    expect(body.members[0]!.photoKey).toBe('photos/li.png');
  });

  it.each([
    ['4504', 'The number of applicants or mentors is outside the event’s limits', 'save'],
    ['4501', 'Registration for this event has closed', 'submit'],
  ])('shows the server’s %s refusal in its own words', async (code, message, step) => {
    if (step === 'save') server.on(`POST ${EVENT_API.registration}`, () => fail(code, message, 400));
    else server.on(`PUT ${EVENT_API.registrationSubmit}`, () => fail(code, message, 409));
    server.on(`GET ${EVENT_API.registration}`, () => ok(DRAFT));
    const user = userEvent.setup();
    renderApp(path);
    await screen.findByDisplayValue('Night owls');
    await user.click(screen.getByRole('button', { name: /Send for the audit/ }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('shows a sent declaration read-only with its state, and withdraws the team after asking', async () => {
    server.on(`GET ${EVENT_API.registration}`, () => ok(REGISTRATION));
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByText('Waiting for the audit')).toBeTruthy();
    expect(screen.getByText('It was sent, so it can no longer be changed.')).toBeTruthy();
    expect((screen.getByLabelText('Team name') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Send for the audit/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Withdraw/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/cannot be undone/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(server.to(EVENT_API.registrationWithdraw)).toHaveLength(1));
  });

  it('shows the organisers’ reason after a refusal, and lets the team correct it', async () => {
    server.on(`GET ${EVENT_API.registration}`, () => ok({ ...DRAFT, refuseReason: 'The mentor’s phone is missing' }));
    renderApp(path);
    expect(await screen.findByText('The organisers refused it: The mentor’s phone is missing')).toBeTruthy();
    expect((screen.getByLabelText('Team name') as HTMLInputElement).disabled).toBe(false);
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    server.on(`GET ${EVENT_API.registration}`, () => ok(DRAFT));
    renderApp(path);
    await screen.findByDisplayValue('Night owls');
    expect(await axeViolations()).toEqual([]);
  });
});
