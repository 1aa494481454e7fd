import { CERT_API, type TCertVerification } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, startVisitorApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';

// The preview's PDF drawing is not this page's: a plain stand-in.
vi.mock('./pdf-view', () => ({ PdfView: ({ label }: { label: string }) => <figure aria-label={label} /> }));

const VALID: TCertVerification = {
  number: 'AI20261128001',
  state: 'valid',
  holderName: '王小明',
  certName: 'Robotics contest',
  awardFor: 'First prize',
  issuerName: 'Demo School',
  issuedAt: '2026-11-28T08:00:00+08:00',
  revokedAt: null,
  revokeReason: null,
};
const REVOKED: TCertVerification = {
  ...VALID,
  number: 'AI20261128002',
  state: 'revoked',
  revokedAt: '2026-11-29T09:00:00+08:00',
  revokeReason: 'Name misspelt',
};

let server: FakeServer;
const numbersAsked = () => server.to(CERT_API.verify).map((r) => new URL(r.url, 'http://x').searchParams.get('number'));

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  server = startVisitorApi();
  server.on(`GET ${CERT_API.verify}`, (r) => {
    const number = new URL(r.url, 'http://x').searchParams.get('number');
    if (number === VALID.number) return ok(VALID);
    if (number === REVOKED.number) return ok(REVOKED);
    if (number === 'SLOW') return fail('1109', 'Too many requests', 429);
    return fail('4005', 'Certificate not found', 404);
  });
});
afterEach(() => vi.restoreAllMocks());

describe('certificate search', { timeout: 60_000 }, () => {
  it('refuses an empty number with spec 5’s message, before asking the server', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/certificate-search');
    await screen.findByRole('heading', { level: 1, name: 'Certificate search' });
    await user.type(screen.getByLabelText('Certificate number'), '   ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Enter a certificate number to search')).toBeTruthy();
    expect(server.to(CERT_API.verify)).toHaveLength(0);
    expect(await axeViolations()).toEqual([]);
  });

  it('speaks the visitor’s language: Japanese, with spec 5’s message in it', async () => {
    await changeLanguage('ja', { remember: false });
    const user = userEvent.setup();
    renderApp('/pjedu/certificate-search');
    await user.click(await screen.findByRole('button', { name: '照会' }));
    expect(await screen.findByText('証明書番号を入力して検索してください')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: '資格情報ファイルを確認' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('searches at once for the number of the QR code’s link and shows a valid certificate', async () => {
    renderApp(`/pjedu/certificate-search?number=${VALID.number}`);
    const verdict = await screen.findByRole('region', { name: 'Valid certificate' });
    expect(within(verdict).getByText('王小明')).toBeTruthy();
    expect(within(verdict).getByText('First prize')).toBeTruthy();
    expect(within(verdict).getByText('Demo School')).toBeTruthy();
    expect(numbersAsked()).toEqual([VALID.number]);
    expect(await axeViolations()).toEqual([]);
  });

  it('tells a revoked certificate with its date and reason, and an unknown number as not found', async () => {
    const user = userEvent.setup();
    renderApp('/pjedu/certificate-search');
    const input = await screen.findByLabelText('Certificate number');
    await user.type(input, ` ${REVOKED.number} {Enter}`);
    const revoked = await screen.findByRole('region', { name: 'Revoked certificate' });
    expect(within(revoked).getByText('Name misspelt')).toBeTruthy();
    expect(within(revoked).getByText('Reason for revocation')).toBeTruthy();
    expect(within(revoked).getByText('Revoked on')).toBeTruthy();
    expect(numbersAsked()).toEqual([REVOKED.number]);

    await user.clear(input);
    await user.type(input, 'XX20260101999{Enter}');
    expect(await screen.findByRole('region', { name: 'Certificate not found' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Revoked certificate' })).toBeNull();

    await user.clear(input);
    await user.type(input, 'SLOW{Enter}');
    expect(await screen.findByText('Too many requests, please try again later')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('checks a pasted credential: genuine and valid, genuine but revoked, not genuine', async () => {
    const user = userEvent.setup();
    const answers = [
      { genuine: true, certificate: VALID },
      { genuine: true, certificate: REVOKED },
      { genuine: false, certificate: null },
    ];
    server.on(`POST ${CERT_API.verifyCredential}`, () => ok(answers.shift()));
    renderApp('/pjedu/certificate-search');
    const box = await screen.findByLabelText('Or paste its content');
    const check = screen.getByRole('button', { name: 'Check the credential' });
    await user.type(box, 'eyJhbGciOiJFZERTQSJ9.e30.sig');
    await user.click(check);
    expect(await screen.findByRole('region', { name: 'Genuine and valid' })).toBeTruthy();
    expect(JSON.parse(server.to(CERT_API.verifyCredential)[0]!.body!)).toEqual({
      credential: 'eyJhbGciOiJFZERTQSJ9.e30.sig',
    });
    await user.click(check);
    expect(await screen.findByRole('region', { name: 'Genuine, but the certificate was revoked' })).toBeTruthy();
    await user.click(check);
    expect(await screen.findByRole('region', { name: 'Not genuine' })).toBeTruthy();
    await waitFor(() => expect(server.to(CERT_API.verifyCredential)).toHaveLength(3));
    expect(await axeViolations()).toEqual([]);
  });
});
