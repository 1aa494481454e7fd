import { EVENT_API, ROLES, type TEventResults, type TJudge, type TReviewProgress } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  TWO_ROUNDS,
} from './review-fixtures';

let server: FakeServer;
const path = (tab: string) => `/pjedu/events/${EVENT.id}/reviews?tab=${tab}`;

const FINAL_JUDGE: TJudge = {
  ...JUDGE,
  id: 'bb000000-0000-4000-8000-000000000002',
  userId: 'u-10',
  username: 'judge.qian',
  realName: 'Qian Li',
  round: 2,
};

/** The groups of round `round` while `current` is being judged, in a review of two rounds. */
const progressOf = (round: number, current: number): TReviewProgress =>
  round === 1
    ? { ...PROGRESS, round, currentRound: current, rounds: 2 }
    : {
        round,
        currentRound: current,
        rounds: 2,
        groups: [{ group: 1, works: 2, done: 0, judges: [{ ...FINAL_JUDGE, submitted: 0, scores: [] }] }],
        unassigned: 0,
      };

/** Answers progress for the round asked, or for the round being judged. */
function serveRounds(current: number) {
  server.on(`GET ${EVENT_API.progress}`, (request) => {
    const asked = new URL(request.url, 'http://x').searchParams.get('round');
    return ok(progressOf(asked ? Number(asked) : current, current));
  });
}

/** Picks a round of the switcher (its radio is covered by the label people click). */
const pickRound = (user: ReturnType<typeof userEvent.setup>, name: string) =>
  user.click(screen.getByRole('radio', { name }).closest('label')!);

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvent(server, AS_ORGANISER);
  server.on(`GET ${EVENT_API.reviewSettings}`, () => ok(TWO_ROUNDS));
  server.on(`GET ${EVENT_API.judges}`, () => ok([JUDGE, FINAL_JUDGE]));
  server.on(`GET ${EVENT_API.workAdmin}`, () => ok({ list: [], total: 0, page: 1, size: 20 }));
  serveRounds(1);
  signInAs(ROLES.customerAdmin);
});
afterEach(stopFakeApi);

describe('review rounds', { timeout: 90_000 }, () => {
  it('saves the first round’s name and the later rounds, up to the limit', async () => {
    server.on(`GET ${EVENT_API.reviewSettings}`, () => ok(SETTINGS));
    server.on(`PUT ${EVENT_API.reviewSettings}`, () => ok(TWO_ROUNDS));
    const user = userEvent.setup();
    renderApp(path('settings'));
    const first = await screen.findByRole('group', { name: 'Round 1' });
    await user.type(within(first).getByLabelText('Round name'), 'Heats');
    await user.click(screen.getByRole('button', { name: /Add a round/ }));
    const second = await screen.findByRole('group', { name: 'Round 2' });
    await user.type(within(second).getByLabelText('Round name'), 'Final');
    const advance = within(second).getByLabelText('Works that go on (per track)');
    await user.clear(advance);
    await user.type(advance, '5');
    const groups = within(second).getByLabelText('Judge groups');
    await user.clear(groups);
    await user.type(groups, '2');
    const judges = within(second).getByLabelText('Judges per group');
    await user.clear(judges);
    await user.type(judges, '4');
    const works = within(second).getByLabelText('Works per group');
    await user.clear(works);
    await user.type(works, '12');
    // Three more make four later rounds, the most there can be; the one added last is removed again.
    for (let i = 0; i < 3; i += 1) await user.click(screen.getByRole('button', { name: /Add a round/ }));
    expect(await screen.findByRole('group', { name: 'Round 5' })).toBeTruthy();
    expect((screen.getByRole('button', { name: /Add a round/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('At most 4 later rounds.')).toBeTruthy();
    for (const n of [5, 4, 3]) await user.click(screen.getByRole('button', { name: `Remove round ${n}` }));
    await user.click(screen.getByRole('button', { name: /Save settings/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.reviewSettings)).toMatchObject({
        groupCount: 2,
        judgesPerGroup: 2,
        worksPerGroup: 0,
        roundName: 'Heats',
        rounds: [{ name: 'Final', advance: 5, groupCount: 2, judgesPerGroup: 4, worksPerGroup: 12 }],
      }),
    );
  });

  it('shows one round at a time, asking for its groups, with its judges', async () => {
    const user = userEvent.setup();
    renderApp(path('judges'));
    const heats = await screen.findByRole('radio', { name: 'Heats' });
    expect((heats as HTMLInputElement).checked).toBe(true);
    expect(await screen.findByRole('heading', { name: 'Judges of Heats' })).toBeTruthy();
    expect(await screen.findByText('judge.zhao')).toBeTruthy();
    expect(screen.queryByText('judge.qian')).toBeNull();
    expect(screen.getByText('Being judged')).toBeTruthy();
    expect(screen.getByText('Heats · Group 1')).toBeTruthy();
    // The round being judged is asked for without naming it.
    expect(queryOf(server, EVENT_API.progress).get('round')).toBeNull();

    await pickRound(user, 'Final');
    expect(await screen.findByText('Final · Group 1')).toBeTruthy();
    expect(queryOf(server, EVENT_API.progress).get('round')).toBe('2');
    expect(screen.getByText('judge.qian')).toBeTruthy();
    expect(screen.queryByText('judge.zhao')).toBeNull();
    expect(screen.getByText('Not started')).toBeTruthy();
    // The works of a later round come from closing the one before, not from the assignment.
    expect(screen.queryByRole('button', { name: /Assign works/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Close Heats/ })).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('adds a judge to the round picked', async () => {
    server.on(`POST ${EVENT_API.judges}`, () => ok({ ...FINAL_JUDGE, username: 'judge.sun', group: 1 }));
    const user = userEvent.setup();
    renderApp(path('judges'));
    await screen.findByRole('heading', { name: 'Judges of Heats' });
    await user.type(screen.getByLabelText('Username'), 'judge.sun');
    await user.click(screen.getByRole('combobox', { name: 'Round' }));
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="Final"]')).toBeTruthy());
    await user.click(document.querySelector('.ant-select-item-option[title="Final"]')!);
    await user.click(screen.getByRole('button', { name: /Add judge/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.judges)).toEqual({
        eventId: EVENT.id,
        username: 'judge.sun',
        group: 1,
        round: 2,
      }),
    );
    expect(await screen.findByText('Qian Li judges in group 1 of Final.')).toBeTruthy();
  });

  it('shows a closed round as it was, without reopening or removing', async () => {
    serveRounds(2);
    const user = userEvent.setup();
    renderApp(path('judges'));
    expect(await screen.findByText('Final · Group 1')).toBeTruthy();
    expect(((await screen.findByRole('radio', { name: 'Final' })) as HTMLInputElement).checked).toBe(true);
    await pickRound(user, 'Heats');
    expect(await screen.findByText('Heats · Group 1')).toBeTruthy();
    expect(screen.getByText('Closed')).toBeTruthy();
    expect(screen.getByText('judge.zhao')).toBeTruthy();
    expect(screen.getByText(/Zhao Min: 1 of 2 submitted/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reopen/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove judge/ })).toBeNull();
    // The last round is being judged: none follows to close it for.
    await pickRound(user, 'Final');
    expect(await screen.findByText('Being judged')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Close Final/ })).toBeNull();
  });

  it('closes the round being judged after a confirmation, then shows the next', async () => {
    let current = 1;
    server.on(`GET ${EVENT_API.progress}`, (request) => {
      const asked = new URL(request.url, 'http://x').searchParams.get('round');
      return ok(progressOf(asked ? Number(asked) : current, current));
    });
    server.on(`POST ${EVENT_API.closeRound}`, () => {
      current = 2;
      return ok({ round: 1, advanced: 4, stayed: 6 });
    });
    const user = userEvent.setup();
    renderApp(path('judges'));
    await user.click(await screen.findByRole('button', { name: /Close Heats/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Close Heats?' });
    expect(
      within(confirm).getByText(
        'The best 2 works of each track go on to Final and are given to its judge groups. The scores of Heats become final and can no longer be reopened.',
      ),
    ).toBeTruthy();
    expect(server.to(EVENT_API.closeRound)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Close the round' }));
    await waitFor(() => expect(lastChange(server, EVENT_API.closeRound)).toEqual({ eventId: EVENT.id }));
    expect(await screen.findByText('Heats is closed. Went on to Final: 4 · Review ended in Heats: 6')).toBeTruthy();
    // The reads of the review are asked again: the next round is being judged now.
    expect(await screen.findByText('Final · Group 1')).toBeTruthy();
    expect(((await screen.findByRole('radio', { name: 'Final' })) as HTMLInputElement).checked).toBe(true);
    expect(server.to(EVENT_API.judges).length).toBeGreaterThan(1);
  });

  it('says why the round cannot be closed (4512)', async () => {
    server.on(`POST ${EVENT_API.closeRound}`, () => fail('4512', '3 works miss scores', 409));
    const user = userEvent.setup();
    renderApp(path('judges'));
    await user.click(await screen.findByRole('button', { name: /Close Heats/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Close Heats?' })).getByRole('button', {
        name: 'Close the round',
      }),
    );
    const alert = await screen.findByText(
      'Heats cannot be closed yet: some of its works still miss judges’ scores or wait to be assigned.',
    );
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('3 works miss scores')).toBeTruthy();
  });

  it('waits for the last round before publishing the results', async () => {
    renderApp(path('results'));
    expect(
      await screen.findByText(
        'The review is in round 1 of 2. The results are published after the last round: close each round under “Judges and progress” first.',
      ),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: /Publish results/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says in its words that rounds remain when publishing is refused (4503)', async () => {
    serveRounds(2);
    server.on(`POST ${EVENT_API.results}`, () => ({
      status: 409,
      body: { errorCode: '4503', errorMsg: 'Not in this state', data: { reason: 'review rounds remain' } },
    }));
    const user = userEvent.setup();
    renderApp(path('results'));
    await user.click(await screen.findByRole('button', { name: /Publish results/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Publish the results?' });
    await user.click(within(confirm).getByRole('button', { name: 'Publish results' }));
    const alert = await screen.findByText(
      'The results are published after the last review round: close the rounds still open first.',
    );
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('Not in this state')).toBeTruthy();
  });

  it('shows the round each work reached in the results', async () => {
    const results: TEventResults = {
      eventId: EVENT.id,
      tieRule: 'earlierSubmission',
      publishedAt: '2031-03-30T00:00:00Z',
      rounds: ['Heats', ''],
      rows: [
        resultRow({ round: 2 }),
        resultRow({
          rank: 2,
          workId: 'w-2',
          workName: 'Drawing robot',
          teamName: 'Early birds',
          schoolName: 'No. 2 Middle School',
          score: 91,
          award: null,
          submittedAt: '2031-03-14T10:00:00Z',
        }),
      ],
    };
    serveEvent(server, { ...AS_ORGANISER, resultsPublished: true });
    server.on(`GET ${EVENT_API.results}`, () => ok(results));
    renderApp(path('results'));
    expect(await screen.findByRole('columnheader', { name: 'Round reached' })).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Round 2')).toBeTruthy();
    expect(within(rows[1]!).getByText('Heats')).toBeTruthy();
  });
});
