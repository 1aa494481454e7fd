import { groupApi, ROLES, UI_SIZES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { AS_MEMBER, GROUP, serveGroups } from './group-fixtures';

let server: FakeServer;
const api = groupApi(GROUP.id);
const PATH = `/pjedu/groups/${GROUP.id}/invitation`;

beforeAll(() => import('./group-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  serveGroups(server);
});
afterEach(stopFakeApi);

describe('the invitation code, for the group’s owner', () => {
  it('shows the code large with a join link, and resets it only after saying the old code stops working', async () => {
    server.on(`POST ${api.invitationReset}`, () => ok({ code: 'WXYZ6789', enabled: true }));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(PATH);
    expect((await screen.findByTestId('group-code')).textContent).toBe('ABCD2345');
    expect(screen.getByText(/\/pjedu\/groups\?join=ABCD2345$/)).toBeTruthy();

    const reset = screen.getByRole('button', { name: /Reset the code/ });
    await user.click(reset);
    const confirm = await screen.findByRole('dialog');
    expect((confirm.closest('.ant-modal') as HTMLElement).style.width).toBe(`${UI_SIZES.confirmDialogWidth}px`);
    expect(within(confirm).getByText(/The code ABCD2345 stops working at once/)).toBeTruthy();
    // Cancelling keeps the code.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.to(api.invitationReset)).toHaveLength(0);

    await user.click(reset);
    // The cancelled confirmation may still be leaving: the new one is the last.
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(2));
    const again = screen.getAllByRole('dialog').at(-1)!;
    await user.click(within(again).getByRole('button', { name: 'Reset the code' }));
    await waitFor(() => expect(server.to(api.invitationReset)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('group-code').textContent).toBe('WXYZ6789'));
  });

  it('switches joining by code off', async () => {
    server.on(`PUT ${api.invitation}`, () => ok({ code: 'ABCD2345', enabled: false }));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('switch', { name: 'Joining with the code is on' }));
    await waitFor(() => expect(lastChange(server, api.invitation)).toEqual({ enabled: false }));
    expect(await screen.findByText(/Nobody can join with the code while it is off/)).toBeTruthy();
  });

  it('is the owner’s: a member gets the refusal and sees no code', async () => {
    serveGroups(server, AS_MEMBER);
    signInAs(ROLES.student);
    renderApp(PATH);
    expect(
      await screen.findByRole('heading', { name: 'The current user does not have permission to access this page' }),
    ).toBeTruthy();
    expect(screen.queryByTestId('group-code')).toBeNull();
  });

  it.each(['en', 'zh_CHT'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.teacher);
    renderApp(PATH);
    await screen.findByTestId('group-code');
    expect(await axeViolations()).toEqual([]);
  });
});
