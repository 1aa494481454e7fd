import type { Page } from '@playwright/test';
import { expect, expectAccessible, text, type Texts } from './fixtures';

/** A button by its visible text; antd icons add their own name before it ("thunderbolt Start Python"). */
export const button = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

/**
 * Creates a project from "My projects" as a student would, in the language of `project` (its texts), checking the
 * list with axe-core on the way; ends in the new project's editor.
 */
export async function createProject(page: Page, project: Texts, name: string) {
  await page.goto('/pjedu/my/projects');
  await expect(page.getByRole('heading', { level: 1, name: text(project, 'list.mineTitle') })).toBeVisible();
  await expectAccessible(page);
  await button(page, text(project, 'list.create')).first().click();
  await page.getByLabel(text(project, 'form.name')).fill(name);
  await button(page, text(project, 'form.create')).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}
