import { startOidcProvider, type LocalOidcProvider } from '../server/src/test/oidc-provider';
import { apiSignIn, call, clientAddress, DEMO, SHORT_TOKEN_URL } from './support/api';
import { expect, test, text, texts } from './support/fixtures';

const sign = texts('en', 'sign');
const common = texts('en', 'common');
const accountMenu = { name: text(common, 'header.accountMenu') };

test.use({ locale: 'en-US' });
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

test.describe('an expired access token', () => {
  test.use({ baseURL: SHORT_TOKEN_URL });

  test('three requests that fail together trigger one refresh, and all three then succeed', async ({
    page,
    request,
  }) => {
    await page.goto('/portal/sign/login');
    await page.getByLabel(text(sign, 'fields.customerCode')).fill(DEMO.student.custcode);
    await page.getByLabel(text(sign, 'fields.username')).fill(DEMO.student.username);
    await page.getByRole('textbox', { name: text(sign, 'fields.password'), exact: true }).fill(DEMO.student.password);
    await page.getByRole('button', { name: text(sign, 'submit.login') }).click();
    await expect(page.getByRole('button', accountMenu)).toBeVisible();

    // Wait until the access token this browser holds has really expired.
    const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
    await expect
      .poll(async () => {
        const response = await request.get('/gw/api/v1/user/userInfo', { headers: { 'x-authorization': token } });
        return ((await response.json()) as { errorCode: string }).errorCode;
      })
      .toBe('1107');

    const refreshes: string[] = [];
    const answers = new Map<string, string[]>();
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/gw/api/v1/auth/token') refreshes.push(r.url());
    });
    page.on('response', async (r) => {
      const path = new URL(r.url()).pathname;
      if (!r.request().method() || !path.startsWith('/gw/api/v1/') || path === '/gw/api/v1/auth/token') return;
      const body = (await r.json().catch(() => null)) as { errorCode?: string } | null;
      answers.set(path, [...(answers.get(path) ?? []), body?.errorCode ?? String(r.status())]);
    });
    // The certification section loads the profile, the points and the certification at once.
    await page.goto('/pjedu/userprofile?slideKey=certification');
    await expect(
      page.getByRole('button', { name: text(texts('en', 'profile'), 'certification.submit') }),
    ).toBeVisible();
    const paths = ['/gw/api/v1/user/userInfo', '/gw/api/v1/integral/total', '/gw/api/v1/user/teacher'];
    await expect.poll(() => paths.map((p) => answers.get(p)?.at(-1))).toEqual(['1000', '1000', '1000']);
    // The first call refused with the expired token starts the one refresh; the others either failed and were
    // replayed or waited for it (which one comes first depends on timing).
    expect(refreshes).toHaveLength(1);
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
