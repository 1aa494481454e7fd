import type { Response } from '@playwright/test';
import sharp from 'sharp';
import { clientAddress, DEMO, SHORT_TOKEN_URL } from './support/api';
import { expect, test, text, texts } from './support/fixtures';
import { signInThroughApi } from './support/sign-in';

const profile = texts('en', 'profile');

// The second server keeps its files in an S3 bucket that serves downloads itself, reached by browsers at
// localhost while the server uses 127.0.0.1 (playwright.config.ts, support/start-server.mjs).
test.use({ locale: 'en-US', baseURL: SHORT_TOKEN_URL });
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

test('a new avatar comes from the bucket itself and shows under the page’s security policy', async ({ page }) => {
  const fromBucket: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).hostname === 'localhost') fromBucket.push(response);
  });
  // An account no other journey on this server uses: its new avatar shows on every page it opens.
  await signInThroughApi(page, DEMO.teacher);
  await page.goto('/pjedu/userprofile?slideKey=avatar');

  const picture = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#2f9e6e' } })
    .png()
    .toBuffer();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: text(profile, 'avatar.choose') }).click();
  await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
  await expect(page.getByText(text(profile, 'avatar.saved'))).toBeVisible();

  // Drawn: a picture the policy refused, or one that never arrived, has no width (and the fixture fails on a
  // policy violation in the console).
  const avatar = page.getByRole('img', { name: text(profile, 'avatar.current') });
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);

  // Its bytes came from the bucket, at the end of the product's signed link, which only redirected.
  await expect.poll(() => fromBucket.filter((response) => response.status() === 200).length).toBeGreaterThan(0);
  const delivered = fromBucket.find((response) => response.status() === 200)!;
  expect(delivered.headers()['content-type']).toMatch(/^image\//);
  const link = delivered.request().redirectedFrom();
  expect(new URL(link!.url()).pathname).toBe('/gw/api/v1/files/download');
  expect((await link!.response())!.status()).toBe(302);
});
