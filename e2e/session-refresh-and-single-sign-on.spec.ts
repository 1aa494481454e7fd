import type { Route } from '@playwright/test';
import { startOidcProvider, type LocalOidcProvider } from '../server/src/test/oidc-provider';
import { apiSignIn, call, clientAddress, DEMO, SHORT_TOKEN_URL } from './support/api';
import { expect, test, text, texts } from './support/fixtures';
import { signInThroughApi } from './support/sign-in';

const sign = texts('en', 'sign');
const common = texts('en', 'common');
const accountMenu = { name: text(common, 'header.accountMenu') };

test.use({ locale: 'en-US' });
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

test.describe('an expired access token', () => {
  test.use({ baseURL: SHORT_TOKEN_URL });

  test('calls refused with an expired token share one refresh, no refresh token is sent twice, and all succeed', async ({
    page,
    request,
  }) => {
    await page.goto('/portal/sign/login');
    await page.getByLabel(text(sign, 'fields.customerCode')).fill(DEMO.student.custcode);
    await page.getByLabel(text(sign, 'fields.username')).fill(DEMO.student.username);
    await page.getByRole('textbox', { name: text(sign, 'fields.password'), exact: true }).fill(DEMO.student.password);
    await page.getByRole('button', { name: text(sign, 'submit.login') }).click();
    await expect(page.getByRole('button', accountMenu)).toBeVisible();
    // A page of the same origin that runs none of the app: nothing renews the session while its token expires.
    await page.goto('/readyz');
    const cookie = async (name: string) => (await page.context().cookies()).find((c) => c.name === name)?.value ?? '';
    const token = await cookie('token');
    await expect
      .poll(async () => {
        const response = await request.get('/gw/api/v1/user/userInfo', { headers: { 'x-authorization': token } });
        return ((await response.json()) as { errorCode: string }).errorCode;
      })
      .toBe('1107');
    const refreshToken = await cookie('refreshToken');

    // Each refresh with the refresh token it presented, each call's answers in order.
    const presented: string[] = [];
    const answers = new Map<string, string[]>();
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/gw/api/v1/auth/token') presented.push(r.headers()['x-authorization'] ?? '');
    });
    page.on('response', async (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith('/gw/api/v1/') || path === '/gw/api/v1/auth/token') return;
      const body = (await r.json().catch(() => null)) as { errorCode?: string } | null;
      answers.set(path, [...(answers.get(path) ?? []), body?.errorCode ?? String(r.status())]);
    });
    // The certification section loads the modules, the profile, the points and the certification.
    await page.goto('/pjedu/userprofile?slideKey=certification');
    await expect(
      page.getByRole('button', { name: text(texts('en', 'profile'), 'certification.submit') }),
    ).toBeVisible();
    const paths = ['/gw/api/v1/user/userInfo', '/gw/api/v1/integral/total', '/gw/api/v1/user/teacher'];
    await expect.poll(() => paths.map((p) => answers.get(p)?.at(-1))).toEqual(['1000', '1000', '1000']);

    // The first refresh used the token the sign-in stored. A refresh per refused call would have presented it
    // again, and a spent refresh token revokes the whole sign-in (E002); a 2-second token may expire again on a
    // slow machine, and then the next refresh presents the token the last one returned.
    expect(presented[0]).toBe(refreshToken);
    expect(new Set(presented).size).toBe(presented.length);
    expect([...answers.values()].flat()).toContain('1107');
    // Every call refused with the expired token is answered once it is sent again; some of them are still on their
    // way when the three above have arrived.
    const stillRefused = () =>
      [...answers].filter(([, list]) => list.includes('1107') && list.at(-1) !== '1000').map(([path]) => path);
    await expect.poll(stillRefused).toEqual([]);
    expect([...answers.values()].flat()).not.toContain('E002');
  });

  test('a page left while its refresh is on the way: the next page holds the new tokens and stays signed in', async ({
    page,
    request,
  }) => {
    const first = await signInThroughApi(page, DEMO.student);
    await expect
      .poll(async () => {
        const response = await request.get('/gw/api/v1/user/userInfo', { headers: { 'x-authorization': first.token } });
        return ((await response.json()) as { errorCode: string }).errorCode;
      })
      .toBe('1107');

    // The refresh the profile page starts is held back until the browser has left that page.
    const held: Route[] = [];
    await page.context().route('**/gw/api/v1/auth/token', (route) => {
      held.push(route);
    });
    await page.goto('/pjedu/userprofile');
    await expect.poll(() => held.length).toBe(1);
    await page.goto('/readyz');
    await held[0]!.continue();
    await page.context().unroute('**/gw/api/v1/auth/token');

    // The server rotated the token; its answer reached the cookies although no page was left to read it.
    const refreshCookie = async () => (await page.context().cookies()).find((c) => c.name === 'refreshToken')?.value;
    await expect.poll(refreshCookie).not.toBe(first.refreshToken);
    const answers: string[] = [];
    page.on('response', async (r) => {
      if (new URL(r.url()).pathname !== '/gw/api/v1/user/userInfo') return;
      answers.push(
        ((await r.json().catch(() => null)) as { errorCode?: string } | null)?.errorCode ?? String(r.status()),
      );
    });
    await page.goto('/pjedu/userprofile');
    await expect(page.getByRole('button', accountMenu)).toBeVisible();
    await expect.poll(() => answers.at(-1)).toBe('1000');
    // The spent token was never sent again: that would have revoked the whole sign-in (E002).
    expect(answers).not.toContain('E002');
  });
});

test.describe('single sign-on', () => {
  let idp: LocalOidcProvider;
  let type: string;

  test.beforeAll(async ({ request, baseURL }) => {
    // A type of its own each time, so the journey can run again against the same server.
    type = `school-idp-${Date.now().toString(36)}`;
    idp = await startOidcProvider({
      clientId: 'aiedu-e2e',
      clientSecret: 'aiedu-e2e-secret',
      redirectUri: `${baseURL}/user/sign/login/${type}`,
    });
    const { token } = await apiSignIn(request, DEMO.admin);
    await call(request, token, 'POST', '/gw/api/v1/sys/sso/providers', {
      type,
      name: 'School accounts',
      issuer: idp.issuer,
      clientId: 'aiedu-e2e',
      clientSecret: 'aiedu-e2e-secret',
    });
  });
  test.afterAll(async () => {
    await idp.close();
  });

  test("a teacher signs in at the school's identity provider and comes back signed in", async ({ page }) => {
    await page.goto(`/portal/sign/thirdparty?type=${type}&r=demo2026&targetUrl=%2Fpjedu%2Fuserprofile`);
    // The provider's own sign-in and consent pages.
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.locator('input[name=login]').fill('wangfang');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.locator('button[type=submit]').click();

    await expect(page.getByRole('heading', { name: text(sign, 'thirdParty.done') })).toBeVisible();
    await expect(page).toHaveURL(/\/iaif/);
    await expect(page).toHaveURL(/\/pjedu\/userprofile$/);
    await expect(page.getByRole('button', accountMenu)).toContainText('Teacher wangfang');
  });
});
