import { CERT_API, type TCert, type TCertDetail } from '@aiedu/contracts';
import { ok, type FakeServer } from '../../test/fake-api';
import { defaultDesign } from './designer-model';

// Fixtures of the templates list and the designer, and the fake server's answers they read.

export const TEMPLATE_ID = '01935f6c-0000-7000-8000-0000000000d1';
const stamp = '2026-11-20T08:00:00+08:00';

export const aTemplate = (extra: Partial<TCert> = {}): TCert => ({
  id: TEMPLATE_ID,
  name: 'Robotics contest',
  type: 'activity',
  remark: 'Spring term',
  layout: 'landscape',
  creatorId: 'u-1',
  creatorName: 'Admin',
  numberRule: { prefix: 'AB', digits: 4 },
  backgroundUrl: null,
  issuedCount: 12,
  createdAt: stamp,
  updatedAt: stamp,
  ...extra,
});

export const aTemplateDetail = (extra: Partial<TCertDetail> = {}): TCertDetail => ({
  ...aTemplate(),
  design: { ...defaultDesign('en'), title: 'Certificate of Achievement', content: '{name} took part in {awardFor}.' },
  sealUrl: null,
  ...extra,
});

export const FAKE_PDF = '%PDF-1.7\n%%EOF\n';

/** The answers the designer reads: the next number and the preview. */
export function answerDesigner(server: FakeServer) {
  server.on(`GET ${CERT_API.nextNumber}`, (request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    return ok({ number: `${query.get('prefix')}20261128${'1'.padStart(Number(query.get('digits')), '0')}` });
  });
  server.on(`POST ${CERT_API.preview}`, () => ({ body: FAKE_PDF, contentType: 'application/pdf' }));
}
