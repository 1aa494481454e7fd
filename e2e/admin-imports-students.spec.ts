import ExcelJS from 'exceljs';
import { apiCall, apiLogin, b64, useLogin } from './support/admin-session';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';

const admin = texts('en', 'admin');
const screens = texts('en', 'screens');
const t = (key: string) => text(admin, key);

/** Thirty new students of one class, in the template's English headers. */
async function studentsFile(prefix: string, className: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Students');
  sheet.addRow(['Username', 'Name', 'Class', 'School number', 'Initial password']);
  for (let n = 1; n <= 30; n++) {
    const nn = String(n).padStart(2, '0');
    sheet.addRow([`${prefix}${nn}`, `New Student ${nn}`, className, `2026${nn}`, 'Start@2026']);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test.describe('a customer administrator', () => {
  test.use({ locale: 'en-US' });

  test('imports 30 students from xlsx, upgrades their class, finds both in the log; other schools see none of it', async ({
    page,
    request,
    browser,
  }) => {
    // Three browser contexts and two imports: 1.7–2.0 min with two workers on two cores.
    test.setTimeout(240_000);
    const prefix = `imp${Date.now().toString(36).slice(-5)}`;
    const login = await apiLogin(request, 'demo2026', 'admin', 'Admin@2026');
    await useLogin(page, 'demo2026', login);
    // A class of its own, so that the journey leaves the demo class as it was and can run again on one server.
    const schools = await apiCall<{ list: { id: string; name: string }[] }>(
      request,
      login.token,
      'GET',
      '/api/v1/admin_organize/schools?size=100',
    );
    const home = schools.list.find((s) => s.name === 'Demo Primary School');
    if (!home) throw new Error('the demo school is missing');
    const className = `Grade 4 ${prefix}`;
    const created = await apiCall<{ id: string }>(request, login.token, 'POST', '/gw/admin/api/v1/school/classes', {
      schoolId: home.id,
      eduStage: 'primary',
      grade: 4,
      className,
    });

    // Import: the dry run first, then every row at once.
    await page.goto('/admin/students');
    await expect(page.getByRole('heading', { level: 1, name: text(screens, 'students') })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: t('people.import') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type=file]').setInputFiles({
      name: `students-${prefix}.xlsx`,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await studentsFile(prefix, className),
    });
    // With more than one school (a run before this one made a second), the dialog asks which.
    if (schools.list.length > 1) {
      await dialog.getByRole('combobox', { name: t('people.school') }).click();
      await clickWhenStill(page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${home.name}"]`));
    }
    await dialog.getByRole('button', { name: t('import.check') }).click();
    await expect(dialog.getByText('All 30 rows are ready to import.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Import 30 rows' }).click();
    await expect(page.getByText('Imported 30 people')).toBeVisible();
    await expect(dialog).toBeHidden();
    await page.getByRole('searchbox', { name: t('people.search') }).fill(prefix);
    await page.getByRole('searchbox', { name: t('people.search') }).press('Enter');
    await expect(page.getByRole('cell', { name: `${prefix}01`, exact: true })).toBeVisible();
    await expect(page.getByText('30 in total')).toBeVisible();

    // Upgrade the class the students went into, after the confirmation.
    await page.getByRole('link', { name: text(screens, 'classes'), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: text(screens, 'classes') })).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(className) });
    await expect(row).toContainText('30');
    await expectAccessible(page);
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: /Upgrade selected \(1\)/ }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(t('classes.upgradeBody'));
    await clickWhenStill(confirm.getByRole('button', { name: t('classes.upgrade'), exact: true }));
    await expect(
      page.getByRole('row', { name: new RegExp(className) }).getByRole('cell', { name: '5', exact: true }),
    ).toBeVisible();

    // Both changes are in the operation log.
    await page.getByRole('link', { name: text(screens, 'logs'), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: text(screens, 'logs') })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(`Student.*Import.*students-${prefix}`) })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(`Class.*Upgrade.*${created.id}`) })).toBeVisible();
    await expectAccessible(page);

    // A second school of the same customer, with its own administrator: sees none of them.
    const school = await apiCall<{ id: string }>(request, login.token, 'POST', '/api/v1/admin_organize/schools', {
      name: `Second School ${prefix}`,
      eduStages: ['primary'],
    });
    await apiCall(request, login.token, 'POST', '/api/v1/user', {
      username: `${prefix}sa`,
      realName: 'Second Admin',
      role: 'ROLE_SCHOOLADMIN',
      schoolId: school.id,
      password: b64('Start@2026'),
    });
    const sibling = await apiLogin(request, 'demo2026', `${prefix}sa`, 'Start@2026');
    const changed = await apiCall<{ token: string; refreshToken: string }>(
      request,
      sibling.token,
      'PUT',
      '/gw/api/v1/auth/pwd/default',
      { newPasswd: b64('Second#School2026') },
    );
    const others = [
      { custcode: 'demo2026', login: { ...sibling, ...changed } },
      { custcode: 'other2026', login: await apiLogin(request, 'other2026', 'school1', 'School@2026') },
    ];
    for (const other of others) {
      const context = await browser.newContext({ locale: 'en-US' });
      const otherPage = await context.newPage();
      await useLogin(otherPage, other.custcode, other.login);
      await otherPage.goto('/admin/students');
      await otherPage.getByRole('searchbox', { name: t('people.search') }).fill(prefix);
      await otherPage.getByRole('searchbox', { name: t('people.search') }).press('Enter');
      await expect(otherPage.locator('.ant-empty-description')).toBeVisible();
      await expect(otherPage.getByRole('cell', { name: `${prefix}01`, exact: true })).toHaveCount(0);
      await otherPage.goto('/admin/logs');
      await expect(otherPage.getByRole('heading', { level: 1, name: text(screens, 'logs') })).toBeVisible();
      await expect(otherPage.getByRole('row', { name: /Student.*Import/ })).toHaveCount(0);
      await context.close();
    }
  });
});
