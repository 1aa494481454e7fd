import { randomBytes } from 'node:crypto';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';
import { named, newPage } from './support/pages';
import { signInThroughApi } from './support/sign-in';

/** The start of an MP4 file (its `ftyp` box): resources are typed by their content, not their name. */
const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

const TEACHER = { custcode: 'demo2026', username: 'teacher1', password: 'Teacher@2026' };

const LANGUAGES = [
  { code: 'en', browser: 'en-US', student: 'student01' },
  { code: 'zh_CHS', browser: 'zh-CN', student: 'student02' },
] as const;

for (const language of LANGUAGES) {
  test.describe(`course journey in ${language.code}`, () => {
    test.use({ locale: language.browser });

    test('a certified teacher builds and publishes a course; a student joins by code, passes the quiz, and keeps version 1 during a revision', async ({
      page,
      browser,
    }) => {
      test.setTimeout(180_000);
      const t = texts(language.code, 'course');
      const say = (key: string) => text(t, key);
      const courseName = `${language.code === 'en' ? 'Robots' : '机器人'} ${Date.now() % 100000}`;

      // The teacher creates the course.
      await signInThroughApi(page, TEACHER);
      await page.goto('/pjedu/courses/new/edit');
      await expect(page.getByRole('heading', { level: 1, name: say('editor.newTitle') })).toBeVisible();
      await page.getByLabel(say('editor.name')).fill(courseName);
      // Its category (spec 5): the first direction and the first stage the demo data offers.
      for (const field of ['centre.direction', 'centre.stage']) {
        await page.getByRole('combobox', { name: say(field) }).click();
        await clickWhenStill(page.locator('.ant-select-dropdown:visible .ant-select-item-option').first());
      }
      await page.getByRole('button', { name: named(say('editor.create')) }).click();
      await expect(page.getByRole('heading', { level: 1, name: courseName })).toBeVisible();

      // Two chapters, a section in each.
      const addChapter = async (title: string) => {
        await page.getByLabel(say('editor.chapterTitle')).fill(title);
        await page.getByRole('button', { name: named(say('editor.addChapter')) }).click();
        await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
      };
      const addSection = async (chapterIndex: number, title: string) => {
        await page.getByLabel(say('editor.sectionTitle')).nth(chapterIndex).fill(title);
        await page
          .getByRole('button', { name: named(say('editor.addSection')) })
          .nth(chapterIndex)
          .click();
        await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
      };
      await addChapter('Chapter 1');
      await addSection(0, 'Welcome');
      await addChapter('Chapter 2');
      await addSection(1, 'Quiz time');

      // A video resource in the first section, uploaded over tus.
      await page.getByRole('button', { name: 'Welcome', exact: true }).click();
      const welcome = page.getByRole('article', { name: 'Welcome' });
      await welcome
        .getByRole('textbox', { name: say('editor.sectionContent') })
        .fill('# Hello robots\n\nWatch the video, then take the quiz.');
      await welcome.getByRole('button', { name: named(say('editor.save')) }).click();
      // The toast itself: the actions row reads "SaveDelete", which a loose match takes for "Saved".
      await expect(page.locator('.ant-message-notice').getByText(say('editor.saved'), { exact: true })).toBeVisible();
      await page.locator('.course-upload input[type=file]').setInputFiles({
        name: 'lesson.mp4',
        mimeType: 'video/mp4',
        buffer: Buffer.concat([MP4_HEAD, randomBytes(300_000)]),
      });
      await expect(page.locator('.course-editor__list').first().getByText('lesson.mp4')).toBeVisible();

      // A quiz in the second section.
      await page.getByRole('button', { name: 'Quiz time', exact: true }).click();
      // The editor switches sections with the address: typing goes to the second section's editor once it is there.
      const quiz = page.getByRole('article', { name: 'Quiz time' });
      await quiz.getByLabel(say('editor.questionPrompt'), { exact: true }).fill('2 + 2 = ?');
      await quiz.getByLabel(say('editor.options')).fill('3\n4\n5');
      await quiz.getByRole('combobox', { name: say('editor.rightOptions') }).click();
      await clickWhenStill(page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="4"]'));
      await expect(
        quiz
          .getByRole('combobox', { name: say('editor.rightOptions') })
          .locator('..')
          .locator('..'),
      ).toContainText('4');
      const taskTitle = quiz.getByLabel(say('editor.taskTitle'));
      await taskTitle.fill('Quick check');
      await expect(taskTitle).toHaveValue('Quick check');
      await quiz.getByRole('button', { name: named(say('editor.saveTask')) }).click();
      await expect(quiz.locator('.course-editor__list').getByText('Quick check')).toBeVisible();
      await expect(page.locator('.ant-message-notice')).toHaveCount(0);
      await expectAccessible(page);

      // Publish.
      await page.getByRole('button', { name: named(say('editor.publish')) }).click();
      await clickWhenStill(page.getByRole('dialog').getByRole('button', { name: named(say('editor.confirm')) }));
      await expect(page.getByText(say('status.published'), { exact: true })).toBeVisible();
      const codeLine = await page.locator('.course-editor__code').innerText();
      const code = codeLine.match(/[23456789A-HJKMNP-Z]{6}$/)?.[0];
      expect(code).toBeTruthy();

      // A student joins by the code from the course centre.
      const student = await newPage(browser, language.browser);
      await signInThroughApi(student, { custcode: 'demo2026', username: language.student, password: 'Student@2026' });
      await student.goto('/pjedu/course');
      await expect(student.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(student);
      await student.getByLabel(say('join.label')).fill(code!);
      await student.getByRole('button', { name: named(say('join.submit')) }).click();
      await expect(student.getByRole('heading', { level: 1, name: courseName })).toBeVisible();

      // The video plays in place; the quiz is graded on submit.
      await student.getByRole('button', { name: 'Welcome' }).click();
      await expect(student.getByRole('heading', { level: 3, name: 'Hello robots' })).toBeVisible();
      await expect(student.locator('video')).toHaveAttribute('src', /\/gw\/api\/v1\/files\/download/);
      // axe reads a toast mid-animation as low contrast: check the page once the "joined" message is gone.
      await expect(student.locator('.ant-message-notice')).toHaveCount(0);
      await expectAccessible(student);
      await student.getByRole('button', { name: named(say('detail.next')) }).click();
      await expect(student.getByRole('heading', { level: 2, name: 'Quiz time' })).toBeVisible();
      await student.getByRole('radio', { name: '4' }).check({ force: true });
      await student.getByRole('button', { name: named(say('quiz.submit')) }).click();
      await expect(student.getByText(say('quiz.score').replace('{{score}}', '100'))).toBeVisible();

      // The teacher sees the class's results.
      await page.reload();
      const results = page.getByRole('region', { name: say('results.title') });
      await expect(results.getByRole('cell', { name: '100', exact: true })).toBeVisible();

      // The teacher starts a revision and renames a section; the student still learns version 1.
      await page.getByRole('button', { name: named(say('editor.revise')) }).click();
      await expect(page.getByText(say('status.modifying'), { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Welcome', exact: true }).click();
      const sectionEditor = page.getByRole('article', { name: 'Welcome' });
      await sectionEditor.getByLabel(say('editor.sectionTitle'), { exact: true }).fill('Welcome, version 2');
      await sectionEditor.getByRole('button', { name: named(say('editor.save')) }).click();
      await expect(page.getByRole('button', { name: 'Welcome, version 2', exact: true })).toBeVisible();

      await student.reload();
      await expect(student.getByRole('heading', { level: 1, name: courseName })).toBeVisible();
      await expect(student.getByText(say('detail.version').replace('{{version}}', '1'))).toBeVisible();
      await expect(student.getByRole('button', { name: 'Welcome', exact: true })).toBeVisible();
      await expect(student.getByRole('button', { name: 'Welcome, version 2' })).toHaveCount(0);
      await student.context().close();
    });
  });
}
