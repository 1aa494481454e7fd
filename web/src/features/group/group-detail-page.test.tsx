import { DATASET_API, groupApi, ROLES, type TGroupJoinRequest, type TGroupMember } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aDataset } from '../dataset/dataset-fixtures';
import { AS_MEMBER, GROUP, page, serveGroups } from './group-fixtures';

let server: FakeServer;
const api = groupApi(GROUP.id);

const MEMBERS: TGroupMember[] = [
  {
    userId: 'u-1',
    username: 'teacher1',
    realName: 'Teacher One',
    schoolName: 'Demo Primary School',
    role: 'owner',
    joinedVia: 'created',
    joinedAt: '2026-11-20T00:00:00Z',
  },
  {
    userId: 'u-2',
    username: 'amy',
    realName: 'Amy',
    schoolName: '',
    role: 'member',
    joinedVia: 'code',
    joinedAt: '2026-11-21T00:00:00Z',
  },
];

const REQUEST: TGroupJoinRequest = {
  id: 'r-1',
  userId: 'u-3',
  username: 'ben',
  realName: 'Ben',
  schoolName: 'Other School',
  state: 'pending',
  reason: '',
  createdAt: '2026-11-22T00:00:00Z',
  decidedAt: null,
};

beforeAll(() => import('./group-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  serveGroups(server);
  server.on(`GET ${api.members}`, () => page(MEMBERS));
  server.on(`GET ${api.requests}`, () => page([REQUEST]));
});
afterEach(stopFakeApi);

describe('a group’s pages', () => {
  it('gives the owner the review count and dismisses only after saying nothing of anyone’s is deleted', async () => {
    server.on(`DELETE ${api.base}`, () => ok(null));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    const { router } = renderApp(`/pjedu/groups/${GROUP.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: /Robotics club/ })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Group pages' });
    expect(within(nav).getByRole('link', { name: /Join requests/ }).textContent).toContain('2');
    expect(within(nav).getByRole('link', { name: 'Invitation code' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Dismiss/ }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/nothing of theirs or yours is deleted/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(server.to(api.base).some((r) => r.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/groups'));
  });

  it('lets a member quit, and shows them none of the owner’s pages', async () => {
    serveGroups(server, AS_MEMBER);
    server.on(`POST ${api.quit}`, () => ok(null));
    signInAs(ROLES.student);
    const user = userEvent.setup();
    const { router } = renderApp(`/pjedu/groups/${GROUP.id}`);
    const nav = await screen.findByRole('navigation', { name: 'Group pages' });
    expect(within(nav).queryByRole('link', { name: /Join requests/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Dismiss/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Quit the group/ }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Quit the group' }));
    await waitFor(() => expect(server.to(api.quit)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/groups'));
  });

  it('adds members by username, and says why someone of another school cannot be added', async () => {
    server.on(`POST ${api.members}`, () =>
      fail('6006', 'Only members of your school can be added directly; others join with the invitation code', 403),
    );
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(`/pjedu/groups/${GROUP.id}/members`);
    const row = (await screen.findByText('amy')).closest('tr')!;
    expect(within(row).getByText('Invitation code')).toBeTruthy();
    await user.type(screen.getByLabelText('Add members by username'), 'zoe{Enter}');
    await user.click(screen.getByRole('button', { name: /^(user-add )?Add$/ }));
    await waitFor(() => expect(lastChange(server, api.members)).toEqual({ usernames: ['zoe'] }));
    expect(
      await screen.findByText(
        'Only members of your school can be added directly; others join with the invitation code',
      ),
    ).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('refuses a join request with a reason the applicant will read', async () => {
    server.on(`POST ${api.refuse(REQUEST.id)}`, () => ok(null));
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp(`/pjedu/groups/${GROUP.id}/review`);
    await user.click(await screen.findByRole('button', { name: 'Refuse ben' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Club is full this term');
    await user.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    await waitFor(() =>
      expect(lastChange(server, api.refuse(REQUEST.id))).toEqual({ reason: 'Club is full this term' }),
    );
  });

  it('lists the datasets shared with the group and leads to a new one already shared with it', async () => {
    signInAs(ROLES.student);
    serveGroups(server, AS_MEMBER);
    const shared = aDataset({
      name: 'Robot arm photos',
      access: 'group',
      groupId: AS_MEMBER.id,
      ownerName: 'Mr Wang',
    });
    server.on(`GET ${DATASET_API.base}`, () => page([shared]));
    renderApp(`/pjedu/groups/${AS_MEMBER.id}/datasets`);
    const link = await screen.findByRole('link', { name: 'Robot arm photos' });
    expect(link.getAttribute('href')).toBe(`/pjedu/datasets/${shared.id}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Mr Wang')).toBeTruthy();
    expect(within(row).getByText(/^3 files · /)).toBeTruthy();
    const asked = new URL(server.to(DATASET_API.base)[0]!.url, 'http://x');
    expect(asked.searchParams.get('groupId')).toBe(AS_MEMBER.id);
    const create = screen.getByRole('link', { name: /New dataset for this group/ });
    expect(create.getAttribute('href')).toBe(`/pjedu/datasets/new?groupId=${AS_MEMBER.id}`);
    const nav = screen.getByRole('navigation', { name: 'Group pages' });
    expect(within(nav).getByRole('link', { name: 'Datasets' }).getAttribute('aria-current')).toBe('page');
    expect(await axeViolations()).toEqual([]);
  }, 30_000);
});
