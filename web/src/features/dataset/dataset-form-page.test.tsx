import { DATASET_API, datasetApi } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aDataset, answerSurroundings, ROBOTICS_CLUB } from './dataset-fixtures';

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs('ROLE_STUDENT');
  answerSurroundings(server);
});
afterEach(stopFakeApi);

const posts = () => server.to(DATASET_API.base).filter((r) => r.method === 'POST');

describe('new dataset', () => {
  it('refuses a name of only spaces and over-long tags before sending anything', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/datasets/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'New dataset' })).toBeTruthy();
    // The rules are said before the owner chooses.
    expect(screen.getByText(/A published dataset cannot be edited or deleted/)).toBeTruthy();
    expect(screen.getByText('A public dataset can never be deleted.')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.type(screen.getByRole('combobox', { name: 'Tags' }), 'a-tag-of-more-than-twenty-letters{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create and add data' }));
    expect(await screen.findByText('Enter a name (not only spaces).')).toBeTruthy();
    expect(await screen.findByText('Each one can have at most 20 characters.')).toBeTruthy();
    expect(posts()).toHaveLength(0);
    expect(await axeViolations()).toEqual([]);
  }, 30_000);

  it('shares a dataset with one of my groups, then leads to its data', async () => {
    const user = userEvent.setup();
    const created = aDataset({ name: 'Robot arm photos', access: 'group', groupId: ROBOTICS_CLUB.id, versions: [] });
    server.on(`POST ${DATASET_API.base}`, () => ok(created));
    server.on(`GET ${datasetApi(created.id).base}`, () => ok(created));
    const { router } = renderApp('/pjedu/datasets/new');
    await user.type(await screen.findByLabelText('Name'), 'Robot arm photos');
    await user.click(screen.getByRole('radio', { name: 'Group' }));
    await user.click(screen.getByRole('button', { name: 'Create and add data' }));
    expect(await screen.findByText('Choose the group to share it with.')).toBeTruthy();
    expect(posts()).toHaveLength(0);
    await user.click(screen.getByRole('combobox', { name: 'Group' }));
    const options = await screen.findAllByTitle('Robotics club');
    await user.click(options.find((o) => o.closest('.ant-select-item-option'))!);
    await user.click(screen.getByRole('button', { name: 'Create and add data' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(lastChange(server, DATASET_API.base)).toEqual({
      name: 'Robot arm photos',
      description: '',
      explanation: '',
      tags: [],
      access: 'group',
      groupId: ROBOTICS_CLUB.id,
      courseTag: '',
      annotationCategories: [],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/pjedu/datasets/${created.id}/edit`));
    expect(await screen.findByRole('heading', { level: 2, name: 'Data' })).toBeTruthy();
    expect(screen.getByText(/A \.zip file of at most 2 GB/)).toBeTruthy();
  }, 30_000);
});

describe('a new dataset from a group’s page', () => {
  it('is already shared with that group', async () => {
    renderApp(`/pjedu/datasets/new?groupId=${ROBOTICS_CLUB.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'New dataset' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Group' }) as HTMLInputElement).checked).toBe(true);
    expect(await screen.findByTitle('Robotics club')).toBeTruthy();
  }, 30_000);
});

describe('editing a dataset', () => {
  it('offers only the access changes the rules allow, and says why', async () => {
    const shared = aDataset({ access: 'group', groupId: ROBOTICS_CLUB.id });
    const open = aDataset({ id: 'e5d5f1a8-5a0c-4d8e-9a51-0c1e6b7a2f42', access: 'public', groupId: null });
    server.on(`GET ${datasetApi(shared.id).base}`, () => ok(shared));
    server.on(`GET ${datasetApi(open.id).base}`, () => ok(open));
    const disabled = () =>
      ['Public', 'Private', 'Group'].filter(
        (name) => (screen.getByRole('radio', { name }) as HTMLInputElement).disabled,
      );

    const first = renderApp(`/pjedu/datasets/${shared.id}/edit`);
    expect(await screen.findByDisplayValue('Iris flowers')).toBeTruthy();
    expect(disabled()).toEqual(['Private']);
    expect(screen.getByText('A dataset shared with a group cannot be made private')).toBeTruthy();
    first.unmount();

    renderApp(`/pjedu/datasets/${open.id}/edit`);
    expect(await screen.findByDisplayValue('Iris flowers')).toBeTruthy();
    expect(disabled()).toEqual(['Private', 'Group']);
    expect(screen.getByText(/A public dataset stays public/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  }, 30_000);

  it('says a refusal of the rules beside the form, and leaves other refusals to the one toast', async () => {
    const user = userEvent.setup();
    const dataset = aDataset();
    let answer = () => fail('3201', 'A published dataset cannot be edited or deleted', 409);
    server.on(`GET ${datasetApi(dataset.id).base}`, () => ok(dataset));
    server.on(`PUT ${datasetApi(dataset.id).base}`, () => answer());
    renderApp(`/pjedu/datasets/${dataset.id}/edit`);
    expect(await screen.findByDisplayValue('Iris flowers')).toBeTruthy();
    const puts = () => server.to(datasetApi(dataset.id).base).filter((r) => r.method === 'PUT');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    const formError = () => document.querySelector<HTMLElement>('.form-error');
    expect(await within(formError()!).findByText('A published dataset cannot be edited or deleted')).toBeTruthy();

    answer = () => fail('1007', 'You do not have permission to edit', 403);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(await screen.findByText('You do not have permission to edit', { selector: '.ant-message *' })).toBeTruthy();
    await waitFor(() => expect(formError()?.textContent ?? '').toBe(''));
    expect(screen.getAllByText('You do not have permission to edit')).toHaveLength(1);
  }, 30_000);

  it('locks the details of a published dataset and keeps its upload of a new version', async () => {
    const published = aDataset({ published: true, canEdit: false });
    server.on(`GET ${datasetApi(published.id).base}`, () => ok(published));
    renderApp(`/pjedu/datasets/${published.id}/edit`);
    expect(await screen.findByText(/This dataset is published/)).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByLabelText(/Choose a zip file/)).toBeTruthy();
    expect(screen.getByText(/^3 files · 3 MB/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });
});
