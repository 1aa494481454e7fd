import { CERT_API, EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import {
  AS_ORGANISER,
  EVENT,
  JUDGE,
  PROGRESS,
  queryOf,
  resultRow,
  serveEvent,
  SETTINGS,
  WORK,
} from './review-fixtures';

let server: FakeServer;
const path = (tab: string) => `/pjedu/events/${EVENT.id}/reviews?tab=${tab}`;
const RESULTS = {
  eventId: EVENT.id,
  tieRule: 'earlierSubmission',
  publishedAt: '2031-03-30T00:00:00Z',
  rounds: [''],
  rows: [resultRow()],
};

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvent(server, AS_ORGANISER);
  server.on(`GET ${EVENT_API.workAdmin}`, () =>
    ok({ list: [{ ...WORK, state: 'SUBMITTED' }], total: 1, page: 1, size: 20 }),
  );
  server.on(`GET ${EVENT_API.reviewSettings}`, () => ok(null));
  server.on(`GET ${EVENT_API.judges}`, () => ok([JUDGE]));
  server.on(`GET ${EVENT_API.progress}`, () => ok(PROGRESS));
  signInAs(ROLES.customerAdmin);
});
afterEach(stopFakeApi);

describe('review management', { timeout: 90_000 }, () => {
  it('accepts a submitted work for review', async () => {
    server.on(`POST ${EVENT_API.workAudit}`, () => ok(null));
    const user = userEvent.setup();
    renderApp(path('works'));
    await user.click(await screen.findByRole('button', { name: /Accept Sorting robot for review/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.workAudit)).toEqual({ workId: WORK.id, decision: 'accept' }),
    );
    expect(queryOf(server, EVENT_API.workAdmin).get('state')).toBe('SUBMITTED');
  });

  it('saves the review settings with their criteria and weights', async () => {
    server.on(`PUT ${EVENT_API.reviewSettings}`, () => ok(SETTINGS));
    const user = userEvent.setup();
    renderApp(path('settings'));
    await user.type(await screen.findByLabelText('Criterion 1'), 'Idea');
    const weight1 = screen.getByLabelText('Weight of criterion 1');
    await user.clear(weight1);
    await user.type(weight1, '2');
    await user.click(screen.getByRole('button', { name: /Add a criterion/ }));
    await user.type(await screen.findByLabelText('Criterion 2'), 'Clean code');
    const groups = screen.getByLabelText('Judge groups');
    await user.clear(groups);
    await user.type(groups, '2');
    const perGroup = screen.getByLabelText('Judges per group');
    await user.clear(perGroup);
    await user.type(perGroup, '2');
    await user.type(screen.getByLabelText('Review rules'), 'Be fair.');
    await user.click(screen.getByRole('button', { name: /Save settings/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.reviewSettings)).toEqual({
        scoringType: 'criteria',
        criteria: [
          { id: 'idea', name: 'Idea', weight: 2 },
          { id: 'clean-code', name: 'Clean code', weight: 1 },
        ],
        groupCount: 2,
        judgesPerGroup: 2,
        worksPerGroup: 0,
        rules: 'Be fair.',
        date: null,
        manualKey: null,
        sheetKey: null,
        roundName: '',
        rounds: [],
      }),
    );
    expect(queryOf(server, EVENT_API.reviewSettings, 'PUT').get('eventId')).toBe(EVENT.id);
  });

  it('uploads the evaluation of an auto-scored track', async () => {
    server.on(`PUT ${EVENT_API.evaluation}`, () => ok(null));
    const user = userEvent.setup();
    renderApp(path('settings'));
    expect(await screen.findByRole('heading', { name: 'Evaluation of Forecast' })).toBeTruthy();
    const upload = screen.getByRole('button', { name: /Upload the evaluation/ });
    expect((upload as HTMLButtonElement).disabled).toBe(true);
    await user.upload(screen.getByLabelText(/^Evaluation script/), new File(['print(1)'], 'score.py'));
    await user.upload(screen.getByLabelText(/^Answers/), new File(['id,y\n1,0'], 'answers.csv'));
    await user.click(upload);
    await waitFor(() => expect(server.to(EVENT_API.evaluation)).toHaveLength(1));
    const query = queryOf(server, EVENT_API.evaluation, 'PUT');
    expect([query.get('eventId'), query.get('trackId')]).toEqual([EVENT.id, 'forecast']);
    expect(await screen.findByText('The evaluation of Forecast was saved.')).toBeTruthy();
  });

  it('adds a judge by username to a group', async () => {
    server.on(`POST ${EVENT_API.judges}`, () => ok({ ...JUDGE, username: 'judge.qian', group: 2 }));
    const user = userEvent.setup();
    renderApp(path('judges'));
    expect(await screen.findByText('judge.zhao')).toBeTruthy();
    await user.type(screen.getByLabelText('Username'), 'judge.qian');
    const group = screen.getByRole('spinbutton', { name: 'Group' });
    await user.clear(group);
    await user.type(group, '2');
    await user.click(screen.getByRole('button', { name: /Add judge/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.judges)).toEqual({
        eventId: EVENT.id,
        username: 'judge.qian',
        group: 2,
        round: 1,
      }),
    );
  });

  it('shows why the works cannot be assigned (4511)', async () => {
    server.on(`POST ${EVENT_API.assign}`, () => fail('4511', 'Group 1 has only judges of the works’ schools', 409));
    const user = userEvent.setup();
    renderApp(path('judges'));
    expect(await screen.findByText('Works waiting to be assigned: 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Assign works/ }));
    const alert = await screen.findByText(/^The works cannot be assigned: check the judge groups/);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('Group 1 has only judges of the works’ schools')).toBeTruthy();
    expect(queryOf(server, EVENT_API.assign, 'POST').get('eventId')).toBe(EVENT.id);
  });

  it('shows each group’s progress and reopens a judge’s score with a reason', async () => {
    server.on(`PUT ${EVENT_API.reopenScore}`, () => ok(null));
    const user = userEvent.setup();
    renderApp(path('judges'));
    expect(await screen.findByText('Works fully scored: 1 of 2')).toBeTruthy();
    expect(screen.getByText(/Zhao Min: 1 of 2 submitted/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Reopen the score of Zhao Min for Sorting robot/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reopen the score of Zhao Min for “Sorting robot”?' });
    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Reopen' }));
    expect(await within(dialog).findByText('Say why the score is reopened.')).toBeTruthy();
    expect(server.to(EVENT_API.reopenScore)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), 'Comment missing');
    await user.click(within(dialog).getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(lastChange(server, EVENT_API.reopenScore)).toEqual({ reason: 'Comment missing' }));
    expect(queryOf(server, EVENT_API.reopenScore, 'PUT').get('scoreId')).toBe(
      PROGRESS.groups[0]!.judges[0]!.scores![0]!.id,
    );
  });

  it('shows why the results cannot be published (4512)', async () => {
    server.on(`POST ${EVENT_API.results}`, () => fail('4512', '2 works miss scores', 409));
    const user = userEvent.setup();
    renderApp(path('results'));
    await user.click(await screen.findByRole('button', { name: /Publish results/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Publish the results?' });
    await user.click(within(confirm).getByRole('button', { name: 'Publish results' }));
    const alert = await screen.findByText("The results cannot be published yet: some works still miss judges' scores.");
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('2 works miss scores')).toBeTruthy();
  });

  it('publishes the ranking, then makes the winners’ certificate issuance', async () => {
    server.on(`POST ${EVENT_API.results}`, () => ok(RESULTS));
    server.on(`GET ${CERT_API.certOptions}`, () =>
      ok([{ id: '1d1d1d1d-4444-4c4c-8d8d-000000000001', name: 'Winner' }]),
    );
    server.on(`POST ${EVENT_API.certificates}`, () => ok({ certIssId: 'ci-1', holders: 3 }));
    const user = userEvent.setup();
    renderApp(path('results'));
    await user.click(await screen.findByRole('button', { name: /Publish results/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Publish the results?' });
    await user.click(within(confirm).getByRole('button', { name: 'Publish results' }));
    expect(await screen.findByText('88.5')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Certificate template' }));
    await user.click(await screen.findByTitle('Winner'));
    await user.click(screen.getByRole('checkbox', { name: 'Mentors get a certificate too' }));
    await user.click(screen.getByRole('button', { name: /Create the issuance/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.certificates)).toEqual({
        eventId: EVENT.id,
        certId: '1d1d1d1d-4444-4c4c-8d8d-000000000001',
        awards: [],
        includeMentors: true,
      }),
    );
    expect((await screen.findByRole('link', { name: /Open certificate issuance/ })).getAttribute('href')).toBe(
      '/admin/certificates/issuance',
    );
  });

  it("lists every team's runs of the auto-scored track, by state, with the queue's counts", async () => {
    const run = (id: string, state: string, extra: object = {}) => ({
      id,
      eventId: EVENT.id,
      trackId: 'forecast',
      registrationId: 'r-1',
      teamName: 'Night owls',
      state,
      score: null,
      error: null,
      platformFault: false,
      counted: true,
      queuedAt: '2031-03-15T09:00:00Z',
      startedAt: '2031-03-15T10:00:00Z',
      finishedAt: null,
      ...extra,
    });
    const counts = { queued: 0, running: 0, scored: 1, failed: 1, cancelled: 0 };
    server.on(`GET ${EVENT_API.runsAll}`, (request) =>
      new URL(request.url, 'http://x').searchParams.get('state') === 'failed'
        ? ok({
            list: [
              run('run-2', 'failed', {
                error: 'the evaluation sandbox failed',
                platformFault: true,
                counted: false,
                finishedAt: '2031-03-15T10:05:00Z',
              }),
            ],
            total: 1,
            page: 1,
            size: 20,
            counts,
          })
        : ok({
            list: [run('run-1', 'scored', { score: 0.93, finishedAt: '2031-03-15T10:00:12Z' })],
            total: 2,
            page: 1,
            size: 20,
            counts,
          }),
    );
    const user = userEvent.setup();
    renderApp(path('runs'));
    expect(await screen.findByRole('heading', { name: 'Runs of Forecast' })).toBeTruthy();
    expect(await screen.findByText('0.93')).toBeTruthy();
    expect(screen.getByText('12 seconds')).toBeTruthy();
    expect(queryOf(server, EVENT_API.runsAll).get('trackId')).toBe('forecast');
    expect(queryOf(server, EVENT_API.runsAll).get('state')).toBeNull();
    expect(await axeViolations()).toEqual([]);

    expect(screen.getByRole('radio', { name: 'Failed (1)' })).toBeTruthy();
    await user.click(screen.getByText('Failed (1)'));
    expect(await screen.findByText('Failed by the platform: not counted')).toBeTruthy();
    expect(screen.getByText('the evaluation sandbox failed')).toBeTruthy();
    expect(screen.getByText('5 minutes')).toBeTruthy();
    expect(queryOf(server, EVENT_API.runsAll).get('state')).toBe('failed');
  });

  it('shows no runs tab for an event without an auto-scored track', async () => {
    serveEvent(server, { ...AS_ORGANISER, tracks: [AS_ORGANISER.tracks[0]!] });
    renderApp(path('works'));
    expect(await screen.findByRole('tab', { name: 'Works' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Runs' })).toBeNull();
  });

  it('is the organisers’ only', async () => {
    serveEvent(server, EVENT);
    renderApp(path('works'));
    expect(await screen.findByText('Only the organisers of this event manage its review.')).toBeTruthy();
  });

  it('passes axe in en (judges and progress)', async () => {
    renderApp(path('judges'));
    await screen.findByText('judge.zhao');
    await screen.findByText(/Zhao Min: 1 of 2 submitted/);
    expect(await axeViolations()).toEqual([]);
  });

  it('passes axe in zh_CHT (review settings)', async () => {
    await changeLanguage('zh_CHT', { remember: false });
    renderApp(path('settings'));
    await screen.findByText('評審規則');
    await screen.findByRole('heading', { name: 'Forecast 的評測' });
    expect(await axeViolations()).toEqual([]);
  });
});
