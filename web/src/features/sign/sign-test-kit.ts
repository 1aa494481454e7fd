import { API } from '@aiedu/contracts';
import { vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { closeLoginDialog } from '../../app/sign-dialogs';
import { clearSession } from '../../app/session';
import { createFakeServer, ok, type FakeServer } from '../../test/fake-api';

/** What the sign-in pages' tests share: the answers of a fake API, and a browser that starts new for each test. */

export const LOGIN = { id: 'u-1', roles: ['ROLE_STUDENT'], token: 'access-1', refreshToken: 'refresh-1' };
export const USER = { id: 'u-1', username: 'student01', nickname: 'Ada', realName: '', avatarUrl: null };
export const PUZZLE = {
  captchaId: 'cap-1',
  displayData: {
    baseImg: 'data:image/png;base64,AA==',
    jigsawImg: 'data:image/png;base64,AA==',
    y: 10,
    width: 348,
    height: 160,
    pieceSize: 60,
  },
};

/** The JSON body of the `index`th request to `path`. */
export function requestBody(server: FakeServer, path: string, index = 0): Record<string, unknown> {
  return JSON.parse(server.to(path)[index]?.body ?? '{}') as Record<string, unknown>;
}

/** For `beforeEach`: a browser as new (no session, customer code or product choice) and a fake API behind fetch. */
export async function startSignPages(): Promise<FakeServer> {
  clearSession();
  // The customer code of the last sign-in is remembered on purpose; every test starts from a new browser.
  document.cookie = 'custcode=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  sessionStorage.clear();
  // Product choices outlive a sign-out on purpose too.
  localStorage.clear();
  await changeLanguage('en', { remember: false });
  const server = createFakeServer();
  server.on(`GET ${API.sysSetting}`, () => ok({ isCustomerSingle: false, isVerifyCode: false, custcode: null }));
  server.on(`GET ${API.userInfo}`, () => ok(USER));
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  server.on(`GET ${API.authVerifyCodeEnabled}`, () => ok(false));
  server.on(`POST ${API.authLogin}`, () => ok({ ...LOGIN, mustChangePassword: false, isSuper: false }));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
  return server;
}

/** For `afterEach`. */
export function endSignPages() {
  vi.restoreAllMocks();
  closeLoginDialog();
  clearSession();
}
