import { EVENT_API, ROLES, type TJudgingItem } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { weightedTotal } from './judging-api';
import { AS_JUDGE, EVENT, ITEM, scoreOf, serveEvent, SETTINGS, TWO_ROUNDS } from './review-fixtures';

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}/judging`;

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvent(server, AS_JUDGE);
  server.on(`GET ${EVENT_API.judging}`, () => ok([ITEM]));
  server.on(`GET ${EVENT_API.reviewSettings}`, () => ok(SETTINGS));
  signInAs(ROLES.teacher);
});
afterEach(stopFakeApi);

async function fillScores(user: ReturnType<typeof userEvent.setup>, idea: string, code: string) {
  await user.type(await screen.findByLabelText('Idea (weight 2), 0–100'), idea);
  await user.type(screen.getByLabelText('Code (weight 1), 0–100'), code);
}

describe('the weighted total', () => {
  it('is Σ(score × weight) / Σ weight, and waits for every criterion', () => {
    expect(weightedTotal(SETTINGS.criteria, { idea: 90, code: 60 })).toBe(80);
    expect(weightedTotal(SETTINGS.criteria, { idea: 77, code: 50 })).toBe(68);
    expect(weightedTotal(SETTINGS.criteria, { idea: 90 })).toBeNull();
  });
});

describe('a judge’s scoring', { timeout: 90_000 }, () => {
  it('shows the work, its materials and the weighted total as it is typed', async () => {
    server.on(`GET ${EVENT_API.reviewSettings}`, () => ok({ ...SETTINGS, manualUrl: '/files/manual.pdf?sig=1' }));
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Sorting robot' })).toBeTruthy();
    expect(screen.getByTestId('judging-progress').textContent).toBe('Scored: 0 / 1');
    expect(screen.getByText('It sorts rubbish.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /example\.com\/robot/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Judges’ manual|Judges' manual/ }).getAttribute('href')).toBe(
      '/files/manual.pdf?sig=1',
    );
    expect(screen.getByText('Review date: Mar 25, 2031')).toBeTruthy();
    expect(screen.getByTestId('score-total').textContent).toBe('Weighted total: fill in every score');
    await fillScores(user, '90', '60');
    await waitFor(() => expect(screen.getByTestId('score-total').textContent).toBe('Weighted total: 80'));
  });

  it('saves a draft score', async () => {
    server.on(`PUT ${EVENT_API.score}`, () => ok({}));
    const user = userEvent.setup();
    renderApp(path);
    await fillScores(user, '70', '40');
    await user.type(screen.getByLabelText('Comment'), 'Neat.');
    await user.click(screen.getByRole('button', { name: /Save draft/ }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.score)).toEqual({
        workId: ITEM.work.id,
        scores: [
          { criterionId: 'idea', score: 70 },
          { criterionId: 'code', score: 40 },
        ],
        overall: null,
        comment: 'Neat.',
      }),
    );
  });

  it('submits after a confirmation that says it is final, then shows the score read-only', async () => {
    let item: TJudgingItem = ITEM;
    server.on(`GET ${EVENT_API.judging}`, () => ok([item]));
    server.on(`POST ${EVENT_API.scoreSubmit}`, () => {
      item = {
        ...ITEM,
        score: scoreOf(90, 60, { total: 80 }),
      };
      return ok(item.score);
    });
    const user = userEvent.setup();
    renderApp(path);
    await fillScores(user, '90', '60');
    await user.click(screen.getByRole('button', { name: /Submit score/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Submit your score for “Sorting robot”?' });
    expect(within(confirm).getByText('Submitting is final: you cannot change this score afterwards.')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Submit score' }));
    await waitFor(() =>
      expect(lastChange(server, EVENT_API.scoreSubmit)).toMatchObject({
        workId: ITEM.work.id,
        scores: [
          { criterionId: 'idea', score: 90 },
          { criterionId: 'code', score: 60 },
        ],
      }),
    );
    expect(await screen.findByText(/This score is final\./)).toBeTruthy();
    expect((screen.getByLabelText('Idea (weight 2), 0–100') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Idea (weight 2), 0–100') as HTMLInputElement).value).toBe('90');
    expect(screen.queryByRole('button', { name: /Submit score/ })).toBeNull();
    expect(screen.getByTestId('judging-progress').textContent).toBe('Scored: 1 / 1');
  });

  it('moves on to the next work not scored yet after a submission', async () => {
    const second: TJudgingItem = {
      ...ITEM,
      work: { ...ITEM.work, id: '6f1d2e3c-2222-4b5a-9c8d-000000000002', name: 'Drawing robot' },
    };
    server.on(`GET ${EVENT_API.judging}`, () => ok([ITEM, second]));
    server.on(`POST ${EVENT_API.scoreSubmit}`, () => ok({}));
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Sorting robot' })).toBeTruthy();
    await fillScores(user, '90', '60');
    await user.click(screen.getByRole('button', { name: /Submit score/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit score' }));
    expect(await screen.findByRole('heading', { name: 'Drawing robot' })).toBeTruthy();
  });

  it('shows one round at a time, the open one first, and a closed round’s score read-only', async () => {
    const heats: TJudgingItem = {
      ...ITEM,
      round: 1,
      closed: true,
      score: scoreOf(70, 40, { state: 'draft', submittedAt: null }),
    };
    const final: TJudgingItem = {
      ...ITEM,
      work: { ...ITEM.work, id: '6f1d2e3c-2222-4b5a-9c8d-000000000002', name: 'Drawing robot' },
      round: 2,
    };
    server.on(`GET ${EVENT_API.reviewSettings}`, () => ok(TWO_ROUNDS));
    server.on(`GET ${EVENT_API.judging}`, () => ok([heats, final]));
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Final', level: 2 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Drawing robot' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Final' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('judging-progress').textContent).toBe('Scored: 0 / 1');
    expect(screen.getByRole('button', { name: /Submit score/ })).toBeTruthy();
    expect(screen.queryByText('Round closed')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Heats' }).closest('label')!);
    expect(await screen.findByRole('heading', { name: 'Sorting robot' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Heats', level: 2 })).toBeTruthy();
    expect(screen.getByText('Round closed')).toBeTruthy();
    expect(screen.getByText('This round is closed: the score can no longer change.')).toBeTruthy();
    const idea = screen.getByLabelText('Idea (weight 2), 0–100') as HTMLInputElement;
    expect([idea.value, idea.disabled]).toEqual(['70', true]);
    expect(screen.queryByRole('button', { name: /Submit score/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Save draft/ })).toBeNull();
  });

  it('shows the 4506 refusal when the score is already final', async () => {
    server.on(`POST ${EVENT_API.scoreSubmit}`, () => fail('4506', 'Score already submitted', 409));
    const user = userEvent.setup();
    renderApp(path);
    await fillScores(user, '90', '60');
    await user.click(screen.getByRole('button', { name: /Submit score/ }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Submit score' }));
    const alert = await screen.findByText('This score is final: it was already submitted and cannot be changed.');
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.getByText('Score already submitted')).toBeTruthy();
  });

  it('is for the event’s judges only', async () => {
    serveEvent(server, EVENT);
    renderApp(path);
    expect(await screen.findByText('Only the judges of this event can score its works.')).toBeTruthy();
    expect(server.to(EVENT_API.judging)).toHaveLength(0);
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp(path);
    await screen.findByTestId('score-total');
    expect(await axeViolations()).toEqual([]);
  });
});
