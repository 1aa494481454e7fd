import { API, ROLE_API } from '@aiedu/contracts';
import axe from 'axe-core';
import { vi } from 'vitest';
import { changeLanguage } from '../app/i18n';
import { clearSession, saveLogin } from '../app/session';
import { createFakeServer, ok, type FakeServer } from './fake-api';

// Test kit of signed-in pages (administration, courses): a user in English against a fake server behind fetch.

/** axe-core's violations on the page, one line each (empty when the page is clean). */
export async function axeViolations(): Promise<string[]> {
  const result = await axe.run(document.body, { resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

export function signInAs(role: string, custcode = 'demo2026') {
  saveLogin({ token: 't', refreshToken: 'r', userId: 'u-1', roles: [role], custcode });
}

/** A fake server behind `window.fetch` answering the calls every signed-in page makes; add the screen's own. */
export async function startFakeApi(): Promise<FakeServer> {
  clearSession();
  await changeLanguage('en', { remember: false });
  const server = createFakeServer();
  server.on(`GET ${API.userInfo}`, () =>
    ok({ id: 'u-1', username: 'admin', nickname: '', realName: 'Admin', avatarUrl: null }),
  );
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  server.on(`GET ${ROLE_API.mine}`, () => ok({ customRole: null }));
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
  return server;
}

/**
 * A fake server behind `window.fetch` answering what every page asks a visitor's browser (the platform settings),
 * so no request of a test leaves it; calls a test does not answer fail as without a network.
 */
export function startVisitorApi(): FakeServer {
  const server = createFakeServer();
  server.on(`GET ${API.sysSetting}`, () =>
    ok({ isCustomerSingle: false, isVerifyCode: false, platformName: null, logoUrl: null }),
  );
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
  return server;
}

export function stopFakeApi() {
  vi.restoreAllMocks();
  clearSession();
}

/** The JSON body of the last change (not a read) sent to `path`. */
export function lastChange(server: FakeServer, path: string): unknown {
  return JSON.parse(server.to(path).findLast((r) => r.method !== 'GET')?.body ?? 'null');
}
