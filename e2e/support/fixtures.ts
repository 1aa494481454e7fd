import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

type Texts = Record<string, unknown>;

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

/** axe-core over the whole page: every WCAG 2 A/AA rule must pass. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary).toEqual([]);
}

/**
 * Every journey runs in a fresh context (axe needs one) and fails on a Content-Security-Policy violation or an
 * uncaught page error: the strict policy the server sends must hold for the whole app.
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
      await use(problems);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
