import type { Browser, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';
import { signInThroughApi } from './support/sign-in';

const design = texts('en', 'certDesign');
const cert = texts('en', 'certificate');
const fill = (source: Record<string, unknown>, key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text(source, key));

async function signedIn(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  await signInThroughApi(page, { custcode: 'demo2026', username, password });
  return page;
}

/** The list template the issuing screen offers, downloaded and filled in with three usernames. */
async function filledList(page: Page, usernames: string[]): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: text(cert, 'picker.template') }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readAll(await download.createReadStream())) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  // Row 1 holds the headers in the administrator's language; the sample row below them is replaced.
  sheet.spliceRows(2, sheet.rowCount - 1);
  usernames.forEach((username, i) => (sheet.getRow(i + 2).values = [username, '']));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

test('an administrator designs a certificate, issues it to three students; a student downloads it and a visitor verifies it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await signedIn(browser, 'admin', 'Admin@2026');
  const templateName = `Robotics award ${Date.now().toString(36)}`;

  // The administrator designs a template: its name, number rule, and the name moved on the page.
  await admin.goto('/admin/certificates/new');
  await admin.getByLabel(text(design, 'field.name'), { exact: true }).fill(templateName);
  await admin.getByLabel(text(design, 'field.prefix')).fill('ROB');
  await expect(admin.getByText(/Next number: ROB\d{12}$/)).toBeVisible();
  const namePart = admin.getByRole('button', { name: new RegExp(`^${text(design, 'part.name')} — x \\d+, y \\d+$`) });
  const before = (await namePart.getAttribute('aria-label'))!;
  await namePart.focus();
  for (let i = 0; i < 3; i++) await admin.keyboard.press('Shift+ArrowDown');
  const after = (await namePart.getAttribute('aria-label'))!;
  expect(Number(/y (\d+)/.exec(after)![1]) - Number(/y (\d+)/.exec(before)![1])).toBe(30);
  // The live preview is the server's PDF drawn by pdf.js.
  const preview = admin.getByRole('img', { name: text(design, 'preview.label') });
  await expect(preview).toBeVisible();
  await expect(preview).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
  await expectAccessible(admin);
  await admin.getByRole('button', { name: text(design, 'designer.save') }).click();
  await expect(admin.getByText(text(design, 'designer.saved'))).toBeVisible();
  await expect(admin.getByRole('link', { name: templateName })).toBeVisible();
  await expectAccessible(admin);

  // It issues the template to three students picked from an xlsx list.
  await admin.goto('/admin/certificates/issuance');
  await admin.getByRole('tab', { name: text(cert, 'tabs.new') }).click();
  await admin.getByRole('combobox', { name: text(cert, 'fields.template') }).click();
  await clickWhenStill(admin.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${templateName}"]`));
  await admin.getByLabel(text(cert, 'fields.awardFor')).fill('the Robotics Workshop 2026');
  await admin.getByRole('tab', { name: text(cert, 'sources.list') }).click();
  const list = await filledList(admin, ['student01', 'student02', 'student03']);
  await admin.locator('input[type=file]').setInputFiles({
    name: 'students.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: list,
  });
  await expect(admin.getByText(fill(cert, 'picker.dryRun', { valid: 3, invalid: 0 }))).toBeVisible();
  await admin.getByRole('button', { name: fill(cert, 'picker.addValid', { count: 3 }) }).click();
  await expect(admin.getByText(fill(cert, 'picker.selected', { count: 3 }))).toBeVisible();
  await expectAccessible(admin);
  await admin.getByRole('button', { name: text(cert, 'form.submit') }).click();
  await expect(admin.getByText(fill(cert, 'form.issued', { count: 3 }))).toBeVisible();

  // The issued certificates carry numbers of the rule.
  await admin.getByRole('tab', { name: text(cert, 'tabs.issued') }).click();
  await admin.getByPlaceholder(text(cert, 'filters.holder')).fill('student01');
  await admin.getByPlaceholder(text(cert, 'filters.holder')).press('Enter');
  // The search is done once one row of this template is left (all three show until the filtered page arrives).
  const row = admin.getByRole('row').filter({ hasText: templateName });
  await expect(row).toHaveCount(1);
  const number = /ROB\d{12}/.exec((await row.textContent())!)![0];
  await expectAccessible(admin);

  // The student finds it in My certificates and downloads the PDF.
  const student = await signedIn(browser, 'student01', 'Student@2026');
  await student.goto('/admin/my-certificates');
  await expect(student.getByText(number)).toBeVisible();
  await expectAccessible(student);
  const card = student.locator('li', { hasText: number });
  const [pdf] = await Promise.all([
    student.waitForEvent('download'),
    card.getByRole('button', { name: text(cert, 'mine.downloadPdf') }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`${number}.pdf`);
  expect((await readAll(await pdf.createReadStream())).subarray(0, 5).toString()).toBe('%PDF-');
  // Its card shows the picture the server draws from the PDF (twice the card's width), and saves it as a PNG.
  const picture = card.locator('img.cert-card__picture');
  await expect(picture).toBeVisible();
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 30_000 })
    .toBe(520);
  const [png] = await Promise.all([
    student.waitForEvent('download'),
    card.getByRole('button', { name: text(cert, 'mine.downloadPng') }).click(),
  ]);
  expect(png.suggestedFilename()).toBe(`${number}.png`);
  expect((await readAll(await png.createReadStream())).subarray(1, 4).toString()).toBe('PNG');

  // A visitor, signed in nowhere, verifies it by its number, then by the QR code's link.
  const visitor = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await visitor.goto('/pjedu/certificate-search');
  await visitor.getByRole('button', { name: text(cert, 'search.submit') }).click();
  await expect(visitor.getByText('Enter a certificate number to search')).toBeVisible();
  await visitor.getByPlaceholder(text(cert, 'search.placeholder')).fill(number);
  await visitor.getByRole('button', { name: text(cert, 'search.submit') }).click();
  await expect(visitor.getByText(text(cert, 'search.valid'))).toBeVisible();
  await expect(visitor.getByText('the Robotics Workshop 2026')).toBeVisible();
  await expectAccessible(visitor);
  await visitor.goto(`/pjedu/certificate-search?number=${number}`);
  await expect(visitor.getByText(text(cert, 'search.valid'))).toBeVisible();
  await visitor.goto('/pjedu/certificate-search?number=ROB000000000000');
  await expect(visitor.getByText('Certificate not found')).toBeVisible();
  await expectAccessible(visitor);
});
