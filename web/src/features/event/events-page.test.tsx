import { EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import type { FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { EVENT, page, queryOf, serveEvents } from './event-page-fixtures';

let server: FakeServer;

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvents(server);
});
afterEach(stopFakeApi);

const lastQuery = () => queryOf(server, EVENT_API.events);

describe('the events list', { timeout: 60_000 }, () => {
  it('shows each event as a card, and asks the server for the filters, the keyword and the page', async () => {
    server.on(`GET ${EVENT_API.events}`, () => page([EVENT], 30));
    signInAs(ROLES.student);
    const user = userEvent.setup();
    renderApp('/pjedu/events');
    const card = (await screen.findByRole('link', { name: 'AI for the city' })).closest('.event-card') as HTMLElement;
    expect(within(card).getByText('In progress')).toBeTruthy();
    expect(within(card).getByText('Forecast')).toBeTruthy();
    expect(within(card).getByText(/^Submission ·/)).toBeTruthy();
    expect(within(card).getByText('Demo District · 14 teams')).toBeTruthy();
    expect(lastQuery().get('page')).toBe('1');

    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));

    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByTitle('Ended'));
    await waitFor(() => expect(lastQuery().get('state')).toBe('ended'));
    expect(lastQuery().get('page')).toBe('1');

    await user.click(screen.getByRole('combobox', { name: 'Track' }));
    await user.click(await screen.findByTitle('Vision'));
    await waitFor(() => expect(lastQuery().get('track')).toBe('Vision'));

    await user.click(screen.getByRole('combobox', { name: 'School stage' }));
    await user.click(await screen.findByTitle('Junior secondary'));
    await waitFor(() => expect(lastQuery().get('stage')).toBe('junior'));

    await user.type(screen.getByRole('searchbox', { name: 'Search events by name' }), 'city{Enter}');
    await waitFor(() => expect(lastQuery().get('keyword')).toBe('city'));
    expect(lastQuery().get('state')).toBe('ended');
    expect(lastQuery().get('stage')).toBe('junior');
  });

  it('offers organisers a new event, and nobody else', async () => {
    signInAs(ROLES.customerAdmin);
    const { unmount } = renderApp('/pjedu/events');
    expect(await screen.findByRole('link', { name: /New event/ })).toBeTruthy();
    unmount();
    signInAs(ROLES.student);
    renderApp('/pjedu/events');
    await screen.findByRole('link', { name: 'AI for the city' });
    expect(screen.queryByRole('link', { name: /New event/ })).toBeNull();
  });

  it('says when there is no event yet', async () => {
    server.on(`GET ${EVENT_API.events}`, () => page([]));
    renderApp('/pjedu/events');
    expect(await screen.findByText(/There are no events yet/)).toBeTruthy();
  });

  it('shows a visitor the events of the customer their link names', async () => {
    renderApp('/pjedu/events?custcode=city2026');
    await screen.findByRole('link', { name: 'AI for the city' });
    expect(lastQuery().get('custcode')).toBe('city2026');
  });

  it.each(['en', 'zh_CHS'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.customerAdmin);
    renderApp('/pjedu/events');
    await screen.findByRole('link', { name: 'AI for the city' });
    expect(await axeViolations()).toEqual([]);
  });
});
