import { COURSE_API, LANGUAGES, type Language, type TStarterCourse } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

const IMPORT = `${COURSE_API.starter}/import`;

/** A starter course named and described in each language (in Japanese as `ja` says, else marked with the language). */
function starter(slug: string, order: number, en: string, overrides: Partial<TStarterCourse> = {}, ja?: string) {
  const texts = (text: string) =>
    Object.fromEntries(LANGUAGES.map((l) => [l, l === 'en' ? text : `${text} (${l})`])) as Record<Language, string>;
  const course: TStarterCourse = {
    slug,
    order,
    environment: 'ai',
    names: { ...texts(en), ja: ja ?? `${en} (ja)` },
    descriptions: texts(`About ${en}`),
    experiments: 1,
    imported: [],
    ...overrides,
  };
  return course;
}

const STARTERS: TStarterCourse[] = [
  starter('iris-classifier', 3, 'Classify iris flowers', {}, 'アヤメの花を分類しよう'),
  starter('python-first-steps', 1, 'Python First Steps', {
    environment: 'python',
    experiments: 2,
    imported: [
      { language: 'en', courseId: 'c-en' },
      { language: 'ja', courseId: 'c-ja' },
    ],
  }),
  starter('data-and-charts', 2, 'Data and charts'),
  starter('handwritten-digits', 4, 'Handwritten digits'),
  starter('image-basics', 5, 'Image basics'),
];

let server: FakeServer;

// The course pages load lazily: loaded once here, no test waits for them.
beforeAll(() => import('./course-pages'), 60_000);

beforeEach(async () => {
  server = await startFakeApi();
  server.on(`GET ${COURSE_API.filters}`, () => ok({ directions: [], stages: [], difficulties: [], tags: [] }));
  server.on(`GET ${COURSE_API.centre}`, () => ok({ list: [], total: 0, page: 1, size: 12 }));
  server.on(`GET ${COURSE_API.starter}`, () => ok(STARTERS));
});

afterEach(async () => {
  stopFakeApi();
  await changeLanguage('en', { remember: false });
});

const openDrawer = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(await screen.findByRole('button', { name: /Starter courses/ }));
  return screen.findByRole('list', { name: 'The starter courses' });
};
const card = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('.ant-card') as HTMLElement;

describe('starter courses', () => {
  it('lists the five in order, with where they run, their experiments and the copies imported', async () => {
    signInAs('ROLE_ADMIN');
    const user = userEvent.setup();
    renderApp('/pjedu/course');
    const list = await openDrawer(user);
    const names = within(list)
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent);
    expect(names).toEqual([
      'Python First Steps',
      'Data and charts',
      'Classify iris flowers',
      'Handwritten digits',
      'Image basics',
    ]);
    const first = card('Python First Steps');
    expect(within(first).getByText('Python (numpy, matplotlib)')).toBeTruthy();
    expect(within(first).getByText('2 experiments')).toBeTruthy();
    expect(within(first).getByText('Imported (English, 日本語)')).toBeTruthy();
    expect(within(first).getByText('About Python First Steps')).toBeTruthy();
    // Already there in the UI language: importing again is offered, with the way to the copy.
    expect(within(first).getByRole('button', { name: 'Import again: Python First Steps' })).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Open that copy' }).getAttribute('href')).toBe(
      '/pjedu/courses/c-en/edit',
    );
    const iris = card('Classify iris flowers');
    expect(within(iris).getByText('AI (pandas, scikit-learn, PyTorch, OpenCV)')).toBeTruthy();
    expect(within(iris).getByText('1 experiment')).toBeTruthy();
    expect(within(iris).queryByText(/^Imported/)).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('imports a course in the language chosen, then leads to it in the course editor and marks it imported', async () => {
    signInAs('ROLE_SUBADMIN');
    const user = userEvent.setup();
    let answer: () => void = () => undefined;
    server.on(
      `POST ${IMPORT}`,
      () =>
        new Promise((resolve) => {
          answer = () => resolve(ok({ courseId: 'c-iris-ja' }));
        }),
    );
    renderApp('/pjedu/course');
    await openDrawer(user);
    const iris = card('Classify iris flowers');
    // The UI language is the default; the administrator picks Japanese.
    const language = within(iris).getByRole('combobox', { name: 'Course language of Classify iris flowers' });
    expect(within(iris).getByTitle('English')).toBeTruthy();
    await user.click(language);
    const japanese = await screen.findAllByTitle('日本語');
    await user.click(japanese.find((option) => option.closest('.ant-select-item-option'))!);
    expect(within(iris).getByTitle('日本語')).toBeTruthy();
    // After the import, the list says it is there.
    server.on(`GET ${COURSE_API.starter}`, () =>
      ok(
        STARTERS.map((s) =>
          s.slug === 'iris-classifier' ? { ...s, imported: [{ language: 'ja', courseId: 'c-iris-ja' }] } : s,
        ),
      ),
    );
    const button = within(iris).getByRole('button', { name: 'Import Classify iris flowers' });
    await user.click(button);
    await waitFor(() => expect(button.className).toContain('ant-btn-loading'));
    expect(lastChange(server, IMPORT)).toEqual({ slug: 'iris-classifier', language: 'ja' });
    answer();
    const done = await within(iris).findByRole('alert');
    expect(done.textContent).toContain(
      '“Classify iris flowers” (日本語) is now a published course of your institution.',
    );
    expect(within(done).getByRole('link', { name: 'Open in the course editor' }).getAttribute('href')).toBe(
      '/pjedu/courses/c-iris-ja/edit',
    );
    expect(await within(iris).findByText('Imported (日本語)')).toBeTruthy();
    expect(server.to(IMPORT)).toHaveLength(1);
  });

  it('keeps the drawer as it was when the server refuses an import', async () => {
    signInAs('ROLE_ADMIN');
    const user = userEvent.setup();
    server.on(`POST ${IMPORT}`, () => fail('1004', 'Not found', 404));
    renderApp('/pjedu/course');
    await openDrawer(user);
    const digits = card('Handwritten digits');
    const button = within(digits).getByRole('button', { name: 'Import Handwritten digits' });
    await user.click(button);
    await waitFor(() => expect(server.to(IMPORT)).toHaveLength(1));
    await waitFor(() => expect(button.className).not.toContain('ant-btn-loading'));
    expect(within(digits).queryByRole('alert')).toBeNull();
    expect(within(digits).queryByText(/^Imported/)).toBeNull();
  });

  it('names the courses in the UI language and imports in it unless told otherwise', async () => {
    signInAs('ROLE_SUPER');
    await changeLanguage('ja', { remember: false });
    const user = userEvent.setup();
    server.on(`POST ${IMPORT}`, () => ok({ courseId: 'c-2' }));
    renderApp('/pjedu/course');
    await user.click(await screen.findByRole('button', { name: /スターターコース/ }));
    const iris = await screen.findByRole('heading', { level: 2, name: 'アヤメの花を分類しよう' });
    const irisCard = iris.closest('.ant-card') as HTMLElement;
    expect(within(irisCard).getByText('実験 1 件')).toBeTruthy();
    await user.click(within(irisCard).getByRole('button', { name: 'インポート：アヤメの花を分類しよう' }));
    await waitFor(() => expect(lastChange(server, IMPORT)).toEqual({ slug: 'iris-classifier', language: 'ja' }));
  });

  it('is not offered to teachers and learners', async () => {
    for (const role of ['ROLE_TEACHER', 'ROLE_STUDENT', 'ROLE_SCHOOLADMIN']) {
      signInAs(role);
      const view = renderApp('/pjedu/course');
      expect(await screen.findByText(/Ask your teacher for a course code|No courses/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: /Starter courses/ })).toBeNull();
      view.unmount();
    }
    expect(server.to(COURSE_API.starter)).toHaveLength(0);
  });
});
