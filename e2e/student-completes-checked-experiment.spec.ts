import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';
import { button } from './support/editor';
import { named, newPage } from './support/pages';
import { signInThroughApi } from './support/sign-in';

const course = texts('en', 'course');
const project = texts('en', 'project');
const say = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text(course, key));

/** The seeded iris course of the demo customer, as its English file names it. */
const iris = JSON.parse(
  readFileSync(new URL('../content/starter/iris-classifier/en.json', import.meta.url), 'utf8'),
) as { name: string; chapters: { sections: { title: string; tasks?: { questions: { type: string }[] }[] }[] }[] };
const experimentSection = iris.chapters
  .flatMap((c) => c.sections)
  .find((s) => (s.tasks ?? []).some((t) => t.questions.some((q) => q.type === 'experiment')))!;

const starterName = (slug: string, language: string) =>
  (
    JSON.parse(readFileSync(new URL(`../content/starter/${slug}/${language}.json`, import.meta.url), 'utf8')) as {
      name: string;
    }
  ).name;

/** The five lines the template leaves for the learner, each alone in its cell, and what completes them. */
const STEPS: [string, string][] = [
  ['knn = None', 'knn = KNeighborsClassifier(n_neighbors=5).fit(X_train, y_train)'],
  ['knn_accuracy = None', 'knn_accuracy = accuracy_score(y_test, knn.predict(X_test))'],
  ['tree = None', 'tree = DecisionTreeClassifier(random_state=0).fit(X_train, y_train)'],
  ['tree_accuracy = None', 'tree_accuracy = accuracy_score(y_test, tree.predict(X_test))'],
  ['matrix = None', 'matrix = confusion_matrix(y_test, tree.predict(X_test))'],
];

/** Replaces the whole text of the notebook cell whose code holds `placeholder` (a closing bracket typed where the editor closed one already steps over it). */
async function completeCell(page: Page, placeholder: string, code: string) {
  const editors = page.locator('.cm-content');
  await expect(editors.filter({ hasText: placeholder }).first()).toBeVisible();
  const index = await editors.evaluateAll(
    (elements, wanted) => elements.findIndex((e) => (e.textContent ?? '').includes(wanted)),
    placeholder,
  );
  const cell = editors.nth(index);
  await cell.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(code);
  await expect(cell).toHaveText(code);
}

test.use({ locale: 'en-US' });

test('a student completes the seeded iris experiment, the check scores it 100, and the teacher sees it in the results', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signInThroughApi(page, { custcode: 'demo2026', username: 'student12', password: 'Student@2026' });

  // The course centre of the demo school holds the starter courses, nothing imported by hand.
  await page.goto('/pjedu/course');
  await page
    .getByRole('link', { name: named(iris.name) })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: iris.name })).toBeVisible();
  const courseUrl = page.url();
  await page.getByRole('button', { name: named(say('join.joinCourse')) }).click();
  await page.getByRole('button', { name: experimentSection.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: experimentSection.title })).toBeVisible();
  await expect(page.getByText(say('check.notStarted', { notebook: 'iris.ipynb' }))).toBeVisible();
  await expectAccessible(page);

  // "Start experiment" opens the student's own copy in the editor; the five steps are completed there and saved.
  await button(page, say('experiment.start')).click();
  await expect(page.getByRole('heading', { level: 1, name: iris.name })).toBeVisible();
  await page
    .getByRole('treeitem', { name: /iris\.ipynb/ })
    .first()
    .click();
  for (const [placeholder, code] of STEPS) await completeCell(page, placeholder, code);
  await button(page, text(project, 'editor.save')).click();
  await expect(page.getByText(/Saved \d+ s ago/)).toBeVisible({ timeout: 30_000 });

  // Back in the course: the check runs the notebook in the student's sandbox, then the hidden tests.
  await page.goto(courseUrl);
  await page.getByRole('button', { name: experimentSection.title, exact: true }).click();
  await button(page, say('check.run')).click();
  await expect(page.getByText(say('check.passed'))).toBeVisible({ timeout: 180_000 });
  await expect(page.getByRole('progressbar', { name: say('check.scoreLabel', { score: 100 }) })).toBeVisible();
  await expectAccessible(page);
  await button(page, say('quiz.submit')).click();
  await expect(page.getByText(say('quiz.score', { score: 100 }))).toBeVisible({ timeout: 60_000 });

  // The course's teacher (the seeded owner) reads it in the results, with the automatic check's score.
  const teacher = await newPage(browser, 'en-US');
  await signInThroughApi(teacher, { custcode: 'demo2026', username: 'teacher1', password: 'Teacher@2026' });
  await teacher.goto(`${courseUrl}/edit`);
  const results = teacher.getByRole('region', { name: say('results.title') });
  const answer = results.getByRole('row', { name: /Student 12/ });
  await expect(answer.getByText(say('check.autoScore', { score: 100 }))).toBeVisible({ timeout: 30_000 });
  // The score the check gave is the answer's score; the teacher's field holds it, to keep or override.
  await expect(answer.getByRole('spinbutton', { name: say('record.score') })).toHaveValue('100');
  await expectAccessible(teacher);
  await teacher.close();
});

test('a customer administrator imports a starter course in Japanese and opens it in the course editor', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughApi(page, { custcode: 'demo2026', username: 'admin', password: 'Admin@2026' });
  await page.goto('/pjedu/course');
  await button(page, say('starter.open')).click();
  const drawer = page.getByRole('dialog', { name: say('starter.title') });
  const english = starterName('image-basics', 'en');
  await expect(drawer.getByRole('heading', { name: english })).toBeVisible();
  await expectAccessible(page);
  await drawer.getByRole('combobox', { name: say('starter.languageOf', { name: english }) }).click();
  await clickWhenStill(page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="日本語"]'));
  await drawer.getByRole('button', { name: say('starter.importOf', { name: english }) }).click();
  await drawer.getByRole('link', { name: say('starter.openEditor') }).click();
  await expect(page.getByRole('heading', { level: 1, name: starterName('image-basics', 'ja') })).toBeVisible({
    timeout: 30_000,
  });
});
