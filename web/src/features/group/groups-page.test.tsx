import { ROLES, GROUP_API } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { page, serveGroups } from './group-fixtures';

let server: FakeServer;

// The screens' code, loaded once before the first test's clock starts (a cold import takes seconds on a busy machine).
beforeAll(() => import('./group-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  serveGroups(server);
});
afterEach(stopFakeApi);

const lastQuery = () => new URL(server.to(GROUP_API.base).at(-1)!.url, 'http://x').searchParams;

describe('the groups list', () => {
  it('shows the groups as cards with their counts and the caller’s role, searched and per tab on the server', async () => {
    signInAs(ROLES.student);
    const user = userEvent.setup();
    renderApp('/pjedu/groups');
    const card = (await screen.findByRole('link', { name: 'Chess team' })).closest('.group-card') as HTMLElement;
    expect(within(card).getByText('12 members · 0 projects · 3 courses')).toBeTruthy();
    expect(within(card).getByText('Member')).toBeTruthy();
    expect(lastQuery().get('scope')).toBe('visible');
    await user.type(screen.getByRole('searchbox', { name: 'Search groups by name' }), 'chess{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('chess'));
    await user.click(screen.getByRole('tab', { name: 'Created by me' }));
    await waitFor(() => expect(lastQuery().get('scope')).toBe('mine'));
  });

  it('teaches how to get a first group when there is none', async () => {
    server.on(`GET ${GROUP_API.base}`, () => page([]));
    signInAs(ROLES.student);
    renderApp('/pjedu/groups');
    expect(await screen.findByText(/You are in no group yet/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Join with a code/ })).toHaveLength(2);
  });

  it('joins with a code and opens the group', async () => {
    server.on(`POST ${GROUP_API.join}`, () => ok({ state: 'joined', groupId: 'g-1' }));
    signInAs(ROLES.student);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/groups');
    await screen.findByRole('link', { name: 'Chess team' });
    await user.click(screen.getByRole('button', { name: /Join with a code/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Invitation code'), 'abcd2345');
    await user.click(within(dialog).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(lastChange(server, GROUP_API.join)).toEqual({ code: 'ABCD2345' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/groups/g-1'));
  });

  it('tells an applicant their request waits for the owner, and shows its outcome later', async () => {
    server.on(`POST ${GROUP_API.join}`, () => ok({ state: 'pending', groupId: 'g-1' }));
    signInAs(ROLES.student);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/groups?join=ABCD2345');
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Invitation code') as HTMLInputElement).value).toBe('ABCD2345');
    await user.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await within(dialog).findByText('Your request was sent')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pjedu/groups');

    server.on(`GET ${GROUP_API.myRequests}`, () =>
      page([
        {
          id: 'r-1',
          groupId: 'g-1',
          groupName: 'Robotics club',
          state: 'refused',
          reason: 'Club is full this term',
          createdAt: '2026-11-21T00:00:00Z',
          decidedAt: '2026-11-22T00:00:00Z',
        },
      ]),
    );
    await user.click(within(dialog).getByRole('button', { name: 'My requests' }));
    const drawer = await screen.findByRole('dialog', { name: 'My requests to join' });
    expect(await within(drawer).findByText('Refused')).toBeTruthy();
    expect(within(drawer).getByText('Reason: Club is full this term')).toBeTruthy();
  });

  it('shows a refused code in the dialog, in the server’s words', async () => {
    server.on(`POST ${GROUP_API.join}`, () => fail('6001', 'The invitation code is invalid or no longer enabled', 404));
    signInAs(ROLES.student);
    const user = userEvent.setup();
    renderApp('/pjedu/groups?join=WRONG234');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await within(dialog).findByText('The invitation code is invalid or no longer enabled')).toBeTruthy();
  });

  it('creates a group with a name and opens it', async () => {
    server.on(`POST ${GROUP_API.base}`, () => ok({ id: 'g-1', name: 'Robotics club' }));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/groups');
    await screen.findByRole('link', { name: 'Chess team' });
    await user.click(screen.getByRole('button', { name: /Create a group/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText("Enter the group's name")).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Name'), 'Robotics club');
    await user.click(within(dialog).getByRole('switch', { name: 'Review requests to join' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(lastChange(server, GROUP_API.base)).toEqual({ name: 'Robotics club', description: '', joinReview: true }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/groups/g-1'));
  });

  it.each(['en', 'ja'] as const)('passes axe on the list and the join dialog in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.student);
    renderApp('/pjedu/groups?join=ABCD2345');
    await screen.findByRole('link', { name: 'Chess team' });
    await screen.findByRole('dialog');
    expect(await axeViolations()).toEqual([]);
  });
});
