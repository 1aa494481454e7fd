import { EVENT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { dayjs } from '../../ui/dates';
import { EVENT, serveEvents } from './event-page-fixtures';

let server: FakeServer;
const ORGANISED = { ...EVENT, viewer: { ...EVENT.viewer, organiser: true } };
const editPath = `/pjedu/events/${EVENT.id}/edit`;

beforeAll(() => import('./event-pages'), 60_000);
beforeEach(async () => {
  server = await startFakeApi();
  serveEvents(server, ORGANISED);
  server.on(`PUT ${EVENT_API.events}`, () => ok(ORGANISED));
  server.on(`POST ${EVENT_API.events}`, () => ok({ ...ORGANISED, id: 'e-new' }));
  signInAs(ROLES.customerAdmin);
});
afterEach(stopFakeApi);

const changes = () => server.to(EVENT_API.events).filter((r) => r.method !== 'GET');

/** Types a date and time into a picker's input, as a keyboard user does, and confirms it. */
async function typeDate(user: ReturnType<typeof userEvent.setup>, placeholder: string, value: string) {
  const input = screen.getByPlaceholderText(placeholder);
  await user.click(input);
  await user.clear(input);
  await user.type(input, `${value}{Enter}`);
}

describe('the organisers’ event form', { timeout: 180_000 }, () => {
  it('sends every field of an edited event, its phases as instants', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(editPath);
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'AI for the whole city');
    await user.click(screen.getByRole('button', { name: /Add an award/ }));
    await user.type(screen.getByLabelText('Award 3'), 'Honourable mention');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(changes()).toHaveLength(1));
    expect(lastChange(server, EVENT_API.events)).toEqual({
      id: EVENT.id,
      name: 'AI for the whole city',
      coverKey: null,
      description: EVENT.description,
      tracks: EVENT.tracks,
      phases: Object.fromEntries(Object.entries(EVENT.phases).map(([k, v]) => [k, new Date(v).toISOString()])),
      eligibility: { customerIds: [], stages: ['junior'], grades: [] },
      teamMin: 1,
      teamMax: 2,
      mentorMin: 1,
      mentorMax: 1,
      awards: [...EVENT.awards, { name: 'Honourable mention', count: 1 }],
      tieRule: 'earlierSubmission',
      platformWide: false,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/pjedu/events/${EVENT.id}`));
  });

  it('refuses a team maximum below its minimum, and phases out of order, before asking the server', async () => {
    const outOfOrder = {
      ...ORGANISED,
      phases: { ...EVENT.phases, reviewStart: '2026-12-19T00:00:00Z' },
    };
    serveEvents(server, outOfOrder);
    const user = userEvent.setup();
    renderApp(editPath);
    const fewest = await screen.findByLabelText('Fewest applicants per team');
    await user.clear(fewest);
    await user.type(fewest, '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The most applicants cannot be fewer than the fewest.')).toBeTruthy();
    expect(screen.getByText('The review starts once submission has ended.')).toBeTruthy();
    expect(changes()).toHaveLength(0);
  });

  it('creates an event from typed dates, checking their order', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/events/new');
    await user.type(await screen.findByLabelText('Name'), 'Robot relay');
    await user.type(screen.getByLabelText('Track name'), 'Line following');
    await typeDate(user, 'Registration starts', '2027-03-01 08:00');
    await typeDate(user, 'Registration ends', '2027-03-10 08:00');
    await typeDate(user, 'Submission starts', '2027-03-05 08:00');
    await typeDate(user, 'Submission ends', '2027-03-20 08:00');
    await typeDate(user, 'Review starts', '2027-03-15 08:00');
    await typeDate(user, 'Review ends', '2027-03-25 08:00');
    await typeDate(user, 'Results are published', '2027-03-30 08:00');
    await user.click(screen.getByRole('button', { name: 'Create the event' }));
    expect(await screen.findByText('The review starts once submission has ended.')).toBeTruthy();
    expect(changes()).toHaveLength(0);

    await typeDate(user, 'Review starts', '2027-03-21 08:00');
    await typeDate(user, 'Review ends', '2027-03-25 08:00');
    await user.click(screen.getByRole('button', { name: 'Create the event' }));
    await waitFor(() => expect(changes()).toHaveLength(1));
    const body = lastChange(server, EVENT_API.events) as Record<string, unknown>;
    expect(body.name).toBe('Robot relay');
    expect(body.phases).toEqual({
      registrationStart: dayjs('2027-03-01 08:00').toISOString(),
      registrationEnd: dayjs('2027-03-10 08:00').toISOString(),
      submissionStart: dayjs('2027-03-05 08:00').toISOString(),
      submissionEnd: dayjs('2027-03-20 08:00').toISOString(),
      reviewStart: dayjs('2027-03-21 08:00').toISOString(),
      reviewEnd: dayjs('2027-03-25 08:00').toISOString(),
      resultsAt: dayjs('2027-03-30 08:00').toISOString(),
    });
    expect(body.tracks).toEqual([
      {
        id: expect.stringMatching(/^[a-z0-9-]{1,40}$/),
        name: 'Line following',
        kind: 'judged',
        dailyRuns: 5,
        higherIsBetter: true,
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/events/e-new'));
  });

  it('keeps an auto-scored track’s daily runs and direction', async () => {
    const user = userEvent.setup();
    renderApp(editPath);
    const forecast = (await screen.findByText('Track 2')).closest('.ant-card') as HTMLElement;
    const runs = within(forecast).getByLabelText('Runs per team per day');
    await user.clear(runs);
    await user.type(runs, '10');
    await user.click(within(forecast).getByRole('switch', { name: 'A higher score is better' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(changes()).toHaveLength(1));
    const body = lastChange(server, EVENT_API.events) as { tracks: unknown[] };
    expect(body.tracks[1]).toEqual({
      id: 'forecast',
      name: 'Forecast',
      kind: 'auto',
      dailyRuns: 10,
      higherIsBetter: true,
    });
  });

  it('uploads a cover of at most 10 MB and sends its key', async () => {
    server.on(`POST ${EVENT_API.uploadImage}`, () => ok({ key: 'covers/city.png', url: '/files/city.png' }));
    const user = userEvent.setup();
    renderApp(editPath);
    await screen.findByLabelText('Name');
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(document.querySelector('input[type=file]') as HTMLInputElement, big);
    expect(await screen.findByText('The cover must be 10 MB or smaller.')).toBeTruthy();
    expect(server.to(EVENT_API.uploadImage)).toHaveLength(0);

    // The library puts a fresh file input in place after each pick.
    await user.upload(
      document.querySelector('input[type=file]') as HTMLInputElement,
      new File(['png'], 'city.png', { type: 'image/png' }),
    );
    expect(await screen.findByRole('img', { name: "The event's cover" })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(changes()).toHaveLength(1));
    expect(lastChange(server, EVENT_API.events)).toMatchObject({ coverKey: 'covers/city.png' });
  });

  it('asks before leaving with unsaved changes', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(editPath);
    await user.type(await screen.findByLabelText('Name'), '!');
    await user.click(screen.getByRole('link', { name: /Back to the event/ }));
    const asked = await screen.findAllByText('Leave without saving?');
    expect(router.state.location.pathname).toBe(editPath);
    await user.click(
      within(asked.at(-1)!.closest('[role=dialog]') as HTMLElement).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/pjedu/events/${EVENT.id}`));
    expect(changes()).toHaveLength(0);
  });

  it('is for organisers only', async () => {
    signInAs(ROLES.student);
    renderApp('/pjedu/events/new');
    expect(await screen.findByText("Only the event's organisers can do this.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create the event' })).toBeNull();
  });

  it.each(['en', 'zh_CHT'] as const)('passes axe in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp(editPath);
    await waitFor(() => expect(document.querySelector('.event-phases, .ant-picker-range')).not.toBeNull());
    expect(await axeViolations()).toEqual([]);
  });
});
