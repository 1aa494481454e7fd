import type { Page } from '@playwright/test';
import { apiCall, apiLogin } from './support/admin-session';
import { DEMO } from './support/api';
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

/** The boxes of the elements a selector names, in order, rounded to whole pixels. */
const boxesOf = (page: Page, selectors: string[]) =>
  page.evaluate(
    (selectors) =>
      selectors.map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return [box.x, box.y, box.width, box.height].map(Math.round);
      }),
    selectors,
  );

test.describe("a visitor who opens a public course's link", () => {
  let course: { id: string; name: string; description: string; ownerName: string };

  test.beforeAll(async ({ request }) => {
    // A school shares one of its published courses with everyone.
    const teacher = await apiLogin(request, DEMO.teacher.custcode, DEMO.teacher.username, DEMO.teacher.password);
    const mine = await apiCall<{ id: string; status: string; description: string }[]>(
      request,
      teacher.token,
      'GET',
      '/api/v1/courses/mine',
    );
    const shared = mine.find((c) => c.status === 'published' && c.description);
    if (!shared) throw new Error('the demo teacher has no published course with a description');
    await apiCall(request, teacher.token, 'PUT', `/api/v1/courses/${shared.id}`, { publicScope: 'public' });
    course = await apiCall(request, teacher.token, 'GET', `/api/v1/courses/${shared.id}`);
  });

  for (const language of LANGUAGES) {
    for (const width of [412, 1280]) {
      test(`reads its name, by-line and description before the code runs, in ${language.browser} at ${width} px`, async ({
        browser,
      }) => {
        const context = await browser.newContext({ locale: language.browser, viewport: { width, height: 900 } });
        const still = await context.newPage();
        await still.route('**/assets/*.js', (route) => route.abort());
        const path = `/pjedu/courses/${course.id}`;
        await still.goto(path);
        await expect(still.locator('html')).toHaveAttribute('lang', language.html);
        await expect(still.locator('.boot-shell__frame h1')).toHaveText(course.name);
        const by = text(texts(language.code, 'course'), 'detail.by').replace('{{name}}', course.ownerName);
        await expect(still.locator('.boot-shell__frame p').first()).toContainText(by);
        await expect(still.locator('.boot-shell__frame p').nth(1)).toHaveText(course.description);

        // The app draws the course it came with at once: it does not ask for it again.
        const live = await context.newPage();
        const asked: string[] = [];
        live.on('request', (request) => {
          if (new URL(request.url()).pathname === `/api/v1/courses/${course.id}`) asked.push(request.url());
        });
        await live.goto(path);
        await expect(live.locator('.course-player__titles h1')).toHaveText(course.name);
        await expect(live.locator('.course-player__description')).toHaveText(course.description);
        expect(asked).toEqual([]);
        expect(
          await boxesOf(live, ['.course-player__titles h1', '.course-player__meta', '.course-player__description']),
        ).toEqual(
          await boxesOf(still, [
            '.boot-shell__frame h1',
            '.boot-shell__frame p:nth-of-type(1)',
            '.boot-shell__frame p:nth-of-type(2)',
          ]),
        );
        await context.close();
      });
    }
  }
});

test("the component library's styles come from its stylesheet, in the theme, and leave the app's own links alone", async ({
  page,
}) => {
  await page.goto('/pjedu/course');
  await expect(page.locator('.course-centre__head h1')).toBeVisible();
  const styles = await page.evaluate(() => ({
    // Before the app's own styles (index.html's and the pages'), where the library put its own.
    // (The library's own run-time styles, its variables and its icons' base, are marked `data-rc-order`.)
    first: document.head.querySelector('link[rel="stylesheet"], style:not([data-rc-order])')?.getAttribute('href'),
    // What the library writes at run time is its theme's CSS variables, never a component's rules.
    generated: Array.from(document.querySelectorAll('style[data-css-hash]')).filter((style) =>
      /\{[^}]*[a-z-]+:/.test((style.textContent ?? '').replace(/--[\w-]+:[^;}]*;?/g, '')),
    ).length,
    button: getComputedStyle(document.querySelector('.ant-btn-lg')!).height,
    primary: getComputedStyle(document.querySelector('.ant-btn-primary')!).backgroundColor,
    footerLink: getComputedStyle(document.querySelector('.site-footer a')!).textDecorationLine,
  }));
  expect(styles.first).toMatch(/^\/assets\/antd-[\w-]+\.css$/);
  expect(styles.generated).toBe(0);
  // The theme's large control height (48 px; the library's own is 40) and brand blue (#1f5fcc), through the
  // library's CSS variables.
  expect(styles.button).toBe('48px');
  expect(styles.primary).toBe('rgb(31, 95, 204)');
  expect(styles.footerLink).toBe('underline');
});
