import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export type Texts = Record<string, unknown>;

/** The product's own texts, so journeys assert what a person reads in each language. */
export function texts(language: 'en' | 'zh_CHS' | 'zh_CHT' | 'ja', namespace: string): Texts {
  return JSON.parse(
    readFileSync(new URL(`../../web/src/locales/${language}/${namespace}.json`, import.meta.url), 'utf8'),
  );
}

export function text(source: Texts, key: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Texts | undefined)?.[part], source);
  if (typeof value !== 'string') throw new Error(`no text at ${key}`);
  return value;
}

/** The classes antd's motion gives a pop-up while it enters (and a frame before its animation starts). */
const MOTION = '[class*="-appear"], [class*="-enter"]';

/**
 * Clicks an item of a pop-up (a menu, a select's options, a dialog's button) once the pop-up stands still. It opens
 * with an animation; an item still moving is not clickable, and after a few such tries Playwright scrolls the page to
 * reach it or clicks where the item was a frame ago, so the pointer can land beside the item and the click is lost (a
 * confirmation dialog then simply stays open).
 */
export async function clickWhenStill(item: Locator) {
  await expect(item).toBeVisible();
  // Still while no animation runs and no element holds a motion class: those come a frame before their animation.
  await expect
    .poll(() =>
      item.evaluate((element, motion) => {
        const popup = element.closest('.ant-dropdown, .ant-select-dropdown, .ant-modal-wrap') ?? element;
        // A spinner's endless animation never finishes and moves nothing: only animations with an end count.
        const moving = popup
          .getAnimations({ subtree: true })
          .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
        const entering = popup.matches(motion) || popup.querySelector(motion) !== null;
        return !moving && !entering;
      }, MOTION),
    )
    .toBe(true);
  await item.click();
}

/**
 * Makes every animation and transition end at once while it is on: what axe measures is the page as it settles,
 * not a toast half faded in or out (whose text, at a fraction of its opacity, fails the contrast rule). An
 * animation cut short still ends, so a toast on its way out is removed as it would have been.
 */
const SETTLED = `*, *::before, *::after {
  animation-duration: 0s !important; animation-delay: 0s !important;
  transition-duration: 0s !important; transition-delay: 0s !important;
}`;

/**
 * HTML_CodeSniffer, run in the page: a second WCAG 2 AA checker, which finds what axe lets pass (a button whose
 * only content is a hidden icon, say). Evaluated rather than added as a script, which the server's
 * Content-Security-Policy would refuse.
 */
const HTMLCS_SOURCE = readFileSync(createRequire(import.meta.url).resolve('html_codesniffer/build/HTMLCS.js'), 'utf8');
const HTMLCS_ERROR = 1;
/**
 * Contrast is left to axe, which measures it against what is really drawn behind the text (HTML_CodeSniffer reads
 * the nearest declared background, so text over an image or a translucent layer fails or passes wrongly).
 */
const LEFT_TO_AXE = /Guideline1_4\.1_4_3/;
/**
 * A menu's item group is `<li role="presentation">` around its title and `<ul role="group">` of items: the ARIA
 * menu pattern (a group is a child of the menu; the list item is not an item of it). HTML_CodeSniffer's F92 reads any
 * presentation element with meaningful children as a fault, so this one pattern is not counted; axe checks the menu.
 */
const MENU_GROUP = (m: { code: string; element: string }) =>
  m.code.endsWith('1_3_1.F92,ARIA4') && /^<li role="presentation" class="ant-menu-item-group"/.test(m.element);

async function codeSnifferErrors(page: Page): Promise<string[]> {
  await page.evaluate(`${HTMLCS_SOURCE};0`);
  const messages = await page.evaluate(
    () =>
      new Promise<{ type: number; code: string; element: string; rendered: boolean }[]>((resolve) => {
        const htmlcs = (
          window as unknown as {
            HTMLCS: {
              process(s: string, d: Document, done: () => void): void;
              getMessages(): { type: number; code: string; element: Element }[];
            };
          }
        ).HTMLCS;
        htmlcs.process('WCAG2AA', document, () =>
          resolve(
            htmlcs.getMessages().map((m) => ({
              type: m.type,
              code: m.code,
              // The page itself, for rules about the document, has no markup of its own.
              element: (m.element as Element).outerHTML?.slice(0, 160) ?? m.element.nodeName,
              rendered: !(m.element instanceof Element) || m.element.checkVisibility({ visibilityProperty: true }),
            })),
          ),
        );
      }),
  );
  // An element that is not rendered (`display: none`, as an upload's file input behind its button, or
  // `visibility: hidden`, as a tabs' "more" button while every tab fits) is not in the accessibility tree, which
  // HTML_CodeSniffer does not know: only rendered elements count.
  return messages
    .filter((m) => m.type === HTMLCS_ERROR && m.rendered && !LEFT_TO_AXE.test(m.code) && !MENU_GROUP(m))
    .map((m) => `${m.code}: ${m.element}`);
}

/** axe-core and HTML_CodeSniffer over the whole page, as it settles: every WCAG 2 A/AA rule must pass. */
export async function expectAccessible(page: Page) {
  const settled = await page.addStyleTag({ content: SETTLED });
  try {
    // Two frames: the style applies, and animations that ended with it finish their clean-up.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
    );
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(summary).toEqual([]);
    expect(await codeSnifferErrors(page)).toEqual([]);
  } finally {
    await settled.evaluate((style) => (style as Element).remove()).catch(() => undefined);
  }
}

/**
 * Every key of the product's texts (`menu.label`; a plural's `days` as well as `days_one`): a page that shows one as
 * its text rendered before its texts had loaded.
 */
const TEXT_KEYS: string[] = (() => {
  const keys = new Set<string>();
  const walk = (node: unknown, path: string[]) => {
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) walk(value, [...path, key]);
    } else if (path.length > 1) {
      const key = path.join('.');
      keys.add(key);
      keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''));
    }
  };
  const folder = new URL('../../web/src/locales/en/', import.meta.url);
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(new URL(file, folder), 'utf8')), []);
  }
  return [...keys];
})();

/**
 * Every journey runs in a fresh context (axe needs one) and fails on a Content-Security-Policy violation, an
 * uncaught page error, or a text key shown in place of its text, even for a moment: the strict policy the server
 * sends must hold for the whole app, and no page may render before its texts are there.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text()))
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      const keysShown = new Set<string>();
      await page.exposeFunction('__textKeyShown', (key: string) => {
        if (!keysShown.has(key)) problems.push(`text key shown instead of its text: ${key}`);
        keysShown.add(key);
      });
      await page.addInitScript((keys: string[]) => {
        const known = new Set(keys);
        const report = (window as unknown as { __textKeyShown: (key: string) => void }).__textKeyShown;
        const check = (node: Node) => {
          if (node.nodeType === Node.TEXT_NODE) {
            const shown = node.textContent?.trim();
            if (shown && known.has(shown)) report(shown);
          } else node.childNodes.forEach(check);
        };
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'characterData') check(record.target);
            else record.addedNodes.forEach(check);
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });
      }, TEXT_KEYS);
      await use(problems);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
