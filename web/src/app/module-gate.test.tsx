import { API } from '@aiedu/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../test/page-kit';
import { ok, type FakeServer } from '../test/fake-api';
import { renderApp } from '../test/render-app';
import { changeLanguage } from './i18n';

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs('ROLE_STUDENT');
  // The institution switched courses off for its students: only projects are theirs.
  server.on(`GET ${API.schoolModules}`, () => ok([{ id: 'projects' }]));
});
afterEach(stopFakeApi);

describe('a page of a module switched off for the user', () => {
  it.each([
    ['en', 'No permission to visit'],
    ['zh_CHS', '无权访问'],
  ] as const)(
    'answers in %s with the refusal the API gives its calls (1008), without violations',
    async (language, title) => {
      await changeLanguage(language, { remember: false });
      renderApp('/pjedu/my/courses');
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(server.to(API.schoolModules).length).toBeGreaterThan(0);
      expect(await axeViolations()).toEqual([]);
    },
  );
});
