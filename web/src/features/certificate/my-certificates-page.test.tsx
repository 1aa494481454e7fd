import { CERT_API, ROLES } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { catchDownloads, PDF, userCert } from './issuance-fixtures';

let server: FakeServer;
const VALID = userCert(1, { holderName: '王小明' });
const REVOKED = userCert(2, {
  certName: 'Coding club',
  state: 'revoked',
  revokedAt: '2026-11-22T08:00:00+08:00',
  revokeReason: 'Issued twice',
});

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.student);
  server.on(`GET ${CERT_API.myCerts}`, () => ok([VALID, REVOKED]));
  server.on(`GET ${CERT_API.pdf}`, () => PDF);
  server.on(`GET ${CERT_API.png}`, () => ({ body: '\x89PNG', contentType: 'image/png' }));
  server.on(`GET ${CERT_API.badge}`, () => ({ body: 'eyJ.e30.sig', contentType: 'application/jwt' }));
});
afterEach(stopFakeApi);

describe('my certificates', { timeout: 60_000 }, () => {
  it('lists my certificates with their previews, states and public check', async () => {
    renderApp('/admin/my-certificates');
    expect(await screen.findByRole('heading', { level: 1, name: 'My certificates' })).toBeTruthy();
    const preview = await screen.findByRole('img', { name: 'Preview of Robotics contest · First prize' });
    expect(preview.getAttribute('src')).toMatch(/^blob:/);
    // Pictures drawn by the server, twice the card's width: no PDF is fetched for a preview.
    const asked = server.to(CERT_API.png).map((r) => new URL(r.url, 'http://x').searchParams);
    expect(asked.map((q) => q.get('userCertId')).sort()).toEqual([VALID.id, REVOKED.id].sort());
    expect(asked.map((q) => q.get('width'))).toEqual(['520', '520']);
    expect(server.to(CERT_API.pdf)).toEqual([]);

    const revoked = screen.getByText('Coding club').closest('li')!;
    expect(within(revoked).getByText('Revoked')).toBeTruthy();
    expect(within(revoked).getByText('Issued twice')).toBeTruthy();
    const valid = screen.getByText('Robotics contest').closest('li')!;
    expect(within(valid).getByText('Valid')).toBeTruthy();
    expect(within(valid).getByText(VALID.number!)).toBeTruthy();
    expect(
      within(valid)
        .getByRole('link', { name: /Verify/ })
        .getAttribute('href'),
    ).toBe(`/pjedu/certificate-search?number=${VALID.number}`);
    expect(await axeViolations()).toEqual([]);
  });

  it('downloads a certificate’s PDF, its picture and its Open Badges credential', async () => {
    const saved = catchDownloads();
    const user = userEvent.setup();
    renderApp('/admin/my-certificates');
    const card = (await screen.findByText('Robotics contest')).closest('li')!;
    await user.click(within(card).getByRole('button', { name: /Download PDF/ }));
    await waitFor(() => expect(saved).toEqual([`${VALID.number}.pdf`]));
    await user.click(within(card).getByRole('button', { name: /Save as picture/ }));
    await waitFor(() => expect(saved).toEqual([`${VALID.number}.pdf`, `${VALID.number}.png`]));
    await user.click(within(card).getByRole('button', { name: /Open Badges 3.0 credential/ }));
    await waitFor(() => expect(saved).toEqual([`${VALID.number}.pdf`, `${VALID.number}.png`, `${VALID.number}.jwt`]));
    const badge = server.to(CERT_API.badge)[0]!;
    expect(new URL(badge.url, 'http://x').searchParams.get('userCertId')).toBe(VALID.id);
  });

  it('is reached from the account menu', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/certificate-search');
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    const link = await screen.findByRole('link', { name: 'My certificates' });
    expect(link.getAttribute('href')).toBe('/admin/my-certificates');
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'My certificates' })).toBeTruthy();
    // Only teachers find the issuing screen there: theirs without making the administration a product of theirs.
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    expect(screen.queryByRole('link', { name: 'Issue certificates' })).toBeNull();
  });

  it('leads a teacher from the account menu to issuing, without the product chooser', async () => {
    signInAs(ROLES.teacher);
    const user = userEvent.setup();
    renderApp('/pjedu/certificate-search');
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    const link = await screen.findByRole('link', { name: 'Issue certificates' });
    expect(link.getAttribute('href')).toBe('/admin/certificates/issuance');
    expect(screen.queryByRole('link', { name: /Switch product/ })).toBeNull();
  });

  it('says so when I hold no certificate', async () => {
    server.on(`GET ${CERT_API.myCerts}`, () => ok([]));
    renderApp('/admin/my-certificates');
    expect(await screen.findByText('You have no certificates yet')).toBeTruthy();
  });
});
