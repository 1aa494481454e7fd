import type { Page } from '@playwright/test';
import { apiSignIn, b64, call, clientAddress, DEMO, latestCode, uniquePhone } from './support/api';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';

const sign = texts('en', 'sign');
const common = texts('en', 'common');
const s = (key: string) => text(sign, key);

test.use({ locale: 'en-US' });
// Every journey comes from its own address: failed sign-ins of one never put another behind the puzzle.
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

async function openLoginDialog(page: Page) {
  await page.goto('/home');
  await page.getByRole('button', { name: text(common, 'header.login') }).click();
  const dialog = page.getByRole('dialog', { name: s('dialog.login') });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fillPasswordLogin(page: Page, custcode: string, username: string, password: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(s('fields.customerCode')).fill(custcode);
  await dialog.getByLabel(s('fields.username')).fill(username);
  await dialog.getByRole('textbox', { name: s('fields.password'), exact: true }).fill(password);
  await dialog.getByRole('button', { name: s('submit.login') }).click();
}

const accountMenu = (page: Page) => page.getByRole('button', { name: text(common, 'header.accountMenu') });

/**
 * Finds where the piece fits as a person does, by its outline: of the outlines in the piece's row (the hole and its
 * decoys, each filled flat), the hole is the one whose white rim runs all along the piece's edge, where a decoy
 * has a side grown and is dark. Scored by the darkest few of the base's pixels under the piece's edge, less the
 * base's brightness inside it.
 */
async function solvePuzzle(page: Page): Promise<number> {
  await expect(page.getByTestId('captcha-piece')).toBeVisible();
  return page.evaluate(() => {
    const [base, piece] = Array.from(document.querySelectorAll<HTMLImageElement>('.slider-captcha__picture img'));
    const pixels = (img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no canvas');
      context.drawImage(img, 0, 0);
      return context.getImageData(0, 0, canvas.width, canvas.height);
    };
    if (!base || !piece) throw new Error('no puzzle');
    const b = pixels(base);
    const p = pixels(piece);
    const top = parseInt(piece.style.top, 10);
    const brightness = (k: number) =>
      0.299 * (b.data[k] ?? 0) + 0.587 * (b.data[k + 1] ?? 0) + 0.114 * (b.data[k + 2] ?? 0);
    const opaque = (i: number, j: number) =>
      i >= 0 && j >= 0 && i < p.width && j < p.height && (p.data[(j * p.width + i) * 4 + 3] ?? 0) >= 128;
    const nearEdge = (i: number, j: number, d: number) =>
      !opaque(i + d, j) || !opaque(i - d, j) || !opaque(i, j + d) || !opaque(i, j - d);
    const edge: [number, number][] = [];
    const inside: [number, number][] = [];
    for (let j = 0; j < p.height; j += 1) {
      for (let i = 0; i < p.width; i += 1) {
        if (!opaque(i, j)) continue;
        if (nearEdge(i, j, 1)) edge.push([i, j]);
        else if (!nearEdge(i, j, 2) && !nearEdge(i, j, 3)) inside.push([i, j]);
      }
    }
    let best = 0;
    let bestScore = -Infinity;
    for (let x = 0; x + p.width <= b.width; x += 1) {
      const at = ([i, j]: [number, number]) => brightness(((top + j) * b.width + x + i) * 4);
      const rim = edge.map(at).sort((u, v) => u - v);
      const darkest = rim[Math.floor(rim.length * 0.05)] ?? 0;
      const score = darkest - inside.reduce((sum, point) => sum + at(point), 0) / inside.length;
      if (score > bestScore) {
        bestScore = score;
        best = x;
      }
    }
    return best;
  });
}

/**
 * Drags the handle with the mouse as a hand does: it holds the handle a moment, then moves fast in the middle and
 * slowly at both ends, with a slight wobble. The server refuses a drag at constant speed or under 100 ms.
 */
async function dragSlider(page: Page, distance: number) {
  const handle = page.getByRole('slider', { name: s('captcha.slider') });
  const box = await handle.boundingBox();
  if (!box) throw new Error('slider not visible');
  const y = box.y + box.height / 2;
  const start = box.x + box.width / 2;
  await page.mouse.move(start, y);
  await page.mouse.down();
  // The hand's own pace, not a wait for the page: the drag is judged by its timing.
  await page.waitForTimeout(150);
  const steps = 20;
  for (let step = 1; step < steps; step += 1) {
    const eased = (1 - Math.cos((Math.PI * step) / steps)) / 2;
    await page.mouse.move(start + distance * eased, y + (step % 3) - 1);
  }
  await page.mouse.move(start + distance, y);
  await page.mouse.up();
}

test.describe('signing in', () => {
  test('a student signs in with the password through the dialog, sees the account menu, and logs out', async ({
    page,
  }) => {
    const dialog = await openLoginDialog(page);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: s('links.signUp') }).click();
    await expect(page.getByRole('dialog', { name: s('dialog.signUp') })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: s('links.backToLogin') }).click();
    await page.getByRole('button', { name: s('links.forgot') }).click();
    await expect(page.getByRole('dialog', { name: s('dialog.reset') })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: s('links.backToLogin') }).click();

    await fillPasswordLogin(page, DEMO.student.custcode, DEMO.student.username, 'Wrong@2026');
    await expect(page.getByRole('dialog').locator('.form-error .ant-alert')).toBeVisible();
    await fillPasswordLogin(page, DEMO.student.custcode, DEMO.student.username, DEMO.student.password);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(accountMenu(page)).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.sameSite).toBe('Strict');

    await accountMenu(page).click();
    await clickWhenStill(page.getByRole('menuitem', { name: text(common, 'header.logout') }));
    await expect(page.getByRole('button', { name: text(common, 'header.login') })).toBeVisible();
  });

  test('three wrong passwords bring the slider puzzle; a real drag of the slider passes it', async ({ page }) => {
    await openLoginDialog(page);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await fillPasswordLogin(page, DEMO.teacher.custcode, DEMO.teacher.username, `Wrong@${attempt}`);
      await expect(page.getByRole('dialog').locator('.form-error .ant-alert')).toBeVisible();
    }
    await fillPasswordLogin(page, DEMO.teacher.custcode, DEMO.teacher.username, DEMO.teacher.password);
    await expect(page.getByRole('heading', { name: s('captcha.title') })).toBeVisible();
    await expectAccessible(page);

    // A slide to the wrong place is refused and a new puzzle comes.
    const first = await page.getByTestId('captcha-piece').getAttribute('src');
    const wrong = await solvePuzzle(page);
    await dragSlider(page, wrong > 140 ? 20 : 260);
    await expect(page.getByTestId('captcha-piece')).not.toHaveAttribute('src', first ?? '');
    await expect(page.getByRole('slider')).toHaveAttribute('aria-valuenow', '0');

    await dragSlider(page, await solvePuzzle(page));
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(accountMenu(page)).toBeVisible();
  });

  test('the super administrator signs in on their own page without a customer code', async ({ page }) => {
    await page.goto('/pjPortal/super/sign/login');
    await expect(page.getByLabel(s('fields.customerCode'))).toHaveCount(0);
    await page.getByLabel(s('fields.username')).fill(DEMO.super.username);
    await page.getByRole('textbox', { name: s('fields.password'), exact: true }).fill(DEMO.super.password);
    await page.getByRole('button', { name: s('submit.login') }).click();
    await expect(page).toHaveURL(/\/super\/customers$/);
    await expect(accountMenu(page)).toBeVisible();
  });
});

test.describe('the product chooser', () => {
  const screens = texts('en', 'screens');
  const signInOnPage = async (page: Page) => {
    await page.goto('/portal/sign/login');
    await page.getByLabel(s('fields.customerCode')).fill(DEMO.admin.custcode);
    await page.getByLabel(s('fields.username')).fill(DEMO.admin.username);
    await page.getByRole('textbox', { name: s('fields.password'), exact: true }).fill(DEMO.admin.password);
    await page.getByRole('button', { name: s('submit.login') }).click();
  };

  test('an administrator picks a product after signing in, lands there next time, and can switch', async ({ page }) => {
    await signInOnPage(page);
    await expect(page).toHaveURL(/\/pjedu\/products$/);
    await expect(page.getByRole('heading', { level: 1, name: text(screens, 'productChooser') })).toBeVisible();
    const administration = page.getByRole('link', { name: 'Go to Institution Administration' });
    await expect(administration).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to AI Learning' })).toBeVisible();
    await expectAccessible(page);
    await administration.click();
    await expect(page).toHaveURL(/\/admin\//);
    const landing = new URL(page.url()).pathname;

    await accountMenu(page).click();
    await clickWhenStill(page.getByRole('menuitem', { name: text(common, 'header.logout') }));
    await expect(page.getByRole('button', { name: text(common, 'header.login') })).toBeVisible();
    // The choice is remembered for this user on this browser: the next sign-in goes straight there.
    await signInOnPage(page);
    await expect(page).toHaveURL(new RegExp(`${landing}$`));

    await accountMenu(page).click();
    await clickWhenStill(page.getByRole('menuitem', { name: text(common, 'header.switchProduct') }));
    await expect(page).toHaveURL(/\/pjedu\/products$/);
    await page.getByRole('link', { name: 'Go to AI Learning' }).click();
    await expect(page).toHaveURL(/\/pjedu\/home$/);
  });
});

test.describe('codes by phone', () => {
  test('a visitor signs up by phone with the code from the outbox and is signed in at once', async ({
    page,
    request,
  }) => {
    const phone = uniquePhone();
    await (await openLoginDialog(page)).getByRole('button', { name: s('links.signUp') }).click();
    const dialog = page.getByRole('dialog', { name: s('dialog.signUp') });
    await dialog.getByLabel(s('fields.phone')).fill(phone);
    await dialog.getByRole('button', { name: s('code.send') }).click();
    await expect(dialog.getByRole('button', { name: /60|59|58/ })).toBeDisabled();
    await dialog.getByLabel(s('fields.code')).fill(await latestCode(request, phone));
    await dialog.getByLabel(s('fields.newPassword')).fill('Learn2026');
    await dialog.getByLabel(s('fields.confirmPassword')).fill('Learn2026');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: s('submit.signUp') }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(accountMenu(page)).toBeVisible();
    // The same phone and password sign in from now on, in the public space.
    await apiSignIn(request, { custcode: '', username: phone, password: 'Learn2026' });
  });

  /** A teacher the school administrator created with a phone number (and a password the teacher must change). */
  async function teacherWithPhone(request: Parameters<typeof latestCode>[0]) {
    const { token } = await apiSignIn(request, DEMO.admin);
    const schools = await call<{ list: Array<{ id: string }> }>(
      request,
      token,
      'GET',
      '/api/v1/admin_organize/schools',
    );
    const phone = uniquePhone();
    const username = `t${phone}`;
    await call(request, token, 'POST', '/gw/admin/api/v1/school/teachers', {
      schoolId: schools.list[0]?.id,
      username,
      realName: 'Phone Teacher',
      phone,
      password: b64('Start2026'),
    });
    return { phone, username };
  }

  test('a teacher resets the password with a phone code, sees "reset password done", then signs in', async ({
    page,
    request,
  }) => {
    const { phone, username } = await teacherWithPhone(request);
    await (await openLoginDialog(page)).getByRole('button', { name: s('links.forgot') }).click();
    const dialog = page.getByRole('dialog', { name: s('dialog.reset') });
    await dialog.getByLabel(s('fields.customerCode')).fill('demo2026');
    await dialog.getByLabel(s('fields.contact')).fill(phone);
    await dialog.getByRole('button', { name: s('code.send') }).click();
    await dialog.getByLabel(s('fields.code')).fill(await latestCode(request, phone));
    await dialog.getByLabel(s('fields.newPassword')).fill('Mine2026x');
    await dialog.getByLabel(s('fields.confirmPassword')).fill('Mine2026x');
    await dialog.getByRole('button', { name: s('submit.reset') }).click();
    await expect(page.getByText(s('reset.doneTitle'))).toBeVisible();
    // Then the page reloads, and the new password works.
    await expect(page.getByText(s('reset.doneTitle'))).toBeHidden({ timeout: 10_000 });
    await apiSignIn(request, { custcode: 'demo2026', username, password: 'Mine2026x' });
  });

  test('a teacher signs in with a phone code and must first replace the password the school set', async ({
    page,
    request,
  }) => {
    const { phone } = await teacherWithPhone(request);
    const dialog = await openLoginDialog(page);
    await dialog.getByRole('tab', { name: s('tabs.code') }).click();
    const panel = dialog.getByRole('tabpanel');
    await panel.getByLabel(s('fields.customerCode')).fill('demo2026');
    await panel.getByLabel(s('fields.phone')).fill(phone);
    await panel.getByRole('button', { name: s('code.send') }).click();
    await panel.getByLabel(s('fields.code')).fill(await latestCode(request, phone));
    await panel.getByRole('button', { name: s('submit.login') }).click();

    const change = page.getByRole('dialog', { name: s('forcedChange.title') });
    await expect(change).toBeVisible();
    await expectAccessible(page);
    await change.getByLabel(s('fields.newPassword')).fill('Own2026pw');
    await change.getByLabel(s('fields.confirmPassword')).fill('Own2026pw');
    await change.getByRole('button', { name: s('forcedChange.submit') }).click();
    await expect(change).toBeHidden();
    await expect(accountMenu(page)).toBeVisible();
  });
});

test.describe('a blocked address', () => {
  test('sees the system notice when the request shield blocks it', async ({ page, request }) => {
    const address = clientAddress();
    await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': address });
    await openLoginDialog(page);
    // The e2e server trips the shield after 20 failed sign-ins per hour from one address.
    for (let i = 0; i < 21; i += 1) {
      await request.post('/gw/api/v1/auth/login', {
        headers: { 'x-forwarded-for': address },
        data: { custcode: 'demo2026', usernameOrEmailOrPhone: `nobody${i}`, password: b64('Nope2026') },
      });
    }
    await fillPasswordLogin(page, 'demo2026', 'student02', 'Student@2026');
    const notice = page.getByRole('dialog', { name: text(common, 'api.notice.title') });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(text(common, 'api.notice.body'));
    await expectAccessible(page);
  });
});
