import { COURSE_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { enrolledCourse } from '../../test/course-fixtures';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

const B = COURSE_API.base;
const DETAIL = enrolledCourse({ name: 'Machine learning' }, 0);
const SECTION = {
  id: 's-1',
  title: 'Iris',
  content: 'Watch first.',
  aiLinks: [],
  resources: [{ id: 'r-1', name: 'Lesson 1.mp4', size: 1000, mime: 'video/mp4' }],
  tasks: [],
  nextSectionId: null,
  completed: false,
};
const LINKS = {
  url: '/gw/api/v1/files/download?key=k&expires=1&sig=shown&name=Lesson%201.mp4',
  downloadUrl: '/gw/api/v1/files/download?key=k&expires=1&sig=saved&name=Lesson%201.mp4&dl=1',
  preview: true,
  mime: 'video/mp4',
  name: 'Lesson 1.mp4',
  size: 1000,
};

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${B}/c-1`, () => ok(DETAIL));
  server.on(`POST ${B}/sections/s-1/record`, () => ok(DETAIL));
  server.on(`GET ${B}/sections/s-1/learn`, () => ok(SECTION));
  server.on(`GET ${B}/resources/r-1/url`, () => ok(LINKS));
});
afterEach(stopFakeApi);

describe('a section resource', () => {
  it('plays from the address to show and saves from the address to save', async () => {
    signInAs(ROLES.student);
    renderApp('/pjedu/courses/c-1?section=s-1');
    const video = await screen.findByLabelText('Lesson 1.mp4');
    expect(video.getAttribute('src')).toBe(LINKS.url);
    // Saved under its name from a bucket too, where a browser ignores the anchor's own download name.
    const download = screen.getByRole('link', { name: /Download/ });
    await waitFor(() => expect(download.getAttribute('href')).toBe(LINKS.downloadUrl));
    expect(download.getAttribute('download')).toBe('Lesson 1.mp4');
  });
});
