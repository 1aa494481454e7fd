import { expect, expectAccessible, test, text, texts } from './support/fixtures';

const LANGUAGES = [
  { code: 'en', html: 'en', browser: 'en-US' },
  { code: 'zh_CHS', html: 'zh-CN', browser: 'zh-CN' },
  { code: 'zh_CHT', html: 'zh-TW', browser: 'zh-TW' },
  { code: 'ja', html: 'ja', browser: 'ja-JP' },
] as const;

for (const language of LANGUAGES) {
  test.describe(`a visitor whose browser speaks ${language.browser}`, () => {
    test.use({ locale: language.browser });

    test(`sees /home in ${language.code}, with navigation, banner and footer, accessible`, async ({ page }) => {
      await page.goto('/home');
      const home = texts(language.code, 'home');
      const common = texts(language.code, 'common');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(home, 'banner.title'));
      await expect(page.locator('html')).toHaveAttribute('lang', language.html);
      await expect(page.getByRole('navigation').first()).toBeVisible();
      await expect(page.getByRole('region', { name: text(home, 'banner.label') })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expect(page.getByRole('combobox', { name: text(common, 'language.label') })).toHaveValue(language.code);
      await expectAccessible(page);
    });
  });
}

test.describe('the language switcher', () => {
  test.use({ locale: 'en-US' });

  test('switches every text without a reload and keeps the choice in the language cookie', async ({
    page,
    context,
  }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(texts('en', 'home'), 'banner.title'));
    let current: 'en' | 'ja' | 'zh_CHT' | 'zh_CHS' = 'en';
    for (const language of ['ja', 'zh_CHT', 'zh_CHS'] as const) {
      // The switcher's own label is in the language on screen.
      const label = text(texts(current, 'common'), 'language.label');
      await page.getByRole('combobox', { name: label }).selectOption(language);
      current = language;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(texts(language, 'home'), 'banner.title'));
      await expectAccessible(page);
    }
    const cookie = (await context.cookies()).find((c) => c.name === 'language');
    expect(cookie?.value).toBe('zh_CHS');
    expect(cookie?.sameSite).toBe('Strict');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(texts('zh_CHS', 'home'), 'banner.title'));
  });
});

test.describe('pages beside home', () => {
  test.use({ locale: 'en-US' });

  test('the user agreement and privacy policy are readable and accessible', async ({ page }) => {
    const legal = texts('en', 'legal');
    for (const [path, key] of [
      ['/home/protocol', 'protocol.title'],
      ['/home/privacy', 'privacy.title'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(legal, key));
      await expectAccessible(page);
    }
  });

  test('an unknown address shows the page-not-found page with a way home', async ({ page }) => {
    await page.goto('/no/such/page');
    const common = texts('en', 'common');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(common, 'notFound.title'));
    await expectAccessible(page);
    await page.getByRole('link', { name: text(common, 'notFound.home') }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a screen that is not built yet says so in the visitor language', async ({ page }) => {
    await page.goto('/pjedu/mall');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(text(texts('en', 'common'), 'comingSoon.body'))).toBeVisible();
    await expectAccessible(page);
  });
});
