import { Readable } from 'node:stream';
import type { TCertDesign, TCertElementStyle } from '@aiedu/contracts';
import sharp from 'sharp';
import type { AppContext } from '../../platform/context.js';
import type { CertificateValues } from './render-page.js';

/** A sample certificate for the rendering's tests and benchmark: a portrait design using every part. */

const part = (x: number, y: number, width: number, extra: Partial<TCertElementStyle> = {}): TCertElementStyle => ({
  x,
  y,
  width,
  fontSize: 20,
  color: '#222222',
  align: 'center',
  font: 'regular',
  visible: true,
  label: '',
  ...extra,
});

export function sampleDesign(overrides: Partial<TCertDesign> = {}): TCertDesign {
  return {
    layout: 'portrait',
    backgroundKey: 'certificates/sample/background.png',
    sealKey: 'certificates/sample/seal.png',
    title: '荣誉证书 Certificate',
    content:
      '{name} 在 {awardFor} 中表现优异，特发此证。 For outstanding work in {awardFor}, issued {date} by {issuer}.',
    language: 'zh_CHS',
    elements: {
      title: part(50, 90, 550, { fontSize: 44, font: 'bold', color: '#8b0000' }),
      name: part(50, 240, 550, { fontSize: 40, font: 'bold' }),
      content: part(90, 340, 470, { fontSize: 20, align: 'left' }),
      number: part(60, 780, 300, { fontSize: 14, align: 'left', label: '证书编号：' }),
      date: part(290, 810, 300, { fontSize: 14, align: 'right', label: '' }),
      seal: part(420, 620, 140),
      qr: part(60, 640, 110),
    },
    ...overrides,
  };
}

export const sampleValues = (overrides: Partial<CertificateValues> = {}): CertificateValues => ({
  holderName: '張偉 王芳 さくら 髙橋 Anna',
  awardFor: '人工智能编程大赛 AI Programming Contest',
  number: 'AI202611280001',
  issueDate: '2026-11-28',
  issuerName: '示范学校 Demo School',
  verifyUrl: 'https://edu.example.org/pjedu/certificate-search?number=AI202611280001',
  ...overrides,
});

/** A pale background with a border and a red ring for the seal, drawn from raw pixels (the same on every machine). */
export async function sampleImages(): Promise<Record<string, Buffer>> {
  const w = 650;
  const h = 930;
  const bg = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const edge = Math.min(x, y, w - 1 - x, h - 1 - y);
      const i = (y * w + x) * 3;
      const border = edge >= 20 && edge < 28;
      bg[i] = border ? 180 : 252;
      bg[i + 1] = border ? 140 : 248;
      bg[i + 2] = border ? 60 : 236;
    }
  }
  const s = 200;
  const seal = Buffer.alloc(s * s * 4);
  for (let y = 0; y < s; y++) {
    for (let x = 0; x < s; x++) {
      const r = Math.hypot(x - s / 2, y - s / 2);
      const i = (y * s + x) * 4;
      const ink = (r > 80 && r < 96) || (r < 30 && Math.abs(x - y) < 8);
      seal[i] = 210;
      seal[i + 1] = 20;
      seal[i + 2] = 20;
      seal[i + 3] = ink ? 255 : 0;
    }
  }
  return {
    'certificates/sample/background.png': await sharp(bg, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer(),
    'certificates/sample/seal.png': await sharp(seal, { raw: { width: s, height: s, channels: 4 } })
      .png()
      .toBuffer(),
  };
}

/** A context with only what rendering reads: the configuration and a storage holding `files`. */
export function renderContext(
  files: Record<string, Buffer>,
  certificates: Partial<AppContext['config']['certificates']> = {},
) {
  const storage = {
    async get(key: string) {
      const bytes = files[key];
      if (!bytes) throw new Error('NOT_FOUND');
      return { stream: Readable.from([bytes]), size: bytes.length };
    },
  };
  return {
    config: {
      publicUrl: 'https://edu.example.org',
      certificates: {
        signingKeyPem: undefined,
        fontFile: undefined,
        boldFontFile: undefined,
        verifyPerMinute: 30,
        ...certificates,
      },
    },
    storage,
  } as unknown as AppContext;
}
