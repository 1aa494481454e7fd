import { COURSE_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

const DIRECTION = '0192f7a0-0000-7000-8000-0000000000d1';
const STAGE = '0192f7a0-0000-7000-8000-0000000000s1';
const empty = { list: [], total: 0, page: 1, size: 12 };

let server: FakeServer;
let unhandled: unknown[];
const collect = (reason: unknown) => unhandled.push(reason);

beforeEach(async () => {
  server = await startFakeApi();
  unhandled = [];
  process.on('unhandledRejection', collect);
  server.on(`GET ${COURSE_API.centre}`, () => ok(empty));
  server.on(`GET ${COURSE_API.filters}`, () =>
    ok({
      directions: [{ id: DIRECTION, name: 'Robotics', kind: 'direction' }],
      stages: [{ id: STAGE, name: 'Primary', kind: 'stage' }],
      difficulties: [],
      tags: [],
    }),
  );
});

afterEach(() => {
  process.off('unhandledRejection', collect);
  stopFakeApi();
});

const status = (body: object) => server.on(`GET ${COURSE_API.authorStatus}`, () => ok(body));

describe('who may create a course', () => {
  it('tells a teacher without certification what is needed and where to apply, instead of offering the form', async () => {
    signInAs(ROLES.teacher);
    status({ canCreate: false, certification: null });
    renderApp('/pjedu/course');
    expect(await screen.findByText('Creating a course needs teacher certification')).toBeTruthy();
    const apply = screen.getByRole('link', { name: 'Apply for teacher certification' });
    expect(apply.getAttribute('href')).toBe('/pjedu/userprofile?slideKey=certification');
    expect(screen.queryByRole('link', { name: /Create a course/ })).toBeNull();
  });

  it.each([
    ['en', '/pjedu/course', 'Apply for teacher certification'],
    ['zh_CHS', '/pjedu/course', '申请教师认证'],
    ['en', '/pjedu/my/courses', 'Apply for teacher certification'],
    ['zh_CHS', '/pjedu/my/courses', '申请教师认证'],
  ] as const)('passes axe in %s on %s with the notice', async (language, path, apply) => {
    await changeLanguage(language, { remember: false });
    signInAs(ROLES.teacher);
    status({ canCreate: false, certification: null });
    server.on(`GET ${COURSE_API.mine}`, () => ok([]));
    server.on(`GET ${COURSE_API.study}`, () => ok([]));
    renderApp(path);
    await screen.findByRole('link', { name: apply });
    expect(await axeViolations()).toEqual([]);
  });

  it('says a request is being reviewed, and why one was refused', async () => {
    signInAs(ROLES.teacher);
    status({ canCreate: false, certification: { status: 'pending', reason: '' } });
    server.on(`GET ${COURSE_API.mine}`, () => ok([]));
    server.on(`GET ${COURSE_API.study}`, () => ok([]));
    renderApp('/pjedu/my/courses');
    expect(await screen.findByText(/being reviewed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See my request' })).toBeTruthy();
  });

  it('shows the reason of a refused request', async () => {
    signInAs(ROLES.teacher);
    status({ canCreate: false, certification: { status: 'rejected', reason: 'The teacher number is missing' } });
    renderApp('/pjedu/courses/new/edit');
    expect(await screen.findByText('Reason given: The teacher number is missing')).toBeTruthy();
    expect(screen.queryByLabelText('Course name')).toBeNull();
  });

  it('offers "Create a course" to a certified teacher', async () => {
    signInAs(ROLES.teacher);
    status({ canCreate: true, certification: null });
    renderApp('/pjedu/course');
    const create = await screen.findByRole('link', { name: /Create a course/ });
    expect(create.getAttribute('href')).toBe('/pjedu/courses/new/edit');
  });

  it.each(['en', 'zh_CHS'] as const)(
    'shows the new-course page without the form to a learner, accessibly in %s',
    async (language) => {
      await changeLanguage(language, { remember: false });
      signInAs(ROLES.student);
      renderApp('/pjedu/courses/new/edit');
      await screen.findByRole('link', { name: language === 'en' ? 'Apply for teacher certification' : '申请教师认证' });
      expect(screen.queryByRole('textbox')).toBeNull();
      expect(server.requests.some((r) => r.url.startsWith(COURSE_API.authorStatus))).toBe(false);
      expect(await axeViolations()).toEqual([]);
    },
  );

  it('requires a direction and a stage, and a refused creation shows its message without an unhandled error', async () => {
    signInAs(ROLES.teacher);
    status({ canCreate: true, certification: null });
    server.on(`POST ${COURSE_API.base}`, () =>
      fail('4101', 'Only certified teachers can create courses. Apply for teacher certification in your profile', 403),
    );
    const user = userEvent.setup();
    renderApp('/pjedu/courses/new/edit');
    await user.type(await screen.findByLabelText('Course name'), 'Robots');
    await user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(await screen.findByText('Choose a direction')).toBeTruthy();
    expect(screen.getByText('Choose a stage')).toBeTruthy();
    expect(server.to(COURSE_API.base)).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: 'Direction' }));
    await user.click(await screen.findByTitle('Robotics'));
    await user.click(screen.getByRole('combobox', { name: 'Stage' }));
    await user.click(await screen.findByTitle('Primary'));
    await user.click(screen.getByRole('button', { name: 'Create course' }));
    await waitFor(() => expect(server.to(COURSE_API.base)).toHaveLength(1));
    expect(lastChange(server, COURSE_API.base)).toMatchObject({
      name: 'Robots',
      directionId: DIRECTION,
      stageId: STAGE,
    });
    expect(await screen.findByText(/Only certified teachers can create courses/)).toBeTruthy();
    // The button is ready again and nothing was left unhandled.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create course' }).className).not.toContain('loading'),
    );
    expect(unhandled).toEqual([]);
  });
});
