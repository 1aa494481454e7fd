import { COURSE_API } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession } from '../../app/session';
import { createFakeServer, ok, type FakeServer } from '../../test/fake-api';
import { courseSummary } from '../../test/course-fixtures';
import { renderApp } from '../../test/render-app';

const COURSE = courseSummary();

let server: FakeServer;

beforeEach(async () => {
  clearSession();
  await changeLanguage('en', { remember: false });
  server = createFakeServer();
  server.on(`GET ${COURSE_API.filters}`, () =>
    ok({ directions: [{ id: 'd-1', name: 'Robotics', kind: 'direction' }], stages: [], difficulties: [], tags: [] }),
  );
  server.on(`POST ${COURSE_API.apply}`, () => ok({ id: 'a-1', followUpWorkingDays: 3 }));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('course centre', () => {
  it('lists the courses the server found, with their authors and learners', async () => {
    server.on(`GET ${COURSE_API.centre}`, () => ok({ list: [COURSE], total: 1, page: 1, size: 12 }));
    renderApp('/pjedu/course');
    const link = await screen.findByRole('link', { name: 'Robots for beginners' });
    expect(link.getAttribute('href')).toBe('/pjedu/courses/c-1');
    expect(screen.getByText('By Teacher One')).toBeTruthy();
    expect(screen.getByText('1 courses')).toBeTruthy();
    const query = server.to(COURSE_API.centre)[0]!.url;
    expect(query).toContain('sort=publishedAt%2Cdesc');
  });

  it('teaches how to join by code when nothing is found', async () => {
    server.on(`GET ${COURSE_API.centre}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    renderApp('/pjedu/course?keyword=zzz');
    expect(await screen.findByText(/Ask your teacher for a course code/, {})).toBeTruthy();
    expect(server.to(COURSE_API.centre)[0]!.url).toContain('keyword=zzz');
  });

  it('checks the application form and sends it', async () => {
    server.on(`GET ${COURSE_API.centre}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
    const user = userEvent.setup();
    renderApp('/pjedu/course');
    await user.click(await screen.findByRole('button', { name: 'Apply for courses' }));
    await user.type(await screen.findByLabelText('Name'), 'Li Lei');
    await user.type(screen.getByLabelText('Phone'), '12345');
    await user.type(screen.getByLabelText('Email'), 'lilei@school.cn');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter an 11-digit phone number starting with 1')).toBeTruthy();
    expect(server.to(COURSE_API.apply)).toHaveLength(0);
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '13800000000');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(server.to(COURSE_API.apply)).toHaveLength(1));
    expect(JSON.parse(server.to(COURSE_API.apply)[0]!.body!)).toEqual({
      name: 'Li Lei',
      phone: '13800000000',
      email: 'lilei@school.cn',
    });
  });
});
