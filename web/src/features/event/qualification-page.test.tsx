import { EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { EVENT, page, queryOf, REGISTRATION, serveEvents } from './event-page-fixtures';

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}/qualification`;
const ORGANISED = { ...EVENT, viewer: { ...EVENT.viewer, organiser: true } };

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvents(server, ORGANISED);
  server.on(`GET ${EVENT_API.qualification}`, () => page([REGISTRATION]));
  server.on(`POST ${EVENT_API.qualificationDecide}`, () => ok(null));
  signInAs(ROLES.customerAdmin);
});
afterEach(stopFakeApi);

async function openDeclaration(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Open Night owls' }));
  return screen.findByRole('dialog', { name: 'Declaration of Night owls' });
}

describe('the qualification audit', { timeout: 90_000 }, () => {
  it('lists registrations by state and shows a declaration in full', async () => {
    const user = userEvent.setup();
    renderApp(path);
    const drawer = await openDeclaration(user);
    expect(queryOf(server, EVENT_API.qualification).get('state')).toBe('pendingReview');
    expect(queryOf(server, EVENT_API.qualification).get('eventId')).toBe(EVENT.id);
    expect(within(drawer).getByText('E1234567')).toBeTruthy();
    expect(within(drawer).getByText('Passport')).toBeTruthy();
    expect(within(drawer).getByText('wang@example.com')).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByText('Passed'));
    await waitFor(() => expect(queryOf(server, EVENT_API.qualification).get('state')).toBe('passed'));
  });

  it('passes a team', async () => {
    const user = userEvent.setup();
    renderApp(path);
    const drawer = await openDeclaration(user);
    await user.click(within(drawer).getByRole('button', { name: /Pass/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.qualificationDecide)).toEqual({
        registrationId: REGISTRATION.id,
        decision: 'pass',
      }),
    );
  });

  it('refuses a team with a reason, for good when said so', async () => {
    const user = userEvent.setup();
    renderApp(path);
    const drawer = await openDeclaration(user);
    await user.click(within(drawer).getByRole('button', { name: /Refuse/ }));
    const dialog = (await screen.findByText('Refuse Night owls?')).closest('[role=dialog]') as HTMLElement;
    await user.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    expect(await within(dialog).findByText('Say why, so the team can correct it')).toBeTruthy();
    expect(server.to(EVENT_API.qualificationDecide)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), 'The mentor’s phone is missing');
    await user.click(within(dialog).getByRole('checkbox', { name: /Final/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.qualificationDecide)).toEqual({
        registrationId: REGISTRATION.id,
        decision: 'refuse',
        reason: 'The mentor’s phone is missing',
        final: true,
      }),
    );
  });

  it('is for the event’s organisers only', async () => {
    serveEvents(server, EVENT);
    renderApp(path);
    expect(await screen.findByText("Only the event's organisers can do this.")).toBeTruthy();
  });

  it.each(['en', 'ja'] as const)('passes axe with a declaration open in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    const user = userEvent.setup();
    renderApp(path);
    await user.click(await screen.findByRole('button', { name: /Night owls/ }));
    await screen.findByRole('dialog');
    expect(await axeViolations()).toEqual([]);
  });
});
