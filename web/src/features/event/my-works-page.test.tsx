import { API, EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { AS_TEAM, EVENT, queryOf, registration, RUNS, serveEvent, WORK } from './review-fixtures';

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}/my-works`;
const PROJECT = { id: '0e0e0e0e-3333-4a4a-8b8b-000000000001', name: 'Robot notebook' };

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvent(server, AS_TEAM);
  server.on(`GET ${EVENT_API.registration}`, () => ok(registration('design')));
  server.on(`GET ${EVENT_API.works}`, () => ok([WORK]));
  server.on(`GET ${API.myProjects}`, () => ok({ list: [PROJECT], total: 1, page: 1, size: 100 }));
  signInAs(ROLES.student);
});
afterEach(stopFakeApi);

describe('a team’s works', { timeout: 90_000 }, () => {
  it('counts down to the deadline by the server’s clock, not the browser’s', async () => {
    renderApp(path);
    // serverTime is 7 d 16 h 0 min 30 s before submission closes; the browser's clock is years away.
    expect((await screen.findByTestId('countdown')).textContent).toMatch(/^Time left: 7 d 16 h 0 min \d+ s$/);
    expect(screen.getByText(/Submission closes on/)).toBeTruthy();
  });

  it('says the deadline passed once the server’s clock is past it', async () => {
    serveEvent(server, { ...AS_TEAM, serverTime: '2031-03-20T00:00:05Z' });
    renderApp(path);
    expect(await screen.findByText('The submission deadline has passed.')).toBeTruthy();
    expect(screen.queryByTestId('countdown')).toBeNull();
  });

  it('creates a draft with its tags, link and project', async () => {
    server.on(`GET ${EVENT_API.works}`, () => ok([]));
    server.on(`POST ${EVENT_API.works}`, () => ok({ ...WORK, name: 'Plant watcher', id: 'new-id' }));
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByText('No works yet. Start with “New work”.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /New work/ }));
    const drawer = await screen.findByRole('dialog', { name: 'New work' });
    expect(within(drawer).getByText('Save the draft first, then add its video.')).toBeTruthy();
    await user.type(within(drawer).getByLabelText('Name'), 'Plant watcher');
    await user.type(within(drawer).getByLabelText('Description'), 'Waters plants.');
    await user.type(within(drawer).getByRole('combobox', { name: 'Tags' }), 'garden{Enter}');
    await user.type(within(drawer).getByLabelText('Link'), 'https://example.com/plants');
    await user.click(within(drawer).getByRole('combobox', { name: 'Project' }));
    await user.click(await screen.findByTitle('Robot notebook'));
    await user.click(within(drawer).getByRole('button', { name: 'Save draft' }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.works)).toEqual({
        eventId: EVENT.id,
        name: 'Plant watcher',
        description: 'Waters plants.',
        tags: ['garden'],
        link: 'https://example.com/plants',
        coverKey: null,
        videoKey: null,
        projectId: PROJECT.id,
      }),
    );
    // Saved, the draft takes its video.
    expect(await screen.findByRole('dialog', { name: 'Edit “Plant watcher”' })).toBeTruthy();
    expect(screen.getByLabelText('Video', { selector: 'input' })).toBeTruthy();
  });

  it('submits a draft', async () => {
    let state = 'DRAFT';
    server.on(`GET ${EVENT_API.works}`, () => ok([{ ...WORK, state }]));
    server.on(`PUT ${EVENT_API.workSubmit}`, () => {
      state = 'SUBMITTED';
      return ok({ ...WORK, state });
    });
    const user = userEvent.setup();
    renderApp(path);
    await user.click(await screen.findByRole('button', { name: /Submit Sorting robot/ }));
    await waitFor(() => expect(queryOf(server, EVENT_API.workSubmit, 'PUT').get('workId')).toBe(WORK.id));
    expect(await screen.findByRole('button', { name: /Recall Sorting robot/ })).toBeTruthy();
    expect(screen.getByText('Submitted', { selector: '.ant-tag' })).toBeTruthy();
  });

  it('shows the server’s 4501 refusal clearly when the deadline passed', async () => {
    server.on(`PUT ${EVENT_API.workSubmit}`, () => fail('4501', 'Submission closed on 20 March', 409));
    const user = userEvent.setup();
    renderApp(path);
    await user.click(await screen.findByRole('button', { name: /Submit Sorting robot/ }));
    const alert = await screen.findByText(
      'The submission deadline has passed: works can no longer be sent or changed.',
    );
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('Submission closed on 20 March')).toBeTruthy();
  });

  it('shows a placed work’s rank, score and award once results are published', async () => {
    serveEvent(server, { ...AS_TEAM, resultsPublished: true, phase: 'results' });
    server.on(`GET ${EVENT_API.works}`, () =>
      ok([{ ...WORK, state: 'AUDITED', rank: 2, score: 86.5, award: 'Silver' }]),
    );
    renderApp(path);
    expect(await screen.findByText(/Rank 2 · score 86.5/)).toBeTruthy();
    expect(screen.getByText('Silver')).toBeTruthy();
    expect(screen.getByText('Reviewed')).toBeTruthy();
  });

  it('shows the review round a work went on to', async () => {
    server.on(`GET ${EVENT_API.works}`, () =>
      ok([
        { ...WORK, state: 'IN_REVIEW', judgeGroup: 1, reviewRound: 2 },
        { ...WORK, id: 'w-2', name: 'Kite' },
      ]),
    );
    renderApp(path);
    expect(await screen.findByText('In review')).toBeTruthy();
    expect(screen.getAllByText('Round 2')).toHaveLength(1);
  });

  it('shows a refused work’s reason', async () => {
    server.on(`GET ${EVENT_API.works}`, () => ok([{ ...WORK, state: 'FAIL', failReason: 'Video missing' }]));
    renderApp(path);
    expect(await screen.findByText('Reason: Video missing')).toBeTruthy();
    expect(screen.getByText('Not accepted')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Submit Sorting robot/ })).toBeNull();
  });

  it('lists the runs of an auto-scored track and cancels a queued one', async () => {
    server.on(`GET ${EVENT_API.registration}`, () => ok(registration('forecast')));
    server.on(`GET ${EVENT_API.runs}`, () => ok(RUNS));
    server.on(`PUT ${EVENT_API.runCancel}`, () => ok(null));
    const user = userEvent.setup();
    renderApp(path);
    expect((await screen.findByTestId('runs-summary')).textContent).toBe(
      "Used today: 2 of 3 · Your team's best: 0.875",
    );
    expect(queryOf(server, EVENT_API.runs).get('trackId')).toBe('forecast');
    await user.click(screen.getByRole('button', { name: /^Cancel the run sent/ }));
    await waitFor(() => expect(queryOf(server, EVENT_API.runCancel, 'PUT').get('runId')).toBe(RUNS.runs[0]!.id));
  });

  it('passes axe with the work’s drawer open', async () => {
    const user = userEvent.setup();
    renderApp(path);
    await user.click(await screen.findByRole('button', { name: /Edit Sorting robot/ }));
    await screen.findByRole('dialog', { name: 'Edit “Sorting robot”' });
    expect(await axeViolations()).toEqual([]);
  });

  it.each(['en', 'ja'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp(path);
    await screen.findByTestId('countdown');
    await screen.findByText('Sorting robot');
    expect(await axeViolations()).toEqual([]);
  });
});
