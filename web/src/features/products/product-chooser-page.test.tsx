import { API, LANGUAGES, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { readSession } from '../../app/session';
import { fail, ok, type FakeAnswer, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, startVisitorApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import en from '../../locales/en/common.json';
import ja from '../../locales/ja/common.json';
import zhCHS from '../../locales/zh_CHS/common.json';
import zhCHT from '../../locales/zh_CHT/common.json';
import enScreens from '../../locales/en/screens.json';
import jaScreens from '../../locales/ja/screens.json';
import zhCHSScreens from '../../locales/zh_CHS/screens.json';
import zhCHTScreens from '../../locales/zh_CHT/screens.json';

const TEXTS = {
  en: { common: en, screens: enScreens },
  zh_CHS: { common: zhCHS, screens: zhCHSScreens },
  zh_CHT: { common: zhCHT, screens: zhCHTScreens },
  ja: { common: ja, screens: jaScreens },
};

/** The server's products, named in the request's language. */
function apps(language: string) {
  return [
    { id: 'pjedu', name: `Learning (${language})`, description: 'Courses and projects', path: '/pjedu/home' },
    { id: 'admin', name: `Administration (${language})`, description: 'Schools and classes', path: '/admin' },
    { id: 'open', name: `Open platform (${language})`, description: 'API documents', path: '/open' },
  ];
}

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  // Product choices outlive a sign-out: every test starts from a new browser.
  localStorage.clear();
  server.on(`GET ${API.apps}`, (request) => ok(apps(request.headers.language ?? '')));
  server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(false));
});

afterEach(async () => {
  stopFakeApi();
  await changeLanguage('en', { remember: false });
});

describe('product chooser', () => {
  it('shows one card per product the user may use, in every language, with no text missing', async () => {
    signInAs(ROLES.schoolAdmin);
    for (const language of LANGUAGES) {
      await changeLanguage(language, { remember: false });
      const { common, screens } = TEXTS[language];
      const view = renderApp('/pjedu/products');
      expect(await screen.findByRole('heading', { level: 1, name: screens.productChooser })).toBeTruthy();
      const cards = await screen.findAllByRole('region');
      expect(cards.map((card) => within(card).getByRole('heading', { level: 2 }).textContent)).toEqual([
        `Learning (${language})`,
        `Administration (${language})`,
      ]);
      expect(screen.getByText(common.products.lead)).toBeTruthy();
      const go = common.products.open.replace('{{name}}', `Administration (${language})`);
      expect(screen.getByRole('link', { name: go }).className).toContain('ant-btn-lg');
      expect(document.body.textContent).not.toMatch(/products\.|header\./);
      view.unmount();
    }
  });

  it('has no accessibility violations', async () => {
    signInAs(ROLES.schoolAdmin);
    renderApp('/pjedu/products');
    await screen.findByRole('link', { name: 'Go to Administration (en)' });
    expect(await axeViolations()).toEqual([]);
  });

  it('is chosen from the keyboard: the choice is stored and the product opens', async () => {
    signInAs(ROLES.schoolAdmin);
    const user = userEvent.setup();
    const { router } = renderApp('/pjedu/products');
    const learning = await screen.findByRole('link', { name: 'Go to Learning (en)' });
    for (let presses = 0; presses < 40 && document.activeElement !== learning; presses += 1) await user.tab();
    expect(document.activeElement).toBe(learning);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pjedu/home'));
    expect(readSession()).toMatchObject({ isUserSelect: true, product: 'pjedu' });
  });

  it('shows a skeleton card per product while the names load', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    server.on(`GET ${API.apps}`, () => new Promise<FakeAnswer>((resolve) => (answer = resolve)));
    signInAs(ROLES.schoolAdmin);
    renderApp('/pjedu/products');
    const list = await screen.findByRole('list', { name: 'Choose a product' });
    expect(list.getAttribute('aria-busy')).toBe('true');
    expect(list.children).toHaveLength(2);
    await waitFor(() => expect(server.to(API.apps)).toHaveLength(1));
    answer(ok(apps('en')));
    expect(await screen.findByRole('link', { name: 'Go to Administration (en)' })).toBeTruthy();
    expect(list.getAttribute('aria-busy')).toBe('false');
  });

  it('says what to do when the products cannot be loaded, and tries again', async () => {
    server.on(`GET ${API.apps}`, () => fail('9999', 'Internal error', 500));
    signInAs(ROLES.schoolAdmin);
    const user = userEvent.setup();
    renderApp('/pjedu/products');
    expect(await screen.findByText(en.products.loadFailed)).toBeTruthy();
    server.on(`GET ${API.apps}`, () => ok(apps('en')));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Go to Administration (en)' })).toBeTruthy();
  });

  it('asks a visitor to sign in', async () => {
    stopFakeApi();
    server = startVisitorApi();
    renderApp('/pjedu/products');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a product' })).toBeTruthy();
    expect(screen.getByText('Please log in to see this page.')).toBeTruthy();
    expect(server.to(API.apps)).toHaveLength(0);
  });
});
