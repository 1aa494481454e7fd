import { screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../app/i18n';
import { startVisitorApi } from './page-kit';
import { renderApp } from './render-app';

/**
 * axe-core (WCAG 2.x A/AA rules) on every kind of page, in every language. happy-dom has no layout,
 * so axe reports colour contrast as "incomplete" here; theme.test.ts checks the palette's ratios.
 */
async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, { resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

const PAGES: Array<[string, string]> = [
  ['/home', 'Learn AI by building it'],
  ['/pjedu/home', 'Learn AI by building it'],
  ['/home/protocol', 'User agreement'],
  ['/home/privacy', 'Privacy policy'],
  ['/portal/sign/login', 'Sign in'],
  ['/portal/sign/register', 'Create an account'],
  ['/portal/sign/reset-password', 'Reset password'],
  ['/pjPortal/super/sign/login', 'Super administrator sign-in'],
  ['/iaif', 'You are signed in'],
  ['/pjedu/userprofile', 'My profile'],
  ['/admin/classes', 'Classes'],
  ['/pjedu/course', 'Course centre'],
  ['/pjedu/courses', 'Courses'],
  ['/pjedu/my/courses', 'My courses'],
  ['/pjedu/courses/new/edit', 'New course'],
  ['/pjedu/projects', 'Projects'],
  ['/pjedu/my/projects', 'Projects'],
  ['/no/such/page', 'Page not found'],
];

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  startVisitorApi();
});
afterEach(() => vi.restoreAllMocks());

describe('accessibility (axe-core)', () => {
  it.each(PAGES)('%s has no violations', async (path, heading) => {
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading });
    expect(await violations()).toEqual([]);
  });

  it.each(['zh_CHS', 'zh_CHT', 'ja'] as const)('the home page has no violations in %s', async (language) => {
    await changeLanguage(language, { remember: false });
    renderApp('/home');
    await screen.findByRole('heading', { level: 1 });
    expect(await violations()).toEqual([]);
  });
});
