import type { APIRequestContext, Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { apiCall, apiLogin, b64 } from './support/admin-session';
import { clickWhenStill, expect, expectAccessible, test, text, texts } from './support/fixtures';
import { signInThroughApi } from './support/sign-in';

const ev = texts('en', 'event');
const review = texts('en', 'eventReview');
const cert = texts('en', 'certificate');
const fill = (source: Record<string, unknown>, key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text(source, key));

const HOUR = 3600_000;
const iso = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString();

async function signedIn(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  await signInThroughApi(page, { custcode: 'demo2026', username, password });
  return page;
}

/** A teacher of a second school of the demo customer, with the password changed as a first sign-in asks. */
async function teacherOfAnotherSchool(request: APIRequestContext, token: string, schoolId: string, username: string) {
  await apiCall(request, token, 'POST', '/api/v1/admin_organize/teachers', {
    schoolId,
    username,
    realName: `Judge ${username}`,
    password: b64('Start@2026'),
  });
  const first = await apiLogin(request, 'demo2026', username, 'Start@2026');
  await apiCall(request, first.token, 'PUT', '/gw/api/v1/auth/pwd/default', { newPasswd: b64('Judge#School2026') });
}

const element = (x: number, y: number, width: number, fontSize: number) => ({
  x,
  y,
  width,
  fontSize,
  color: '#222222',
  align: 'center',
  font: 'regular',
  visible: true,
  label: '',
});

test('a team declares and submits a work; organisers audit, two judges score the heats and one the final, results and certificates follow', async ({
  browser,
  request,
}) => {
  test.setTimeout(360_000);
  const suffix = Date.now().toString(36);
  const eventName = `Young AI Makers ${suffix}`;
  const admin = await apiLogin(request, 'demo2026', 'admin', 'Admin@2026');

  // The organiser's event: registration and submission open now; two judges of another school; a template.
  const school = await apiCall<{ id: string }>(request, admin.token, 'POST', '/api/v1/admin_organize/schools', {
    name: `Judges' School ${suffix}`,
    eduStages: ['primary'],
  });
  const judges = [`jA${suffix}`, `jB${suffix}`];
  for (const username of judges) await teacherOfAnotherSchool(request, admin.token, school.id, username);
  const fields = {
    name: eventName,
    coverKey: null,
    description: '## Make something clever\n\nA classifier, a game or a robot: show us.',
    tracks: [{ id: 'creative', name: 'Creative AI', kind: 'judged', dailyRuns: 5, higherIsBetter: true }],
    eligibility: { customerIds: [], stages: [], grades: [] },
    teamMin: 1,
    teamMax: 3,
    mentorMin: 1,
    mentorMax: 2,
    awards: [{ name: 'First prize', count: 1 }],
    tieRule: 'earlierSubmission',
    platformWide: false,
  };
  const event = await apiCall<{ id: string }>(request, admin.token, 'POST', '/api/v1/event', {
    ...fields,
    phases: {
      registrationStart: iso(-1),
      registrationEnd: iso(2),
      submissionStart: iso(-1),
      submissionEnd: iso(2),
      reviewStart: iso(3),
      reviewEnd: iso(4),
      resultsAt: iso(5),
    },
  });
  const template = `Contest award ${suffix}`;
  const design = {
    layout: 'portrait',
    backgroundKey: null,
    sealKey: null,
    title: 'Certificate of Award',
    content: '{name} won {awardFor}.',
    language: 'en',
    elements: {
      title: element(75, 150, 500, 36),
      name: element(75, 320, 500, 28),
      content: element(75, 400, 500, 16),
      number: element(75, 740, 260, 12),
      date: element(355, 740, 220, 12),
      seal: element(425, 560, 150, 12),
      qr: element(75, 600, 100, 12),
    },
  };
  await apiCall(request, admin.token, 'POST', '/api/v1/cert', {
    name: template,
    type: 'activity',
    remark: '',
    numberRule: { prefix: 'AIM', digits: 4 },
    design,
  });

  // A student finds the event and declares a team with an outside mentor.
  const student = await signedIn(browser, 'student14', 'Student@2026');
  await student.goto('/pjedu/events');
  await student.getByRole('link', { name: eventName }).click();
  await expect(student.getByRole('heading', { name: eventName })).toBeVisible();
  await expectAccessible(student);
  await student.getByRole('link', { name: text(ev, 'detail.register') }).click();
  await student.getByLabel(text(ev, 'declaration.teamName')).fill(`Owls ${suffix}`);
  await student.getByRole('combobox', { name: text(ev, 'declaration.track') }).click();
  await clickWhenStill(student.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Creative AI"]'));
  const mentors = student.getByRole('region', { name: text(ev, 'declaration.mentors') });
  if ((await mentors.getByLabel(text(ev, 'member.name')).count()) === 0) {
    await mentors.getByRole('button', { name: text(ev, 'declaration.addMentor') }).click();
  }
  await mentors.getByLabel(text(ev, 'member.name')).first().fill('Ms Rivera');
  await expectAccessible(student);
  await student.getByRole('button', { name: text(ev, 'declaration.send') }).click();
  await expect(student.getByText(text(ev, 'registrationStates.pendingReview'))).toBeVisible();

  // The organiser passes the qualification audit.
  const organiser = await signedIn(browser, 'admin', 'Admin@2026');
  await organiser.goto(`/pjedu/events/${event.id}/qualification`);
  await organiser.getByRole('button', { name: fill(ev, 'qualification.view', { team: `Owls ${suffix}` }) }).click();
  const drawer = organiser.getByRole('dialog');
  await expect(drawer.getByText('Ms Rivera')).toBeVisible();
  await expectAccessible(organiser);
  await drawer.getByRole('button', { name: text(ev, 'qualification.pass') }).click();
  await expect(organiser.getByText(fill(ev, 'qualification.passedDone', { team: `Owls ${suffix}` }))).toBeVisible();

  // The team makes a work with a cover and submits it before the deadline.
  await student.goto(`/pjedu/events/${event.id}/my-works`);
  await student.getByRole('button', { name: text(review, 'works.new') }).click();
  const form = student.getByRole('dialog');
  const workName = `Recycling sorter ${suffix}`;
  await form.getByLabel(text(review, 'form.name'), { exact: true }).fill(workName);
  await form.getByLabel(text(review, 'form.description')).fill('It tells paper from plastic by a photo.');
  const cover = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#3a7bd5' } })
    .png()
    .toBuffer();
  await form.locator('input[type=file][accept*="png"]').first().setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: cover,
  });
  await expect(form.getByRole('img', { name: text(review, 'form.coverPreview') })).toBeVisible();
  await form.getByRole('button', { name: text(review, 'form.save') }).click();
  await expect(student.getByText(fill(review, 'form.saved', { name: workName }))).toBeVisible();
  await student.keyboard.press('Escape');
  await student.getByRole('button', { name: fill(review, 'works.submitOne', { name: workName }) }).click();
  await expect(student.getByText(fill(review, 'works.done.submit', { name: workName }))).toBeVisible();
  await expectAccessible(student);

  // The organiser accepts it for review; submission closes and review opens (the server's dates moved).
  await organiser.goto(`/pjedu/events/${event.id}/reviews`);
  await organiser.getByRole('button', { name: fill(review, 'audit.acceptOne', { name: workName }) }).click();
  await expect(organiser.getByText(fill(review, 'audit.accepted', { name: workName }))).toBeVisible();
  await apiCall(request, admin.token, 'PUT', '/api/v1/event', {
    ...fields,
    id: event.id,
    phases: {
      registrationStart: iso(-4),
      registrationEnd: iso(-3),
      submissionStart: iso(-4),
      submissionEnd: iso(-2),
      reviewStart: iso(-1),
      reviewEnd: iso(3),
      resultsAt: iso(4),
    },
  });
  await apiCall(request, admin.token, 'PUT', `/api/v1/event/review/settings?eventId=${event.id}`, {
    scoringType: 'overall',
    criteria: [],
    groupCount: 1,
    judgesPerGroup: 2,
    worksPerGroup: 0,
    rules: 'Score originality and how well it works.',
    roundName: 'Heats',
    rounds: [{ name: 'Final', advance: 1, groupCount: 1, judgesPerGroup: 1, worksPerGroup: 0 }],
  });
  for (const username of judges) {
    await apiCall(request, admin.token, 'POST', '/api/v1/event/judge', { eventId: event.id, username, group: 1 });
  }
  // The first judge sits on the final's panel too.
  await apiCall(request, admin.token, 'POST', '/api/v1/event/judge', {
    eventId: event.id,
    username: judges[0],
    group: 1,
    round: 2,
  });
  await organiser.reload();
  await organiser.getByRole('tab', { name: text(review, 'reviews.tabs.judges') }).click();
  await organiser.getByRole('button', { name: text(review, 'progress.assign') }).click();
  await expect(organiser.getByText(text(review, 'progress.assigned'))).toBeVisible();
  await expectAccessible(organiser);

  // Two judges score it in the heats, the first judge again in the final; a submitted score is final.
  async function judgeScores(username: string, score: number, round: string) {
    const judge = await signedIn(browser, username, 'Judge#School2026');
    await judge.goto(`/pjedu/events/${event.id}/judging`);
    await expect(judge.getByRole('heading', { name: round, level: 2 })).toBeVisible();
    await expect(judge.getByRole('heading', { name: workName })).toBeVisible();
    await judge.getByLabel(text(review, 'score.overall')).fill(String(score));
    await judge.getByLabel(text(review, 'score.comment')).fill('Clever and clear.');
    await expectAccessible(judge);
    await judge.getByRole('button', { name: text(review, 'score.submit') }).click();
    await judge
      .getByRole('dialog')
      .getByRole('button', { name: text(review, 'score.submit') })
      .click();
    await expect(judge.getByText(text(review, 'score.submitted'))).toBeVisible();
    await judge.context().close();
  }
  for (const [i, username] of judges.entries()) await judgeScores(username, 88 + i * 4, 'Heats');

  // The organiser closes the heats: the best work goes on to the final.
  await organiser.reload();
  await organiser.getByRole('button', { name: fill(review, 'rounds.close', { round: 'Heats' }) }).click();
  await organiser
    .getByRole('dialog')
    .getByRole('button', { name: text(review, 'rounds.closeOk') })
    .click();
  await expect(
    organiser.getByText(fill(review, 'rounds.closed', { round: 'Heats', next: 'Final', advanced: 1, stayed: 0 })),
  ).toBeVisible();
  await expect(organiser.getByText(fill(review, 'rounds.stateHints.current', { round: 'Final' }))).toBeVisible();
  await expectAccessible(organiser);
  await judgeScores(judges[0]!, 95, 'Final');

  // The organiser publishes the results and gives the winners certificates.
  await organiser.reload();
  await organiser.getByRole('tab', { name: text(review, 'reviews.tabs.results') }).click();
  await organiser.getByRole('button', { name: text(review, 'results.publish') }).click();
  await organiser
    .getByRole('dialog')
    .getByRole('button', { name: text(review, 'results.publish') })
    .click();
  await expect(organiser.getByText(text(review, 'results.published'))).toBeVisible();
  await organiser.getByRole('combobox', { name: text(review, 'certificates.template') }).click();
  await clickWhenStill(organiser.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${template}"]`));
  await organiser.getByRole('button', { name: text(review, 'certificates.issue') }).click();
  await expect(organiser.getByText(fill(review, 'certificates.done', { holders: 1 }))).toBeVisible();
  await expectAccessible(organiser);

  // The team sees its rank and award, and downloads its certificate.
  await student.goto(`/pjedu/events/${event.id}`);
  await student.getByRole('tab', { name: text(ev, 'detail.results') }).click();
  const row = student.getByRole('row').filter({ hasText: workName });
  await expect(row).toContainText('First prize');
  await expect(row.getByRole('cell').first()).toHaveText('1');
  await expectAccessible(student);
  await student.goto('/admin/my-certificates');
  const mine = student.getByRole('listitem').filter({ hasText: eventName }).first();
  await expect(mine).toBeVisible();
  const [pdf] = await Promise.all([
    student.waitForEvent('download'),
    mine.getByRole('button', { name: text(cert, 'mine.downloadPdf') }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^AIM\d{12}\.pdf$/);
});
