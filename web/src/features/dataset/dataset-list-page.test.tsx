import { DATASET_API } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import type { FakeServer } from '../../test/fake-api';
import { ok } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aDataset, answerSurroundings, ROBOTICS_CLUB } from './dataset-fixtures';

let server: FakeServer;

const IRIS = aDataset({ access: 'group', groupId: ROBOTICS_CLUB.id, published: true });
const DIGITS = aDataset({
  id: '0192f7a0-0000-7000-8000-0000000000d2',
  name: 'Handwritten digits',
  tags: ['images', 'numbers'],
  access: 'public',
  currentVersion: null,
  ownerName: 'Grace',
});

beforeEach(async () => {
  server = await startFakeApi();
  signInAs('ROLE_STUDENT');
  answerSurroundings(server);
  server.on(`GET ${DATASET_API.base}`, () => ok({ list: [IRIS, DIGITS], total: 2, page: 1, size: 12 }));
});
afterEach(stopFakeApi);

/** The query string of the last list request, as an object. */
const lastQuery = () =>
  Object.fromEntries(new URL(server.to(DATASET_API.base).at(-1)!.url, 'http://x').searchParams.entries());

const pick = async (user: ReturnType<typeof userEvent.setup>, label: string, option: string) => {
  await user.click(screen.getByRole('combobox', { name: label }));
  const options = await screen.findAllByTitle(option);
  await user.click(options.find((o) => o.closest('.ant-select-item-option'))!);
};

describe('dataset list', () => {
  it('shows each dataset with its access, group, tags, files, size and owner', async () => {
    renderApp('/pjedu/datasets');
    expect(await screen.findByRole('heading', { level: 1, name: 'Datasets' })).toBeTruthy();
    const iris = (await screen.findByRole('link', { name: 'Iris flowers' })).closest('.ant-card') as HTMLElement;
    expect(within(iris).getByRole('link', { name: 'Iris flowers' }).getAttribute('href')).toBe(
      `/pjedu/datasets/${IRIS.id}`,
    );
    expect(await within(iris).findByText('Group: Robotics club')).toBeTruthy();
    expect(within(iris).getByText('Published')).toBeTruthy();
    expect(within(iris).getByText('3 files · 3 MB')).toBeTruthy();
    const digits = screen.getByRole('link', { name: 'Handwritten digits' }).closest('.ant-card') as HTMLElement;
    expect(within(digits).getByText('Public')).toBeTruthy();
    expect(within(digits).getByText('No data uploaded yet')).toBeTruthy();
    expect(within(digits).getByText(/^by Grace/)).toBeTruthy();
    expect(screen.getByText('2 datasets')).toBeTruthy();
    expect(lastQuery()).toMatchObject({ scope: 'all', page: '1', sort: 'updatedAt,desc' });
    expect(await axeViolations()).toEqual([]);
  });

  it('sends the tab, keyword, tag, access and sort to the server, each from the first page', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/datasets');
    await screen.findByRole('link', { name: 'Iris flowers' });
    await user.click(screen.getByRole('tab', { name: 'My datasets' }));
    await waitFor(() => expect(lastQuery().scope).toBe('mine'));
    await screen.findByRole('link', { name: 'Iris flowers' });
    await user.type(screen.getByRole('searchbox', { name: 'Search datasets' }), 'flowers{Enter}');
    await waitFor(() => expect(lastQuery().keyword).toBe('flowers'));
    await pick(user, 'Who can see it', 'Group');
    await waitFor(() => expect(lastQuery().access).toBe('group'));
    await pick(user, 'Tag', 'numbers');
    await waitFor(() => expect(lastQuery().tag).toBe('numbers'));
    await pick(user, 'Sort by', 'Name');
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        scope: 'mine',
        page: '1',
        size: '12',
        keyword: 'flowers',
        access: 'group',
        tag: 'numbers',
        sort: 'name,asc',
      }),
    );
  }, 30_000);

  it.each([
    ['zh_CHS', '数据集', '全部数据集'],
    ['zh_CHT', '資料集', '全部資料集'],
    ['ja', 'データセット', 'すべてのデータセット'],
  ] as const)('reads in %s, without accessibility violations', async (language, heading, tab) => {
    await changeLanguage(language, { remember: false });
    renderApp('/pjedu/datasets');
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    await screen.findByRole('link', { name: 'Iris flowers' });
    expect(await axeViolations()).toEqual([]);
  });

  it('says when nothing matches, and teaches how to start when there is nothing at all', async () => {
    const user = userEvent.setup();
    server.on(`GET ${DATASET_API.base}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    renderApp('/pjedu/datasets');
    expect(await screen.findByText(/There are no datasets you can see yet/)).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search datasets' }), 'zebra{Enter}');
    expect(await screen.findByText(/No dataset matches these filters/)).toBeTruthy();
  });
});
