import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { apiLogin, useLogin } from './support/admin-session';
import { expect, expectAccessible, test, text, texts } from './support/fixtures';

const admin = texts('en', 'admin');
const common = texts('en', 'common');

/**
 * The demo accounts that administer something, the address each lands on, and which of its screens axe reads: the
 * platform's own screens for the super administrator, every screen for the customer administrator, and none for the
 * school administrator, whose screens are the customer administrator's over a smaller scope.
 */
const ADMINISTRATORS = [
  {
    who: 'the super administrator',
    custcode: '',
    username: 'super',
    password: 'Super@2026',
    start: '/super/customers',
    axe: (href: string) => href.startsWith('/super/'),
    checked: 'its own screens are accessible',
  },
  {
    who: 'a customer administrator',
    custcode: 'demo2026',
    username: 'admin',
    password: 'Admin@2026',
    start: '/admin/schools',
    axe: () => true,
    checked: 'each is accessible',
  },
  {
    who: 'a school administrator',
    custcode: 'demo2026',
    username: 'school1',
    password: 'School@2026',
    start: '/admin/classes',
    axe: () => false,
    checked: 'each has its data',
  },
] as const;

test.describe('the administration', () => {
  test.use({ locale: 'en-US' });

  for (const account of ADMINISTRATORS) {
    test(`${account.who} opens every screen of the menu: each has its title and works, ${account.checked}`, async ({
      page,
      request,
    }) => {
      // 15 screens with axe take 1.2 min alone, 1.8 min beside another journey on two cores.
      test.setTimeout(300_000);
      const login = await apiLogin(request, account.custcode, account.username, account.password);
      await useLogin(page, account.custcode, login);
      await page.goto(account.start);
      const menu = page.getByRole('navigation', { name: text(admin, 'menu.label') });
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const entries = await menu
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => ({ name: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
      expect(entries.length).toBeGreaterThan(3);
      for (const entry of entries) {
        await test.step(entry.href, async () => {
          await menu.getByRole('link', { name: entry.name, exact: true }).click();
          await expect(page).toHaveURL(entry.href);
          await expect(page.getByRole('heading', { level: 1, name: entry.name })).toBeVisible();
          // A screen whose code fails shows the error page instead; wait for its data before reading it.
          await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
          await expect(page.getByRole('heading', { name: text(common, 'error.title') })).toHaveCount(0);
          if (entry.href === '/admin/statistics') {
            const chart = page.getByRole('img', { name: text(admin, 'statistics.activeUsers') });
            await expect(chart.locator('svg')).toBeVisible();
          }
          if (account.axe(entry.href)) await expectAccessible(page);
        });
      }
    });
  }
});

test.describe('the administration on a phone', () => {
  test.use({ locale: 'en-US', viewport: { width: 390, height: 800 } });

  test('every screen of a customer administrator keeps to the width, its menu folded above it', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const login = await apiLogin(request, 'demo2026', 'admin', 'Admin@2026');
    await useLogin(page, 'demo2026', login);
    await page.goto('/admin/schools');
    const menu = page.getByRole('navigation', { name: text(admin, 'menu.label') });
    await menu.getByText(text(admin, 'menu.label')).click();
    const hrefs = await menu.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(3);
    for (const href of hrefs) {
      await test.step(href, async () => {
        await page.goto(href);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        // Folded: the screen comes first.
        await expect(menu.getByRole('link').first()).toBeHidden();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      });
    }
  });
});

test.describe('a backup', () => {
  test.use({ locale: 'en-US' });

  test('the super administrator downloads one from the system configuration, and the browser saves the archive', async ({
    page,
    request,
  }) => {
    const login = await apiLogin(request, '', 'super', 'Super@2026');
    await useLogin(page, '', login);
    await page.goto('/super/system-config');
    const card = page.locator('.ant-card').filter({
      has: page.getByRole('heading', { level: 2, name: text(admin, 'system.backup') }),
    });
    const saved = page.waitForEvent('download');
    await card.getByRole('button', { name: text(admin, 'system.downloadBackup') }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^aiedu-backup-\d{8}-\d{4}\.tar\.gz$/);
    // A whole gzip stream (gunzip refuses a cut-off one) of a tar whose first entry is the backup's description.
    const archive = gunzipSync(await readFile((await download.path())!));
    expect(archive.subarray(0, 11).toString()).toBe('backup.json');
    await expect(page.getByText(text(admin, 'system.backupStarted'))).toBeVisible();
  });
});
