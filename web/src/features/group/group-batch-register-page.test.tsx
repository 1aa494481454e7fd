import { groupApi, ROLES, type TBatchRegisterRequest } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { AS_MEMBER, GROUP, serveGroups } from './group-fixtures';

let server: FakeServer;
const api = groupApi(GROUP.id);

beforeAll(() => import('./group-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  serveGroups(server);
});
afterEach(stopFakeApi);

const sent = () =>
  server.to(api.batchRegister).map((r) => JSON.parse(r.body ?? 'null') as TBatchRegisterRequest & { dryRun: boolean });

async function fillRow(user: UserEvent, n: number, username: string, phone: string, password: string) {
  await user.type(await screen.findByLabelText(`Username, row ${n}`), username);
  await user.type(screen.getByLabelText(`Phone, row ${n}`), phone);
  await user.type(screen.getByLabelText(`Password, row ${n}`), password);
}

describe('batch registration, for the group’s owner', () => {
  it('checks the rows in a dry run and shows every bad row with its number and reason; nothing is registered', async () => {
    server.on(`POST ${api.batchRegister}`, () =>
      ok({
        dryRun: true,
        total: 2,
        created: 0,
        // The server numbers the rows it was sent: the second sent is the form's third (the second was left blank).
        errors: [{ row: 2, username: 'amy', field: 'username', reason: 'usernameDuplicate' }],
      }),
    );
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(`/pjedu/groups/${GROUP.id}/batch-register`);
    expect(await screen.findByText('Up to 200 accounts per batch. Each new account joins this group.')).toBeTruthy();
    await fillRow(user, 1, 'amy', '13800000001', 'secret123');
    await fillRow(user, 3, 'amy', '13800000002', 'pässword9');
    const register = screen.getByRole('button', { name: /Register 0 accounts/ });
    expect((register as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: /Check/ }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toEqual({
      dryRun: true,
      rows: [
        { username: 'amy', phone: '13800000001', password: btoa('secret123') },
        // Passwords travel as base64 of their UTF-8 bytes.
        { username: 'amy', phone: '13800000002', password: btoa('p\xc3\xa4ssword9') },
      ],
    });
    const problems = (await screen.findByText(/1 problem found/)).closest('.group-batch-problems') as HTMLElement;
    const row = within(problems).getAllByRole('row')[1]!;
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByText('This username appears twice in the batch')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Register/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('registers all rows once a check passed, and reports the accounts created', async () => {
    server.on(`POST ${api.batchRegister}`, (request) => {
      const body = JSON.parse(request.body ?? '{}') as { dryRun: boolean; rows: unknown[] };
      return ok({
        dryRun: body.dryRun,
        total: body.rows.length,
        created: body.dryRun ? 0 : body.rows.length,
        errors: [],
      });
    });
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(`/pjedu/groups/${GROUP.id}/batch-register`);
    await fillRow(user, 1, 'amy01', '13800000001', 'secret123');
    await user.click(await screen.findByRole('button', { name: /Check/ }));
    expect(await screen.findByText('The row is valid and can be registered.')).toBeTruthy();

    // A change after the check asks for a new one before registering.
    await user.type(screen.getByLabelText('Username, row 1'), 'x');
    expect((screen.getByRole('button', { name: /Register/ }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: /Check/ }));
    await user.click(screen.getByRole('button', { name: /Check/ }));
    await user.click(await screen.findByRole('button', { name: /Register 1 account/ }));
    await waitFor(() => expect(sent().at(-1)?.dryRun).toBe(false));
    expect(sent().at(-1)?.rows).toEqual([{ username: 'amy01x', phone: '13800000001', password: btoa('secret123') }]);
    expect(await screen.findByText('1 account registered')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Accounts registered' })).getByText('amy01x')).toBeTruthy();
  });

  it('shows the bad rows when the registration itself is refused (6007), having created nothing', async () => {
    let calls = 0;
    server.on(`POST ${api.batchRegister}`, () => {
      calls += 1;
      if (calls === 1) return ok({ dryRun: true, total: 1, created: 0, errors: [] });
      return {
        status: 400,
        body: {
          errorCode: '6007',
          errorMsg: 'Some rows are not valid, so no account was registered: correct them and try again',
          data: { errors: [{ row: 1, username: 'amy01', field: 'phone', reason: 'phoneTaken' }] },
        },
      };
    });
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(`/pjedu/groups/${GROUP.id}/batch-register`);
    await fillRow(user, 1, 'amy01', '13800000001', 'secret123');
    await user.click(await screen.findByRole('button', { name: /Check/ }));
    await user.click(await screen.findByRole('button', { name: /Register 1 account/ }));
    expect(
      await screen.findByText('Some rows are not valid, so no account was registered: correct them and try again'),
    ).toBeTruthy();
    expect(screen.getAllByText('This phone is already registered').length).toBeGreaterThan(0);
    expect(screen.queryByText(/account registered/)).toBeNull();
  });

  it('answers a member with the refusal, and gives them no link to it', async () => {
    serveGroups(server, AS_MEMBER);
    signInAs(ROLES.student);
    renderApp(`/pjedu/groups/${GROUP.id}/batch-register`);
    expect(
      await screen.findByRole('heading', { name: 'The current user does not have permission to access this page' }),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Batch registration' })).toBeNull();
  });

  it('passes axe', async () => {
    signInAs(ROLES.teacher);
    renderApp(`/pjedu/groups/${GROUP.id}/batch-register`);
    await screen.findByLabelText('Username, row 1');
    expect(await axeViolations()).toEqual([]);
  });
});
