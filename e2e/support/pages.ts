import type { Browser, Page } from '@playwright/test';

/** A button's name as antd shows it: two CJK characters get a space between them ("确 定"). */
export function named(label: string): RegExp {
  const escaped = [...label].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*${escaped.join('\\s?')}\\s*$`);
}

/** A second person's browser (a fresh context, as axe needs) in a language. */
export async function newPage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale });
  return context.newPage();
}
