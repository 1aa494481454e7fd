import { EVENT_API, ROLES, type TEventResults, type TLadder } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { at, EVENT, queryOf, serveEvents } from './event-page-fixtures';

let server: FakeServer;
const path = `/pjedu/events/${EVENT.id}`;

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvents(server);
});
afterEach(() => {
  vi.useRealTimers();
  stopFakeApi();
});

const currentStep = () => screen.getByRole('list', { name: 'Phases' }).querySelector('[aria-current="step"]');
const actions = () => screen.getAllByRole('link').map((link) => link.textContent);

const RESULTS: TEventResults = {
  eventId: EVENT.id,
  tieRule: 'shared',
  publishedAt: '2026-12-30T00:00:00Z',
  rounds: [''],
  rows: [
    {
      rank: 1,
      workId: 'w-1',
      workName: 'Traffic lights',
      teamName: 'Night owls',
      schoolName: 'No. 1 Middle School',
      trackId: 'vision',
      score: 91.5,
      award: 'Gold',
      submittedAt: '2026-12-15T00:00:00Z',
      round: 1,
    },
  ],
};
const LADDER: TLadder = {
  trackId: 'forecast',
  higherIsBetter: false,
  rows: [
    {
      rank: 1,
      registrationId: 'r-1',
      teamName: 'Early birds',
      schoolName: 'No. 2 School',
      best: 0.125,
      runs: 7,
      bestAt: '2026-12-18T00:00:00Z',
    },
  ],
};

describe('an event’s page', { timeout: 60_000 }, () => {
  it('marks the phase the server’s clock is in, whatever the browser’s clock says', async () => {
    // The browser believes the contest is long over; the server says submission is open.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-01-01T00:00:00Z') });
    signInAs(ROLES.student);
    renderApp(path);
    await screen.findByRole('heading', { name: 'AI for the city', level: 1 });
    await screen.findByRole('list', { name: 'Phases' });
    expect(currentStep()?.textContent).toMatch(/^Submission/);
    expect(screen.getByText(/Times by the platform's clock/)).toBeTruthy();
    // The description is rendered as Markdown, without its script.
    expect(screen.getByRole('heading', { name: 'Rules', level: 3 })).toBeTruthy();
    expect(document.querySelector('.course-markdown script')).toBeNull();
    expect(screen.getByText('1–2 applicants · 1–1 mentors')).toBeTruthy();
    // Registration has closed by the server's clock: no registering any more.
    expect(screen.queryByRole('link', { name: /Register a team/ })).toBeNull();
  });

  it('offers an eligible student to register while registration is open', async () => {
    server.on(`GET ${EVENT_API.detail}`, () => ok(at('2026-12-03T00:00:00Z', { phase: 'registration' })));
    signInAs(ROLES.student);
    renderApp(path);
    const register = await screen.findByRole('link', { name: /Register a team/ });
    expect(register.getAttribute('href')).toBe(`${path}/declaration`);
    expect(currentStep()?.textContent).toMatch(/^Registration/);
    expect(queryOf(server, EVENT_API.detail).get('eventId')).toBe(EVENT.id);
  });

  it('tells a student who may not take part why, instead of a register button', async () => {
    const viewer = { ...EVENT.viewer, eligible: false };
    server.on(`GET ${EVENT_API.detail}`, () => ok(at('2026-12-03T00:00:00Z', { viewer })));
    signInAs(ROLES.student);
    renderApp(path);
    expect(await screen.findByText(/not among those this event is open to/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Register a team/ })).toBeNull();
  });

  it.each([
    ['a team member', { registrationId: 'r-1' }, ['My declaration', 'My works'], ['Judging', 'Qualification audit']],
    ['a judge', { judge: true }, ['Judging'], ['My declaration', 'Qualification audit']],
    [
      'an organiser',
      { organiser: true },
      ['Qualification audit', 'Review management', 'Edit the event'],
      ['My declaration', 'Judging'],
    ],
  ])('shows %s their own actions', async (_who, part, shown, hidden) => {
    server.on(`GET ${EVENT_API.detail}`, () => ok({ ...EVENT, viewer: { ...EVENT.viewer, ...part } }));
    signInAs(ROLES.teacher);
    renderApp(path);
    await screen.findByRole('link', { name: new RegExp(shown[0]!) });
    for (const name of shown) expect(actions().some((text) => text?.includes(name))).toBe(true);
    for (const name of hidden) expect(actions().some((text) => text?.includes(name))).toBe(false);
  });

  it('shows the published results with the tie rule, and the ladder of an auto-scored track', async () => {
    server.on(`GET ${EVENT_API.detail}`, () =>
      ok(at('2026-12-31T00:00:00Z', { resultsPublished: true, phase: 'results', state: 'ended' })),
    );
    server.on(`GET ${EVENT_API.results}`, () => ok(RESULTS));
    server.on(`GET ${EVENT_API.ladder}`, () => ok(LADDER));
    const user = userEvent.setup();
    renderApp(path);
    const row = (await screen.findByRole('cell', { name: 'Night owls' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Gold')).toBeTruthy();
    expect(within(row).getByText('91.5')).toBeTruthy();
    expect(screen.getByText(/Equal scores share a rank/)).toBeTruthy();
    // A review of one round has no round to tell.
    expect(screen.queryByRole('columnheader', { name: 'Round reached' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Ladder: Forecast' }));
    expect(await screen.findByRole('cell', { name: 'Early birds' })).toBeTruthy();
    expect(screen.getByText(/a lower score is better/)).toBeTruthy();
    await waitFor(() => expect(queryOf(server, EVENT_API.ladder).get('trackId')).toBe('forecast'));
  });

  it('says which review round each ranked work reached, when there were several', async () => {
    server.on(`GET ${EVENT_API.detail}`, () =>
      ok(at('2026-12-31T00:00:00Z', { resultsPublished: true, phase: 'results', state: 'ended' })),
    );
    const later = { ...RESULTS.rows[0]!, rank: 2, workId: 'w-2', teamName: 'Early birds', round: 1 };
    server.on(`GET ${EVENT_API.results}`, () =>
      ok({ ...RESULTS, rounds: ['', 'Final'], rows: [{ ...RESULTS.rows[0]!, round: 2 }, later] }),
    );
    await changeLanguage('ja', { remember: false });
    renderApp(path);
    const row = (await screen.findByRole('cell', { name: 'Night owls' })).closest('tr') as HTMLElement;
    expect(screen.getByRole('columnheader', { name: '到達ラウンド' })).toBeTruthy();
    expect(within(row).getByText('Final')).toBeTruthy();
    const other = screen.getByRole('cell', { name: 'Early birds' }).closest('tr') as HTMLElement;
    expect(within(other).getByText('第1ラウンド')).toBeTruthy();
  });

  it.each(['en', 'ja'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    server.on(`GET ${EVENT_API.detail}`, () => ok({ ...EVENT, viewer: { ...EVENT.viewer, organiser: true } }));
    signInAs(ROLES.customerAdmin);
    renderApp(path);
    await screen.findByRole('heading', { name: 'AI for the city', level: 1 });
    await waitFor(() => expect(document.querySelector('.event-phases')).not.toBeNull());
    expect(await axeViolations()).toEqual([]);
  });
});
