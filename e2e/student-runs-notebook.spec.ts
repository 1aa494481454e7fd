import { Buffer } from 'node:buffer';
import type { Page } from '@playwright/test';
import { SHORT_TOKEN_URL } from './support/api';
import { expect, expectAccessible, test, text, texts } from './support/fixtures';
import { button, createProject } from './support/editor';
import { signInThroughApi } from './support/sign-in';

const project = texts('en', 'project');
const t = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text(project, key));

/** Signs a demo student in through the API and stores the session the way the app does. */
const signIn = (page: Page, username: string) =>
  signInThroughApi(page, { custcode: 'demo2026', username, password: 'Student@2026' });

async function typeInCell(page: Page, index: number, code: string) {
  const cell = page.getByRole('region', { name: t('notebook.cellCode', { index }) });
  await cell.locator('.cm-content').click();
  await page.keyboard.type(code);
  await page.keyboard.press('Shift+Enter');
  return cell;
}

test.use({ locale: 'en-US' });

test('a student creates a project, runs Python, plots, uses the terminal, uploads, versions and finds it all again', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'student07');
  await createProject(page, project, 'My first chart');
  const state = page.locator('[data-runtime-state]');
  await expect(state).toHaveText(t('runtime.state.NA'));
  await expectAccessible(page);

  await button(page, t('runtime.start')).click();
  await expect(state).toHaveText(t('runtime.state.RUNNING'), { timeout: 60_000 });
  await expect(page.locator('[data-run-state]')).toHaveText(t('notebook.runState.ready'), { timeout: 30_000 });

  await typeInCell(page, 1, 'import numpy as np; print(np.arange(5).sum())');
  const firstOutput = page.getByRole('log', { name: t('notebook.outputs', { index: 1 }) });
  await expect(firstOutput).toHaveText('10', { timeout: 30_000 });

  await typeInCell(page, 2, 'import matplotlib.pyplot as plt; plt.plot([1, 2, 3], [1, 4, 9]); plt.show()');
  const chart = page.getByRole('img', { name: t('notebook.chartAlt', { index: 2 }) });
  await expect(chart).toBeVisible({ timeout: 30_000 });
  expect(await chart.getAttribute('src')).toMatch(/^data:image\/png;base64,/);

  await button(page, t('editor.terminal')).click();
  const terminal = page.getByRole('region', { name: t('terminal.label') });
  await terminal.locator('.xterm').click();
  await page.keyboard.type('echo answer-$((6*7)) && pwd\n');
  await expect(terminal.locator('.xterm-rows')).toContainText('answer-42', { timeout: 20_000 });
  await expect(terminal.locator('.xterm-rows')).toContainText('/workspace');

  await page.getByTestId('upload-input').setInputFiles({
    name: 'scores.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,score\nada,10\n'),
  });
  const files = page.getByRole('navigation', { name: t('editor.files') });
  await expect(files.getByText('scores.csv')).toBeVisible();

  await button(page, t('editor.versions')).click();
  await page.getByLabel(t('versions.description')).fill('First chart');
  await button(page, t('versions.save')).click();
  await expect(page.getByText(`1.0.0 · ${t('versions.snapshot', { number: 1 })}`)).toBeVisible();
  await page.keyboard.press('Escape');

  await button(page, t('runtime.stop')).click();
  await expect(state).toHaveText(t('runtime.state.STOPPED'), { timeout: 30_000 });

  // A fresh page load reads everything back from the project's storage.
  await page.reload();
  await expect(page.getByRole('log', { name: t('notebook.outputs', { index: 1 }) })).toHaveText('10');
  await expect(page.getByRole('img', { name: t('notebook.chartAlt', { index: 2 }) })).toBeVisible();
  await expect(files.getByText('scores.csv')).toBeVisible();
  await button(page, t('runtime.start')).click();
  await expect(state).toHaveText(t('runtime.state.RUNNING'), { timeout: 60_000 });
  await expect(page.locator('[data-run-state]')).toHaveText(t('notebook.runState.ready'), { timeout: 30_000 });
  await typeInCell(page, 3, "print(open('scores.csv').read().splitlines()[1])");
  await expect(page.getByRole('log', { name: t('notebook.outputs', { index: 3 }) })).toHaveText('ada,10', {
    timeout: 30_000,
  });
  await button(page, t('runtime.stop')).click();
  await expect(state).toHaveText(t('runtime.state.STOPPED'), { timeout: 30_000 });
});

test.describe('with access tokens that expire every 2 seconds', () => {
  test.use({ baseURL: SHORT_TOKEN_URL });

  test('a running cell keeps its output while the editor renews its token on the open socket', async ({ page }) => {
    test.setTimeout(180_000);
    const channels: string[] = [];
    page.on('websocket', (socket) => {
      if (socket.url().includes('/channels')) channels.push(socket.url());
    });
    const renewals: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/gw/api/v1/runtime/sockets/')) renewals.push(response.status());
    });
    await signIn(page, 'student08');
    await page.goto('/pjedu/my/projects');
    await expect(page.getByRole('heading', { level: 1, name: t('list.mineTitle') })).toBeVisible();
    await button(page, t('list.create')).first().click();
    await page.getByLabel(t('form.name')).fill('Long run');
    await button(page, t('form.create')).click();
    // The tokens expired several times on the way: the student is still signed in, in the new project's editor.
    await expect(page.getByRole('heading', { level: 1, name: 'Long run' })).toBeVisible();
    await button(page, t('runtime.start')).click();
    await expect(page.locator('[data-runtime-state]')).toHaveText(t('runtime.state.RUNNING'), { timeout: 60_000 });
    const runState = page.locator('[data-run-state]');
    await expect(runState).toHaveText(t('notebook.runState.ready'), { timeout: 30_000 });

    // Six seconds of running: each time the 2-second token expires, the gateway asks for a fresh one. (The socket
    // may have been opened twice already: a token that expired on the way makes the gateway refuse the upgrade.)
    const opened = channels.length;
    await typeInCell(page, 1, 'import time; _ = [time.sleep(2) or print(i) for i in range(3)]');
    const output = page.getByRole('log', { name: t('notebook.outputs', { index: 1 }) });
    await expect(output).toHaveText('0 1 2', { timeout: 30_000 });
    await expect(runState).toHaveText(t('notebook.runState.done'));
    // Renewed on the socket it had: nothing the kernel printed was in flight across a reconnect.
    expect(renewals.length).toBeGreaterThan(0);
    expect(renewals.every((status) => status === 200)).toBe(true);
    expect(channels).toHaveLength(opened);
    expect(new Set(channels.map((url) => new URL(url).searchParams.get('session_id'))).size).toBe(1);

    await typeInCell(page, 2, 'print(6 * 7)');
    await expect(page.getByRole('log', { name: t('notebook.outputs', { index: 2 }) })).toHaveText('42', {
      timeout: 30_000,
    });

    // The terminal's shell goes on across the renewals, and its screen shows each line once.
    await button(page, t('editor.terminal')).click();
    const screen = page.getByRole('region', { name: t('terminal.label') }).locator('.xterm-rows');
    await page
      .getByRole('region', { name: t('terminal.label') })
      .locator('.xterm')
      .click();
    await page.keyboard.type('echo one-$((1+1)); sleep 5; echo two-$((2+2))\n');
    await expect(screen).toContainText('two-4', { timeout: 30_000 });
    expect((await screen.textContent())?.split('one-2').length).toBe(2);
    await button(page, t('runtime.stop')).click();
  });
});
