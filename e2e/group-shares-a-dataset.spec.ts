import type { Browser, Page } from '@playwright/test';
import JSZip from 'jszip';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';
import { button, createProject } from './support/editor';
import { signInThroughApi } from './support/sign-in';

const group = texts('en', 'group');
const dataset = texts('en', 'dataset');
const project = texts('en', 'project');
const fill = (source: Record<string, unknown>, key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text(source, key));

/** A 1×1 PNG: the image the dataset's preview shows as a thumbnail. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A zip of what a class collects: pictures in a folder and a table of measurements. */
async function birdsZip(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('images/robin.png', PIXEL);
  zip.file('images/sparrow.png', PIXEL);
  zip.file('birds.csv', 'name,wingspan_cm\nrobin,21\nsparrow,23\nswift,42\n');
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function signedIn(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await signInThroughApi(page, { custcode: 'demo2026', username, password });
  return page;
}

test('a teacher shares a dataset with a group, and a student who joined by code reads its CSV with pandas', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const teacher = await signedIn(browser, 'teacher1', 'Teacher@2026');
  const groupName = `Bird watchers ${Date.now().toString(36)}`;

  // The teacher creates the group and reads its invitation code.
  await teacher.goto('/pjedu/groups');
  await button(teacher, text(group, 'list.create')).first().click();
  const createDialog = teacher.getByRole('dialog', { name: text(group, 'form.createTitle') });
  await createDialog.getByLabel(text(group, 'form.name')).fill(groupName);
  await expectAccessible(teacher);
  await clickWhenStill(createDialog.getByRole('button', { name: text(group, 'form.create') }));
  await expect(teacher.getByRole('heading', { level: 1, name: groupName })).toBeVisible();
  const groupUrl = new URL(teacher.url()).pathname;
  await teacher.goto(`${groupUrl}/invitation`);
  const code = (await teacher.getByTestId('group-code').textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{8}$/);
  await expectAccessible(teacher);

  // A student joins with the code (the join link fills it in) and lands in the group.
  const student = await signedIn(browser, 'student20', 'Student@2026');
  await student.goto(`/pjedu/groups?join=${code}`);
  const joinDialog = student.getByRole('dialog', { name: text(group, 'join.title') });
  await expect(joinDialog.getByLabel(text(group, 'join.code'))).toHaveValue(code);
  await expectAccessible(student);
  await clickWhenStill(joinDialog.getByRole('button', { name: text(group, 'join.submit') }));
  await expect(student.getByRole('heading', { level: 1, name: groupName })).toBeVisible();

  // The teacher creates a dataset shared with the group and uploads its zip.
  const datasetName = `Birds ${Date.now().toString(36)}`;
  await teacher.goto('/pjedu/datasets/new');
  await teacher.getByLabel(text(dataset, 'form.name')).fill(datasetName);
  await teacher.getByRole('radio', { name: text(dataset, 'access.group') }).check();
  await teacher.getByRole('combobox', { name: text(dataset, 'form.group') }).click();
  await clickWhenStill(teacher.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${groupName}"]`));
  // The options close with an animation; while they show, their list is part of the page axe reads.
  await expect(teacher.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await expectAccessible(teacher);
  await button(teacher, text(dataset, 'form.create')).click();
  await expect(teacher.getByText(text(dataset, 'form.created'))).toBeVisible();
  await teacher.locator('.zip-upload input[type=file]').setInputFiles({
    name: 'birds.zip',
    mimeType: 'application/zip',
    buffer: await birdsZip(),
  });
  // "Version 1 is ready: 3 files, 141 B."
  const ready = fill(dataset, 'upload.ready_other', { number: 1, count: 3, size: '' }).split(':')[0]!;
  await expect(teacher.getByText(ready)).toBeVisible({ timeout: 60_000 });

  // Its page shows the files, the CSV's first rows and the pictures.
  await teacher.goto('/pjedu/datasets');
  await teacher.getByRole('link', { name: datasetName }).click();
  const tree = teacher.getByRole('navigation', { name: text(dataset, 'files.tree') });
  await tree.getByText('birds.csv').click();
  const table = teacher.getByRole('table', { name: fill(dataset, 'preview.tableLabel', { name: 'birds.csv' }) });
  await expect(table.getByRole('cell', { name: 'swift' })).toBeVisible();
  await expectAccessible(teacher);

  // The student finds it among the datasets shared with them, attaches it to a project and reads it in a notebook.
  await student.goto('/pjedu/datasets');
  await expect(student.getByRole('link', { name: datasetName })).toBeVisible();
  await expectAccessible(student);
  await createProject(student, project, 'Wingspans');
  await button(student, text(project, 'editor.datasets')).click();
  await button(student, text(project, 'datasets.add')).click();
  await student.getByLabel(text(project, 'datasets.search')).fill(datasetName);
  await student.getByRole('button', { name: fill(project, 'datasets.addNamed', { name: datasetName }) }).click();
  await expect(student.getByText(text(project, 'datasets.state.success'))).toBeVisible({ timeout: 60_000 });
  await expectAccessible(student);
  await student.keyboard.press('Escape');

  await button(student, text(project, 'runtime.start')).click();
  await expect(student.locator('[data-runtime-state]')).toHaveText(text(project, 'runtime.state.RUNNING'), {
    timeout: 90_000,
  });
  await expect(student.locator('[data-run-state]')).toHaveText(text(project, 'notebook.runState.ready'), {
    timeout: 30_000,
  });
  const folder = datasetName.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_');
  const cell = student.getByRole('region', { name: fill(project, 'notebook.cellCode', { index: 1 }) });
  await cell.locator('.cm-content').click();
  await student.keyboard.type(
    `import pandas as pd; df = pd.read_csv('datasets/${folder}/birds.csv'); print(df.wingspan_cm.max())`,
  );
  await student.keyboard.press('Shift+Enter');
  await expect(student.getByRole('log', { name: fill(project, 'notebook.outputs', { index: 1 }) })).toHaveText('42', {
    timeout: 60_000,
  });
  await button(student, text(project, 'runtime.stop')).click();
  await expect(student.locator('[data-runtime-state]')).toHaveText(text(project, 'runtime.state.STOPPED'), {
    timeout: 30_000,
  });
});
