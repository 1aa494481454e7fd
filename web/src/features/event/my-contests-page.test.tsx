import { EVENT_API, ROLES, type TMyContest } from '@aiedu/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { EVENT, page } from './event-page-fixtures';

let server: FakeServer;
const { viewer: _viewer, ...summary } = EVENT;
const CONTESTS: TMyContest[] = [
  { event: summary, roles: ['team'], registrationState: 'passed', rank: 2, award: 'Silver' },
  {
    event: { ...summary, id: 'e-2', name: 'Robot relay', state: 'notStarted', phase: 'before' },
    roles: ['judge', 'organiser'],
    registrationState: null,
    rank: null,
    award: null,
  },
];

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${EVENT_API.mine}`, () => page(CONTESTS));
  signInAs(ROLES.teacher);
});
afterEach(stopFakeApi);

const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;

describe('my contests', { timeout: 60_000 }, () => {
  it('shows each contest with the caller’s part, registration, rank and award, and the ways on', async () => {
    renderApp('/pjedu/my/contests');
    const team = await rowOf('AI for the city');
    expect(within(team).getByText('Team member')).toBeTruthy();
    expect(within(team).getByText('Passed')).toBeTruthy();
    expect(within(team).getByText('2')).toBeTruthy();
    expect(within(team).getByText('Silver')).toBeTruthy();
    expect(within(team).getByRole('link', { name: 'My works for AI for the city' }).getAttribute('href')).toBe(
      `/pjedu/events/${EVENT.id}/my-works`,
    );
    expect(within(team).queryByRole('link', { name: /Judging/ })).toBeNull();

    const judged = await rowOf('Robot relay');
    expect(within(judged).getByText('Judge')).toBeTruthy();
    expect(within(judged).getByText('Organiser')).toBeTruthy();
    expect(within(judged).getByRole('link', { name: 'Judging of Robot relay' })).toBeTruthy();
    expect(within(judged).getByRole('link', { name: 'Qualification audit of Robot relay' })).toBeTruthy();
    expect(within(judged).queryByRole('link', { name: /My declaration/ })).toBeNull();
  });

  it('teaches where to find a contest when there is none, from a plain list too', async () => {
    server.on(`GET ${EVENT_API.mine}`, () => ok([]));
    renderApp('/pjedu/my/contests');
    expect(await screen.findByText(/You take part in no contest yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse the events' }).getAttribute('href')).toBe('/pjedu/events');
  });

  it.each(['en', 'zh_CHT'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp('/pjedu/my/contests');
    await rowOf('AI for the city');
    expect(await axeViolations()).toEqual([]);
  });
});
