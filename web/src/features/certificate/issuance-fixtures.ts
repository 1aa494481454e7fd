import {
  CERT_API,
  SCHEDULE_API,
  type TCert,
  type TCertCandidate,
  type TCertIssuance,
  type TCertReviewItem,
  type TUserCert,
} from '@aiedu/contracts';
import { vi } from 'vitest';
import { fail, ok, type FakeServer } from '../../test/fake-api';
import { ADMIN_API } from '../admin/admin-api';

// Fixtures of the issuing and holders' screens, and the fake server's answers they read.

export const CERT_ID = '01935f6c-0000-7000-8000-000000000001';
export const CLASS_ID = '01935f6c-0000-7000-8000-0000000000c1';
export const ISSUANCE_ID = '01935f6c-0000-7000-8000-0000000000a1';
const stamp = '2026-11-20T08:00:00+08:00';

export const TEMPLATE: TCert = {
  id: CERT_ID,
  name: 'Robotics contest',
  type: 'activity',
  remark: '',
  layout: 'landscape',
  creatorId: 'u-1',
  creatorName: 'Admin',
  numberRule: { prefix: 'AI', digits: 4 },
  backgroundUrl: null,
  issuedCount: 0,
  createdAt: stamp,
  updatedAt: stamp,
};

export const student = (n: number, extra: Partial<TCertCandidate> = {}): TCertCandidate => ({
  userId: `01935f6c-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`,
  username: `stu${n}`,
  realName: `Student ${n}`,
  schoolName: 'Demo School',
  className: 'Grade 1 Class 1',
  ...extra,
});

export const issuance = (extra: Partial<TCertIssuance> = {}): TCertIssuance => ({
  id: ISSUANCE_ID,
  certId: CERT_ID,
  certName: TEMPLATE.name,
  awardFor: 'First prize',
  issueDate: '2026-11-20',
  source: 'class',
  state: 'issued',
  refuseReason: null,
  pendingReviewId: null,
  issuerId: 'u-1',
  issuerName: 'Admin',
  holderCount: 2,
  createdAt: stamp,
  decidedAt: null,
  ...extra,
});

export const userCert = (n: number, extra: Partial<TUserCert> = {}): TUserCert => ({
  id: `01935f6c-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`,
  issuanceId: ISSUANCE_ID,
  certId: CERT_ID,
  certName: TEMPLATE.name,
  certType: 'activity',
  userId: student(n).userId,
  username: `stu${n}`,
  holderName: `Student ${n}`,
  awardFor: 'First prize',
  number: `AI20261120${String(n).padStart(4, '0')}`,
  state: 'valid',
  issuedAt: stamp,
  revokedAt: null,
  revokeReason: null,
  replacedById: null,
  replacedByNumber: null,
  issuerName: 'Demo School',
  ...extra,
});

export const reviewItem = (extra: Partial<TCertReviewItem> = {}): TCertReviewItem => ({
  ...issuance({ state: 'pending' }),
  reviewId: '01935f6c-0000-7000-8000-0000000003f1',
  ...extra,
});

const page = <T>(list: T[]) => ok({ list, total: list.length, page: 1, size: 20 });
export const PDF = { body: '%PDF-1.7 fake', contentType: 'application/pdf' };

/** The answers every tab of the issuing screen reads; a test overrides the ones it is about. */
export function answerIssuing(server: FakeServer, { auditor = false }: { auditor?: boolean } = {}) {
  server.on(`GET ${CERT_API.certIss}`, () => page([issuance()]));
  server.on(`GET ${CERT_API.certOptions}`, () => ok([TEMPLATE]));
  server.on(`GET ${CERT_API.certDetail}`, () => ok({ ...TEMPLATE, design: {}, sealUrl: null }));
  server.on(`GET ${CERT_API.userCert}`, () => page([userCert(1), userCert(2)]));
  server.on(`GET ${CERT_API.review}`, () =>
    auditor ? ok([reviewItem()]) : fail('4405', 'Only auditors review issuances', 403),
  );
  server.on(`GET ${CERT_API.reviewHistory}`, () => ok([]));
  server.on(`GET ${CERT_API.auditor}`, () => ok([]));
  server.on(`GET ${CERT_API.auditorSettings}`, () => ok({ reviewRequired: true }));
  server.on(`GET ${SCHEDULE_API.options}`, () =>
    ok({
      teachers: [],
      classes: [{ id: CLASS_ID, name: 'Grade 1 Class 1', eduStage: 'primary', grade: 1, stuCount: 2 }],
    }),
  );
  server.on(`GET ${ADMIN_API.classes}/options`, () =>
    ok([{ id: CLASS_ID, schoolId: 's-1', eduStage: 'primary', grade: 1, className: 'Grade 1 Class 1' }]),
  );
  server.on(`GET ${CERT_API.candidates}`, () => ok([student(1), student(2)]));
  server.on(`POST ${CERT_API.preview}`, () => PDF);
  server.on(`GET ${CERT_API.pdf}`, () => PDF);
}

/** Downloads in the test DOM: object URLs exist, and each saved file's name is recorded. */
export function catchDownloads() {
  const saved: string[] = [];
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:fake'), revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.download) saved.push(this.download);
  });
  return saved;
}
