import { CERT_API, CERT_JWKS_PATH, CERT_PNG_WIDTH } from '@aiedu/contracts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { compactVerify, createLocalJWKSet, decodeJwt, importJWK, type JWK } from 'jose';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../../platform/db/schema/index.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildCertWorld } from './cert-test-world.js';

type World = Awaited<ReturnType<typeof buildCertWorld>>;
const LIMIT = 5;

describe('holders’ certificates, verification and Open Badges', () => {
  let t: TestApp;
  let w: World;
  let holders: { id: string; userId: string; number: string; issuanceId: string }[];

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        certificates: { signingKeyPem: undefined, fontFile: undefined, boldFontFile: undefined, verifyPerMinute: 1000 },
      },
    });
    w = await buildCertWorld(t);
    const res = await w.call('teach', 'POST', CERT_API.certIss, {
      certId: w.template.id,
      awardFor: 'Robotics contest',
      issueDate: '2026-11-20',
      source: 'class',
      userIds: w.studentIds,
    });
    holders = res.json().data.holders;
  });
  afterAll(() => t.close());

  const holderOf = (who: string) => holders.find((h) => h.userId === w.ids[who])!;
  const verify = (number: string) =>
    t.app.inject({ method: 'GET', url: `${CERT_API.verify}?number=${encodeURIComponent(number)}` });

  it('shows each student only their own certificates', async () => {
    const mine = (await w.call('stu2', 'GET', CERT_API.myCerts)).json().data;
    expect(mine.map((c: { userId: string }) => c.userId)).toEqual([w.ids.stu2]);
    expect(mine[0].number).toBe(holderOf('stu2').number);
    expect((await w.call('stuX', 'GET', CERT_API.myCerts)).json().data).toEqual([]);
  });

  it('downloads a holder’s PDF and the issuance as one merged PDF of a page per holder', async () => {
    const target = holderOf('stu1');
    const pdf = await w.call('stu1', 'GET', `${CERT_API.pdf}?userCertId=${target.id}`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`${target.number}.pdf`);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect((await w.call('stu2', 'GET', `${CERT_API.pdf}?userCertId=${target.id}`)).json().errorCode).toBe('4005');
    expect((await w.call('teach', 'GET', `${CERT_API.pdf}?userCertId=${target.id}`)).statusCode).toBe(200);

    const issuanceId = holders[0]!.issuanceId;
    const merged = await w.call('teach', 'POST', CERT_API.certIssDownload, { certIssId: issuanceId });
    expect(merged.headers['content-type']).toBe('application/pdf');
    expect(merged.headers['content-disposition']).toContain(encodeURIComponent('Python Award-2026-11-20.pdf'));
    expect(merged.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect((await PDFDocument.load(merged.rawPayload)).getPageCount()).toBe(3);
    expect((await w.call('teach2', 'POST', CERT_API.certIssDownload, { certIssId: issuanceId })).json().errorCode).toBe(
      '4005',
    );
  });

  it('draws a certificate as a PNG of the width asked for, for the same readers as its PDF', async () => {
    const target = holderOf('stu1');
    const png = await w.call('stu1', 'GET', `${CERT_API.png}?userCertId=${target.id}&width=325`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toContain(`${target.number}.png`);
    const { width, height, format } = await sharp(png.rawPayload).metadata();
    // The template's page keeps its proportions at any width.
    const page = w.template.layout === 'landscape' ? 650 / 930 : 930 / 650;
    expect([format, width, height]).toEqual(['png', 325, Math.round(325 * page)]);
    const byDefault = await w.call('teach', 'GET', `${CERT_API.png}?userCertId=${target.id}`);
    expect((await sharp(byDefault.rawPayload).metadata()).width).toBe(CERT_PNG_WIDTH.default);
    expect((await w.call('stu2', 'GET', `${CERT_API.png}?userCertId=${target.id}`)).json().errorCode).toBe('4005');
    const tooWide = await w.call('stu1', 'GET', `${CERT_API.png}?userCertId=${target.id}&width=5000`);
    expect([tooWide.statusCode, tooWide.json().errorCode]).toEqual([400, '1001']);
  });

  it('searches issued certificates by number, name and state', async () => {
    const byNumber = (await w.call('boss', 'GET', `${CERT_API.userCert}?number=${holderOf('stu1').number}`)).json()
      .data;
    expect(byNumber.list.map((c: { userId: string }) => c.userId)).toEqual([w.ids.stu1]);
    const byName = (await w.call('teach', 'GET', `${CERT_API.userCert}?keyword=${encodeURIComponent('小明')}`)).json()
      .data;
    expect(byName.total).toBe(1);
    const byDate = (await w.call('boss', 'GET', `${CERT_API.userCert}?from=2026-11-21`)).json().data;
    expect(byDate.total).toBe(0);
    const onDay = (await w.call('boss', 'GET', `${CERT_API.userCert}?from=2026-11-20&to=2026-11-20`)).json().data;
    expect(onDay.total).toBe(3);
    expect((await w.call('teach2', 'GET', CERT_API.userCert)).json().data.total).toBe(0);
    expect((await w.call('otherAdmin', 'GET', CERT_API.userCert)).json().data.total).toBe(0);
  });

  it('verifies by number without sign-in; 4401 without one, 4005 for an unknown one', async () => {
    const ok = await verify(holderOf('stu1').number.toLowerCase());
    expect(ok.json().data).toMatchObject({
      state: 'valid',
      holderName: '王小明',
      issuerName: 'Sunrise Academy',
      revokedAt: null,
    });
    const empty = await t.app.inject({ method: 'GET', url: `${CERT_API.verify}?number=%20` });
    expect([empty.statusCode, empty.json().errorCode]).toEqual([400, '4401']);
    expect((await t.app.inject({ method: 'GET', url: CERT_API.verify })).json().errorCode).toBe('4401');
    const unknown = await verify('PY202611209999');
    expect([unknown.statusCode, unknown.json().errorCode]).toEqual([404, '4005']);
  });

  it('revokes with a reason (verifiable as revoked, 4404 the second time) and reissues with a new number', async () => {
    const target = holderOf('stu3');
    const forbidden = await w.call('teach2', 'PUT', `${CERT_API.revoke}?userCertId=${target.id}`, { reason: 'Wrong' });
    expect(forbidden.json().errorCode).toBe('4005');
    const revoked = await w.call('teach', 'PUT', `${CERT_API.revoke}?userCertId=${target.id}`, {
      reason: 'Wrong name',
    });
    expect(revoked.json().data.state).toBe('revoked');
    const again = await w.call('boss', 'PUT', `${CERT_API.revoke}?userCertId=${target.id}`, { reason: 'Again' });
    expect([again.statusCode, again.json().errorCode]).toEqual([409, '4404']);
    const logs = await t.database.db
      .select({ params: operationLogs.params })
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'certificate'), eq(operationLogs.operation, 'revoke')));
    expect(logs.map((l) => l.params)).toEqual([{ id: target.id, number: target.number, reason: 'Wrong name' }]);
    const shown = (await verify(target.number)).json().data;
    expect([shown.state, shown.revokeReason]).toEqual(['revoked', 'Wrong name']);
    expect(shown.revokedAt).not.toBeNull();

    const other = holderOf('stu2');
    const reissued = await w.call('boss', 'PUT', `${CERT_API.reissue}?userCertId=${other.id}`, {
      holderName: 'Student Two Corrected',
      reason: 'Name corrected',
    });
    const fresh = reissued.json().data;
    expect(fresh.number).not.toBe(other.number);
    expect(fresh.holderName).toBe('Student Two Corrected');
    expect(fresh.state).toBe('valid');
    const old = (await verify(other.number)).json().data;
    expect([old.state, old.revokeReason]).toEqual(['revoked', 'Name corrected']);
    const mine = (await w.call('stu2', 'GET', CERT_API.myCerts)).json().data;
    expect(mine.find((c: { id: string }) => c.id === other.id)).toMatchObject({
      replacedById: fresh.id,
      replacedByNumber: fresh.number,
    });
    const twice = await w.call('boss', 'PUT', `${CERT_API.reissue}?userCertId=${other.id}`, { reason: 'Again' });
    expect(twice.json().errorCode).toBe('4404');
  });

  it('signs an Open Badges 3.0 credential that verifies with the published key and fails when a byte changes', async () => {
    const jwksRes = await t.app.inject({ method: 'GET', url: CERT_JWKS_PATH });
    expect(jwksRes.statusCode).toBe(200);
    const [key] = jwksRes.json().keys as JWK[];
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' });
    expect(key!.kid).toBeTruthy();

    const target = holderOf('stu1');
    expect((await w.call('stu2', 'GET', `${CERT_API.badge}?userCertId=${target.id}`)).json().errorCode).toBe('4005');
    const res = await w.call('stu1', 'GET', `${CERT_API.badge}?userCertId=${target.id}`);
    expect(res.headers['content-type']).toContain('application/vc+jwt');
    expect(res.headers['content-disposition']).toContain(`${target.number}.jwt`);
    const jwt = res.body;
    const { protectedHeader } = await compactVerify(jwt, await importJWK(key!, 'EdDSA'));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: key!.kid });
    const claims = decodeJwt(jwt) as unknown as {
      type: string[];
      '@context': string[];
      jti: string;
      iss: string;
      issuer: { id: string };
      credentialSubject: { name: string; achievement: object };
      credentialStatus: { id: string };
    };
    expect(claims.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(claims['@context'][0]).toBe('https://www.w3.org/ns/credentials/v2');
    expect(claims.jti).toBe(`urn:uuid:${target.id}`);
    expect(claims.iss).toBe(claims.issuer.id);
    expect(claims.credentialSubject.name).toBe('王小明');
    expect(claims.credentialSubject.achievement).toMatchObject({
      name: 'Python Award',
      description: 'Robotics contest',
    });
    expect(claims.credentialStatus.id).toContain(encodeURIComponent(target.number));

    const check = (credential: string) =>
      t.app.inject({ method: 'POST', url: CERT_API.verifyCredential, payload: { credential } });
    const genuine = (await check(jwt)).json().data;
    expect(genuine).toMatchObject({ genuine: true, certificate: { number: target.number, state: 'valid' } });

    const [head, payload, signature] = jwt.split('.') as [string, string, string];
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    for (const forged of [
      `${head}.${flip(payload, 20)}.${signature}`,
      `${head}.${payload}.${flip(signature, 5)}`,
      'not a jwt',
    ]) {
      const res2 = await check(forged);
      expect(res2.statusCode).toBe(200);
      expect(res2.json().data).toEqual({ genuine: false, certificate: null });
      await expect(compactVerify(forged, createLocalJWKSet({ keys: [key!] }))).rejects.toThrow();
    }

    await w.call('boss', 'PUT', `${CERT_API.revoke}?userCertId=${target.id}`, { reason: 'Withdrawn' });
    const after = (await check(jwt)).json().data;
    expect(after).toMatchObject({ genuine: true, certificate: { state: 'revoked', revokeReason: 'Withdrawn' } });
  });

  it('reads an xlsx list as a dry run with per-row errors in the caller’s language', async () => {
    const template = await w.call('teach', 'GET', CERT_API.userTemplate, undefined, { language: 'en' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Username', 'Name']);
    sheet.spliceRows(2, 1);
    for (const row of [
      ['stu1', ''],
      ['stu1', ''],
      ['nobody', ''],
      ['stuX', ''],
      ['', 'Someone'],
      ['stu2', 'B'],
    ])
      sheet.addRow(row);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const { payload, type } = multipartFile('list.xlsx', file);
    const res = await t.app.inject({
      method: 'POST',
      url: `${CERT_API.uploadUserTemplate}?fileType=xlsx`,
      payload,
      headers: { 'content-type': type, 'x-authorization': w.tokens.teach!, language: 'en' },
    });
    const result = res.json().data;
    expect([result.valid, result.invalid]).toEqual([2, 4]);
    expect(result.rows.map((r: { row: number; error: string | null }) => [r.row, r.error])).toEqual([
      [2, null],
      [3, 'This student is already in an earlier row'],
      [4, 'No account has this username'],
      [5, 'This account is not one of your students'],
      [6, 'The username is empty'],
      [7, null],
    ]);
    expect(result.rows[0].user.userId).toBe(w.ids.stu1);
  });
});

describe('the verification rate limit', () => {
  it(`answers 429 (1109) after ${LIMIT} verifications a minute from one address`, async () => {
    const t = await createTestApp({
      config: {
        certificates: {
          signingKeyPem: undefined,
          fontFile: undefined,
          boldFontFile: undefined,
          verifyPerMinute: LIMIT,
        },
      },
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i <= LIMIT; i++) {
        codes.push(
          (await t.app.inject({ method: 'GET', url: `${CERT_API.verify}?number=PY2026112000${i}` })).statusCode,
        );
      }
      expect(codes.slice(0, LIMIT).every((c) => c === 404)).toBe(true);
      const last = await t.app.inject({ method: 'GET', url: `${CERT_API.verify}?number=PY20261120001` });
      expect([last.statusCode, last.json().errorCode]).toEqual([429, '1109']);
      const other = await t.app.inject({
        method: 'GET',
        url: `${CERT_API.verify}?number=X1`,
        remoteAddress: '203.0.113.9',
      });
      expect(other.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('the published keys beside the web app', () => {
  it('answers the JWKS, not the single-page app, at the well-known address', async () => {
    const webDist = mkdtempSync(path.join(os.tmpdir(), 'cert-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
    const t = await createTestApp({ config: { webDist } });
    try {
      const res = await t.app.inject({ method: 'GET', url: CERT_JWKS_PATH });
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().keys[0].kty).toBe('OKP');
      expect((await t.app.inject({ method: 'GET', url: '/pjedu/certificate-search' })).body).toContain(
        '<title>app</title>',
      );
    } finally {
      await t.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
