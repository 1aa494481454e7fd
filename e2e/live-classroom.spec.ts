import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignIn, call, DEMO } from './support/api';
import { expect, expectAccessible, test, text, texts } from './support/fixtures';
import { named, newPage } from './support/pages';
import { signInThroughApi } from './support/sign-in';

const LANGUAGES = [
  { code: 'en', browser: 'en-US', student: 'student11' },
  { code: 'zh_CHS', browser: 'zh-CN', student: 'student12' },
] as const;

/** The seeded student's name: `student11` is "Student 11". */
const studentName = (username: string) => `Student ${username.slice(-2)}`;

/**
 * The teacher publishes a course of two sections (the second with a short-answer task) and makes an in-progress
 * schedule of it for the demo class, over the API: the journey is the lesson, not the authoring.
 */
async function scheduleInProgress(request: APIRequestContext, name: string): Promise<string> {
  const { token } = await apiSignIn(request, DEMO.teacher);
  const filters = await call<{ directions: { id: string }[]; stages: { id: string }[] }>(
    request,
    token,
    'GET',
    '/api/v1/courses/filters',
  );
  const course = await call<{ id: string }>(request, token, 'POST', '/api/v1/courses', {
    name,
    directionId: filters.directions[0]!.id,
    stageId: filters.stages[0]!.id,
  });
  const chapters = await call<{ chapters: { id: string }[] }>(
    request,
    token,
    'POST',
    `/api/v1/courses/${course.id}/chapters`,
    { title: 'Chapter 1' },
  );
  const chapterId = chapters.chapters.at(-1)!.id;
  const sections: Record<string, string> = {
    'Warm-up': 'Think of a machine that learns.',
    'Your turn': 'Explain it in your own words.',
  };
  const ids: string[] = [];
  for (const [title, content] of Object.entries(sections)) {
    const added = await call<{ sectionId: string }>(
      request,
      token,
      'POST',
      `/api/v1/courses/chapters/${chapterId}/sections`,
      { title },
    );
    await call(request, token, 'PUT', `/api/v1/courses/sections/${added.sectionId}`, { content });
    ids.push(added.sectionId);
  }
  await call(request, token, 'POST', `/api/v1/courses/sections/${ids[1]}/tasks`, {
    title: 'Explain',
    questions: [{ id: 's1', type: 'short', prompt: 'What is a model?' }],
  });
  await call(request, token, 'POST', `/api/v1/courses/${course.id}/publish`);
  const options = await call<{ classes: { id: string; name: string }[] }>(
    request,
    token,
    'GET',
    '/api/v1/schedules/options',
  );
  const schedule = await call<{ id: string }>(request, token, 'POST', '/api/v1/schedules', {
    name,
    startAt: new Date().toISOString(),
    courses: [{ courseId: course.id }],
    classIds: [options.classes.find((c) => c.name === 'Grade 4 Class 1')!.id],
  });
  await call(request, token, 'POST', `/api/v1/schedules/${schedule.id}/start`);
  return schedule.id;
}

/** axe reads a toast mid-animation as low contrast: check the page once every message is gone. */
async function accessibleOnceSettled(page: Page) {
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await expectAccessible(page);
}

for (const language of LANGUAGES) {
  test.describe(`live classroom in ${language.code}`, () => {
    test.use({ locale: language.browser });

    test('a teacher starts a lesson and moves to section 2, the student follows, answers, and sees the teacher’s score', async ({
      page,
      browser,
      request,
    }) => {
      test.setTimeout(180_000);
      const c = texts(language.code, 'classroom');
      const say = (key: string) => text(c, key);
      const course = texts(language.code, 'course');
      const schedule = texts(language.code, 'schedule');
      const name = `${language.code === 'en' ? 'Live lesson' : '直播课'} ${Date.now() % 100000}`;
      const scheduleId = await scheduleInProgress(request, name);
      const student = studentName(language.student);

      // The teacher opens the classroom from the schedule and starts a lesson.
      await signInThroughApi(page, DEMO.teacher);
      await page.goto(`/pjedu/schedules/${scheduleId}`);
      await page.getByRole('link', { name: named(say('entry.teach')) }).click();
      await expect(page).toHaveURL(new RegExp(`/pjedu/schedules/${scheduleId}/classroom$`));
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
      await page.getByRole('button', { name: named(say('lesson.open')) }).click();
      await page.getByRole('button', { name: named(say('lesson.start')) }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'Warm-up' })).toBeVisible();

      // The student joins the class from the same schedule and sees the teacher's section.
      const learner = await newPage(browser, language.browser);
      await signInThroughApi(learner, { custcode: 'demo2026', username: language.student, password: 'Student@2026' });
      await learner.goto(`/pjedu/schedules/${scheduleId}`);
      await learner.getByRole('link', { name: named(say('entry.join')) }).click();
      await expect(learner.getByRole('heading', { level: 2, name: 'Warm-up' })).toBeVisible();
      await expect(learner.getByText(say('mode.student.follow'))).toBeVisible();
      await expect(learner.getByText(say('connection.live'), { exact: true })).toBeVisible();
      await accessibleOnceSettled(learner);

      // The roster shows the student online, on the class's section.
      const row = page.getByRole('row', { name: new RegExp(`^${student}`) });
      await expect(row.getByRole('cell', { name: say('roster.isOnline') })).toBeVisible();
      await expect(row.getByRole('cell', { name: 'Warm-up' })).toBeVisible();

      // The teacher moves to section 2 with the keyboard; the student's page follows.
      await page.getByRole('heading', { level: 1, name: new RegExp(name) }).click();
      await page.keyboard.press('PageDown');
      await expect(page.getByRole('heading', { level: 2, name: 'Your turn' })).toBeVisible();
      await expect(learner.getByRole('heading', { level: 2, name: 'Your turn' })).toBeVisible();
      await expect(row.getByRole('cell', { name: 'Your turn' })).toBeVisible();
      const given = page.waitForResponse(
        (r) => r.url().endsWith(`/schedules/${scheduleId}/tasks`) && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: named(say('section.give')) }).click();
      expect((await given).ok()).toBe(true);
      await expect(page.getByRole('button', { name: named(say('section.answers')) })).toBeVisible();
      await accessibleOnceSettled(page);

      // The student answers; the roster says so.
      await learner.getByRole('textbox', { name: 'What is a model?' }).fill('A function learnt from examples');
      await learner.getByRole('button', { name: named(text(course, 'quiz.submit')) }).click();
      await expect(learner.getByText(say('learn.awaitingScore'))).toBeVisible();
      await expect(row.getByRole('cell', { name: say('roster.hasAnswered'), exact: true })).toBeVisible();

      // The teacher scores the answer from the lesson.
      await page.getByRole('button', { name: named(say('section.answers')) }).click();
      const drawer = page.getByRole('dialog');
      await drawer
        .getByRole('spinbutton', { name: text(schedule, 'answers.scoreOf').replace('{{name}}', student) })
        .fill('90');
      await drawer
        .getByRole('textbox', { name: text(schedule, 'answers.commentOf').replace('{{name}}', student) })
        .fill('Well explained');
      const saved = page.waitForResponse((r) => r.url().endsWith('/scores') && r.request().method() === 'PUT');
      await drawer
        .getByRole('row', { name: new RegExp(student) })
        .getByRole('button', { name: named(text(schedule, 'answers.save')) })
        .click();
      expect((await saved).ok()).toBe(true);
      await page.keyboard.press('Escape');

      // The student comes back (a reload): the page lands where the class is, with the score.
      await learner.reload();
      await expect(learner.getByRole('heading', { level: 2, name: 'Your turn' })).toBeVisible();
      await expect(learner.getByText(say('learn.score').replace('{{score}}', '90'))).toBeVisible();
      await expect(learner.getByText(say('learn.comment').replace('{{comment}}', 'Well explained'))).toBeVisible();
      await accessibleOnceSettled(learner);
      await learner.context().close();
    });
  });
}
