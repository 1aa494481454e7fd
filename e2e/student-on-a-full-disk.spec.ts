import { Buffer } from 'node:buffer';
import { clientAddress, FULL_DISK_URL } from './support/api';
import { expect, expectAccessible, test, text, texts } from './support/fixtures';
import { button, createProject } from './support/editor';
import { signInThroughApi } from './support/sign-in';

// This server's floor of free disk is beyond any disk (playwright.config.ts): its disk always counts as full.
const project = texts('ja', 'project');
const common = texts('ja', 'common');
const t = (key: string) => text(project, key);

test.use({ locale: 'ja-JP', baseURL: FULL_DISK_URL });
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

test('on a full disk a student is told why Python does not start and a file is not stored, and loses nothing', async ({
  page,
}) => {
  await signInThroughApi(page, { custcode: 'demo2026', username: 'student03', password: 'Student@2026' });
  await createProject(page, project, 'ディスクの確認');
  const state = page.locator('[data-runtime-state]');
  await expect(state).toHaveText(t('runtime.state.NA'));

  // The editor says so before Python is asked for, and the start is refused with the same explanation.
  await expect(page.getByText(t('runtime.serverDiskFull'))).toBeVisible();
  await button(page, t('runtime.start')).click();
  // NO_SPACE's message in Japanese (contracts/src/locales/ja.ts), above the explanation.
  await expect(page.getByText('空き容量がありません')).toBeVisible();
  await expect(page.getByText(t('runtime.serverDiskFull'))).toBeVisible();
  await expect(state).toHaveText(t('runtime.state.NA'));
  await expectAccessible(page);

  await page.getByTestId('upload-input').setInputFiles({
    name: 'scores.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,score\nada,10\n'),
  });
  await expect(page.getByText(text(common, 'serverDiskFull'))).toBeVisible();
  // The one toast says why; the refused start showed its reason in the editor and no toast of its own.
  await expect(page.locator('.ant-message-notice')).toHaveCount(1);
  const files = page.getByRole('navigation', { name: t('editor.files') });
  await expect(files.getByText('main.ipynb')).toBeVisible();
  await expect(files.getByText('scores.csv')).toHaveCount(0);

  // The project and its notebook are there when the student comes back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'ディスクの確認' })).toBeVisible();
  await expect(files.getByText('main.ipynb')).toBeVisible();
});
