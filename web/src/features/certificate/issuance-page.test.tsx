import {
  CERT_API,
  ROLES,
  SCHEDULE_API,
  ZCertReviewDecision,
  ZCreateCertIssuance,
  ZResubmitCertIssuance,
} from '@aiedu/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { ADMIN_API } from '../admin/admin-api';
import {
  answerIssuing,
  catchDownloads,
  CERT_ID,
  CLASS_ID,
  issuance,
  PDF,
  reviewItem,
  student,
  userCert,
} from './issuance-fixtures';

vi.mock('./pdf-view', () => ({
  PdfView: ({ label, data }: { label: string; data: unknown }) => (
    <figure aria-label={label} data-loaded={data ? 'yes' : 'no'} />
  ),
}));

const PATH = '/admin/certificates/issuance';
let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.customerAdmin);
});
afterEach(stopFakeApi);

const query = (path: string) =>
  new URL(server.to(path).findLast((r) => r.method !== 'GET')!.url, 'http://x').searchParams;

async function openTab(name: string | RegExp) {
  const user = userEvent.setup();
  renderApp(PATH);
  await user.click(await screen.findByRole('tab', { name }));
  return user;
}

describe('issuing certificates', { timeout: 60_000 }, () => {
  it('refuses to issue to nobody with spec 5’s message, then sends a valid issuance of the class picked', async () => {
    answerIssuing(server);
    server.on(`POST ${CERT_API.certIss}`, () => ok({ ...issuance({ state: 'pending' }), holders: [] }));
    const user = await openTab('New issuance');
    const form = screen.getByRole('tabpanel', { name: 'New issuance' });
    await user.click(within(form).getByRole('combobox', { name: 'Certificate' }));
    await user.click(await screen.findByTitle('Robotics contest'));
    await user.type(within(form).getByLabelText('Awarded for'), '  First prize  ');
    await user.click(within(form).getByRole('button', { name: /Issue certificates/ }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'Pick at least one student');
    expect(server.to(CERT_API.certIss).filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(within(form).getByRole('combobox', { name: 'Choose a class' }));
    await user.click(await screen.findByTitle('Grade 1 Class 1'));
    await user.click(await within(form).findByRole('button', { name: /Add its 2 students/ }));
    expect(within(form).getByText('Selected students: 2')).toBeTruthy();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(new URL(server.to(CERT_API.candidates).at(-1)!.url, 'http://x').searchParams.toString()).toBe(
      `source=class&sourceId=${CLASS_ID}`,
    );

    await user.click(within(form).getByRole('button', { name: /Preview the first certificate/ }));
    expect(await within(form).findByRole('figure', { name: 'Preview of the certificate for Student 1' })).toBeTruthy();
    expect(lastChange(server, CERT_API.preview)).toMatchObject({
      holderName: 'Student 1',
      awardFor: '  First prize  ',
    });

    await user.click(within(form).getByRole('button', { name: /Issue certificates/ }));
    await waitFor(() => expect(server.to(CERT_API.certIss).filter((r) => r.method === 'POST')).toHaveLength(1));
    const sent = lastChange(server, CERT_API.certIss);
    expect(ZCreateCertIssuance.parse(sent)).toEqual(sent);
    expect(sent).toMatchObject({
      certId: CERT_ID,
      awardFor: 'First prize',
      source: 'class',
      sourceId: CLASS_ID,
      userIds: [student(1).userId, student(2).userId],
    });
    expect(
      await screen.findByText('Sent for review: the certificates are issued once an auditor approves'),
    ).toBeTruthy();
  });

  it('lets a teacher pick from their school’s classes and preview the certificate', async () => {
    signInAs(ROLES.teacher);
    answerIssuing(server);
    const user = await openTab('New issuance');
    const form = screen.getByRole('tabpanel', { name: 'New issuance' });
    await user.click(within(form).getByRole('combobox', { name: 'Choose a class' }));
    await user.click(await screen.findByTitle('Grade 1 Class 1'));
    await user.click(await within(form).findByRole('button', { name: /Add its 2 students/ }));
    expect(within(form).getByText('Selected students: 2')).toBeTruthy();
    expect(server.to(SCHEDULE_API.options)).toHaveLength(1);
    expect(server.to(`${ADMIN_API.classes}/options`)).toHaveLength(0);
    expect(within(form).getByRole('button', { name: /Preview/ })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Review settings' })).toBeNull();
  });

  it('shows an xlsx list’s dry run with each row’s error and adds only the students found', async () => {
    answerIssuing(server);
    server.on(`POST ${CERT_API.uploadUserTemplate}`, () =>
      ok({
        rows: [
          { row: 2, username: 'stu1', realName: 'Student 1', user: student(1), error: null },
          { row: 3, username: 'ghost', realName: 'Nobody', user: null, error: 'No student with this username' },
        ],
        valid: 1,
        invalid: 1,
      }),
    );
    const user = await openTab('New issuance');
    const form = screen.getByRole('tabpanel', { name: 'New issuance' });
    await user.click(within(form).getByRole('tab', { name: 'An xlsx list' }));
    const input = form.querySelector<HTMLInputElement>('input[type=file][accept*=xlsx]')!;
    fireEvent.change(input, { target: { files: [new File(['x'], 'list.xlsx')] } });
    expect(await within(form).findByText('1 rows found, 1 rows with errors')).toBeTruthy();
    expect(new URL(server.to(CERT_API.uploadUserTemplate)[0]!.url, 'http://x').searchParams.get('fileType')).toBe(
      'xlsx',
    );
    const bad = within(form).getByText('No student with this username').closest('tr')!;
    expect(within(bad).getByText('ghost')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Add the 1 students found' }));
    expect(within(form).getByText('Selected students: 1')).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Remove Student 1' })).toBeTruthy();
    expect(within(form).queryByRole('button', { name: 'Remove Nobody' })).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('revokes an issued certificate with the reason given, after a confirmation', async () => {
    answerIssuing(server);
    server.on(`PUT ${CERT_API.revoke}`, () => ok(null));
    const user = await openTab('Issued certificates');
    const row = (await screen.findByText('AI202611200001')).closest('tr')!;
    expect(within(row).getByText('Valid')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Revoke certificate AI202611200001?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeTruthy();
    expect(server.to(CERT_API.revoke)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), ' Name misspelt ');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(server.to(CERT_API.revoke)).toHaveLength(1));
    expect(lastChange(server, CERT_API.revoke)).toEqual({ reason: 'Name misspelt' });
    expect(query(CERT_API.revoke).get('userCertId')).toBe(userCert(1).id);
    expect(await screen.findByText('Certificate revoked')).toBeTruthy();
  });

  it('re-issues a certificate with the corrected name and the reason, sending only what changed', async () => {
    answerIssuing(server);
    server.on(`PUT ${CERT_API.reissue}`, () => ok(userCert(9, { holderName: 'Student One' })));
    const user = await openTab('Issued certificates');
    const row = (await screen.findByText('AI202611200001')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Correct and re-issue' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Student One');
    await user.type(within(dialog).getByLabelText('Reason'), 'Name misspelt');
    await user.click(within(dialog).getByRole('button', { name: 'Correct and re-issue' }));
    await waitFor(() => expect(server.to(CERT_API.reissue)).toHaveLength(1));
    expect(lastChange(server, CERT_API.reissue)).toEqual({ holderName: 'Student One', reason: 'Name misspelt' });
    expect(query(CERT_API.reissue).get('userCertId')).toBe(userCert(1).id);
    expect(await screen.findByText('Re-issued as AI202611200009')).toBeTruthy();
  });

  it('downloads an issued issuance’s certificates as one PDF from its detail', async () => {
    answerIssuing(server);
    server.on(`GET ${CERT_API.certIssDetail}`, () => ok({ ...issuance(), holders: [userCert(1), userCert(2)] }));
    server.on(`POST ${CERT_API.certIssDownload}`, () => PDF);
    const saved = catchDownloads();
    const user = userEvent.setup();
    renderApp(PATH);
    const row = (await screen.findByText('First prize')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'View' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('AI202611200002')).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: /Download all \(PDF\)/ }));
    await waitFor(() => expect(saved).toEqual(['Robotics contest-2026-11-20.pdf']));
    expect(lastChange(server, CERT_API.certIssDownload)).toEqual({ certIssId: issuance().id });
  });

  it('searches the issued certificates by number, holder, state and dates on the server', async () => {
    answerIssuing(server);
    server.on(`GET ${CERT_API.userCert}`, () =>
      ok({
        list: [userCert(3, { state: 'revoked', revokedAt: '2026-11-21T08:00:00+08:00', revokeReason: 'Typo' })],
        total: 1,
        page: 1,
        size: 20,
      }),
    );
    const user = await openTab('Issued certificates');
    expect(await screen.findByText(/Typo/)).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search by number' }), 'AI2026{Enter}');
    const last = () => new URL(server.to(CERT_API.userCert).at(-1)!.url, 'http://x').searchParams;
    await waitFor(() => expect(last().get('number')).toBe('AI2026'));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or username' }), 'Student{Enter}');
    await waitFor(() => expect(last().get('keyword')).toBe('Student'));
    expect(last().get('number')).toBe('AI2026');
    expect(await axeViolations()).toEqual([]);
  });
});

describe('correcting a refused issuance', { timeout: 60_000 }, () => {
  it('resubmits it with the corrected award and its students, without its template', async () => {
    answerIssuing(server);
    const refused = issuance({ state: 'refused', refuseReason: 'Wrong award' });
    server.on(`GET ${CERT_API.certIss}`, () => ok({ list: [refused], total: 1, page: 1, size: 20 }));
    server.on(`GET ${CERT_API.certIssDetail}`, () =>
      ok({ ...refused, holders: [userCert(1, { number: null }), userCert(2, { number: null })] }),
    );
    server.on(`PUT ${CERT_API.certIssResubmit}`, () => ok({ ...refused, state: 'pending', holders: [] }));
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Correct and resubmit' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Selected students: 2')).toBeTruthy();
    const award = within(drawer).getByLabelText('Awarded for');
    await user.clear(award);
    await user.type(award, 'Second prize');
    await user.click(within(drawer).getByRole('button', { name: /Resubmit for review/ }));
    await waitFor(() => expect(server.to(CERT_API.certIssResubmit)).toHaveLength(1));
    const sent = lastChange(server, CERT_API.certIssResubmit);
    expect(ZResubmitCertIssuance.parse(sent)).toEqual(sent);
    expect(sent).toEqual({
      awardFor: 'Second prize',
      issueDate: '2026-11-20',
      source: 'class',
      userIds: [student(1).userId, student(2).userId],
    });
    expect(query(CERT_API.certIssResubmit).get('certIssId')).toBe(refused.id);
  });
});

describe('review settings', { timeout: 60_000 }, () => {
  it('are the institution’s: a school administrator issues without them', async () => {
    signInAs(ROLES.schoolAdmin);
    answerIssuing(server);
    renderApp(PATH);
    expect(await screen.findByRole('tab', { name: 'Issuances' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'New issuance' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Review settings' })).toBeNull();
  });

  it('switches review off and adds a teacher of the customer as an auditor', async () => {
    answerIssuing(server);
    const teacher = { id: '01935f6c-0000-7000-8000-0000000004a1', username: 'li', realName: 'Teacher Li' };
    server.on(`GET ${ADMIN_API.teachers}`, () => ok({ list: [teacher], total: 1, page: 1, size: 20 }));
    server.on(`GET ${ADMIN_API.users}`, () => ok({ list: [], total: 0, page: 1, size: 20 }));
    server.on(`PUT ${CERT_API.auditorSettings}`, () => ok({ reviewRequired: false }));
    server.on(`POST ${CERT_API.auditor}`, () =>
      ok({
        id: 'a-1',
        userId: teacher.id,
        username: 'li',
        realName: 'Teacher Li',
        createdAt: '2026-11-20T08:00:00+08:00',
      }),
    );
    const user = await openTab('Review settings');
    const toggle = await screen.findByRole('switch', { name: "Issuances wait for an auditor's approval" });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await user.click(toggle);
    await waitFor(() => expect(lastChange(server, CERT_API.auditorSettings)).toEqual({ reviewRequired: false }));
    expect(await axeViolations()).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Search a teacher or administrator' }));
    await user.click(await screen.findByTitle('Teacher Li (li)'));
    await user.click(screen.getByRole('button', { name: /Add auditor/ }));
    await waitFor(() => expect(lastChange(server, CERT_API.auditor)).toEqual({ userId: teacher.id }));
    expect(await screen.findByText('Auditor added')).toBeTruthy();
  });
});

describe('review with nobody to review', { timeout: 60_000 }, () => {
  it('keeps the review switch off until an auditor is added, and says why', async () => {
    answerIssuing(server);
    server.on(`GET ${CERT_API.auditorSettings}`, () => ok({ reviewRequired: false }));
    await openTab('Review settings');
    expect(await screen.findByText(/Add an auditor first/)).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: "Issuances wait for an auditor's approval" });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect((toggle as HTMLButtonElement).disabled).toBe(true);
    expect(toggle.getAttribute('aria-describedby')).toBe('cert-review-needs-auditor');
    expect(await axeViolations()).toEqual([]);
  });
});

describe('reviewing issuances', { timeout: 60_000 }, () => {
  it('hides the review tab from a caller who is no auditor', async () => {
    answerIssuing(server);
    renderApp(PATH);
    expect(await screen.findByRole('tab', { name: 'Issuances' })).toBeTruthy();
    await waitFor(() => expect(server.to(CERT_API.review).length).toBeGreaterThan(0));
    expect(screen.queryByRole('tab', { name: /Review \(/ })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Review settings' })).toBeTruthy();
  });

  it('approves one issuance and refuses another with a reason', async () => {
    answerIssuing(server, { auditor: true });
    const second = reviewItem({
      id: '01935f6c-0000-7000-8000-0000000000a2',
      certName: 'Coding club',
      awardFor: 'Attendance',
    });
    server.on(`GET ${CERT_API.review}`, () => ok([reviewItem(), second]));
    server.on(`POST ${CERT_API.review}`, () => ok(null));
    const user = await openTab('Review (2)');
    const panel = screen.getByRole('tabpanel', { name: 'Review (2)' });
    const first = (await within(panel).findByText('Robotics contest')).closest('tr')!;
    await user.click(within(first).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.to(CERT_API.review).filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(ZCertReviewDecision.parse(lastChange(server, CERT_API.review))).toEqual({
      certIssId: reviewItem().id,
      decision: 'approve',
    });

    const other = within(panel).getByText('Coding club').closest('tr')!;
    await user.click(within(other).getByRole('button', { name: 'Refuse' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Refuse the issuance of “Coding club”')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason for refusal'), 'Wrong class');
    await user.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    await waitFor(() => expect(server.to(CERT_API.review).filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(lastChange(server, CERT_API.review)).toEqual({
      certIssId: second.id,
      decision: 'refuse',
      reason: 'Wrong class',
    });
  });

  it('shows a refused issuance with its reason and withdraws a pending one by its review', async () => {
    answerIssuing(server);
    const pending = issuance({
      id: '01935f6c-0000-7000-8000-0000000000a3',
      state: 'pending',
      certName: 'Coding club',
      pendingReviewId: 'rv-9',
    });
    server.on(`GET ${CERT_API.certIss}`, () =>
      ok({ list: [issuance({ state: 'refused', refuseReason: 'Wrong date' }), pending], total: 2, page: 1, size: 20 }),
    );
    server.on(`DELETE ${CERT_API.review}`, () => ok(null));
    const user = userEvent.setup();
    renderApp(PATH);
    expect(await screen.findByText('Reason: Wrong date')).toBeTruthy();
    const row = screen.getByText('Coding club').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(server.to(CERT_API.review).filter((r) => r.method === 'DELETE')).toHaveLength(1));
    expect(query(CERT_API.review).get('reviewId')).toBe('rv-9');
  });
});
