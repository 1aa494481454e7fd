import type { Page } from '@playwright/test';
import { expect, test, text, texts } from './support/fixtures';

/**
 * A framed page (web/vite.config.ts, FRAMED_PAGES) shows its title and lead before its code has run, in the
 * visitor's language, in the boxes its first render then draws them in: nothing to read moves when the app takes
 * over. A change of the page's layout that the frame does not follow fails here.
 */
const PAGES = [
  { path: '/portal/sign/login', title: ['screens', 'login'], lead: ['sign', 'page.lead'], app: '.sign-page__card' },
  {
    path: '/pjedu/course',
    title: ['screens', 'courseCentre'],
    lead: ['course', 'centre.lead'],
    app: '.course-centre__head',
  },
] as const;
const LANGUAGES = [
  { code: 'en', browser: 'en-US', html: 'en' },
  { code: 'ja', browser: 'ja-JP', html: 'ja' },
] as const;

/** The title's and the lead's boxes, rounded to whole pixels. */
const boxes = (page: Page, scope: string) =>
  page.evaluate(
    (scope) =>
      ['h1', 'p'].map((tag) => {
        const box = document.querySelector(`${scope} ${tag}`)!.getBoundingClientRect();
        return [box.x, box.y, box.width, box.height].map(Math.round);
      }),
    scope,
  );

for (const language of LANGUAGES) {
  test.describe(`a visitor whose browser speaks ${language.browser}`, () => {
    for (const width of [412, 1280]) {
      test(`reads the title and lead of the sign-in page and the course centre before their code runs, at ${width} px`, async ({
        browser,
      }) => {
        const context = await browser.newContext({ locale: language.browser, viewport: { width, height: 900 } });
        const still = await context.newPage();
        // The app's code never arrives: what shows is the page as the server sent it.
        await still.route('**/assets/*.js', (route) => route.abort());
        const live = await context.newPage();
        for (const page of PAGES) {
          const title = text(texts(language.code, page.title[0]), page.title[1]);
          const lead = text(texts(language.code, page.lead[0]), page.lead[1]);
          await still.goto(page.path);
          await expect(still.locator('html')).toHaveAttribute('lang', language.html);
          await expect(still.locator('.boot-shell__frame h1')).toHaveText(title);
          await expect(still.locator('.boot-shell__frame p')).toHaveText(lead);
          await live.goto(page.path);
          await expect(live.locator(`${page.app} h1`)).toHaveText(title);
          await expect(live.locator(`${page.app} p`).first()).toHaveText(lead);
          expect(await boxes(live, page.app)).toEqual(await boxes(still, '.boot-shell__frame'));
        }
        await context.close();
      });
    }
  });
}
