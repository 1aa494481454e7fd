import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TCertDesign } from '@aiedu/contracts';
import { renderPages, type CertificatePage } from '../server/src/modules/certificate/render-page.js';
import {
  renderContext,
  sampleDesign,
  sampleImages,
  sampleValues,
} from '../server/src/modules/certificate/render-samples.js';

/**
 * Certificate PDFs: a class of 40 rendered as one merged PDF (fonts subset and embedded once), and a single
 * certificate, with the embedded Noto Sans SC (Chinese and Japanese names, then Latin ones) next to the same
 * template drawn in the standard Helvetica with no font embedded. Each variant runs in a process of its own so
 * that its peak memory (max RSS) is its own.
 */

const CLASS = 40;
const SECONDS = 4;
const VARIANTS = ['embedded-cjk', 'embedded-latin', 'standard-latin'] as const;
type Variant = (typeof VARIANTS)[number];

interface Figures {
  variant: Variant;
  firstMs: number;
  mergedPagesPerSecond: number;
  mergedMs: number;
  mergedBytes: number;
  singlePerSecond: number;
  singleBytes: number;
  baseRssMb: number;
  peakRssMb: number;
}

function latinDesign(): TCertDesign {
  const design = sampleDesign({
    title: 'Certificate of Achievement',
    content: '{name} has completed {awardFor} with distinction. Issued on {date} by {issuer}.',
    language: 'en',
  });
  return { ...design, elements: { ...design.elements, number: { ...design.elements.number, label: 'No.' } } };
}

function classOf(variant: Variant): CertificatePage[] {
  const cjk = variant === 'embedded-cjk';
  const design = cjk ? sampleDesign() : latinDesign();
  const family = ['張', '王', '李', '髙橋', 'さくら'];
  return Array.from({ length: CLASS }, (_, i) => ({
    design,
    values: sampleValues({
      holderName: cjk ? `${family[i % family.length]}${'伟芳娜静敏'[i % 5]}${i + 1}` : `Student Number ${i + 1}`,
      awardFor: cjk ? '人工智能编程大赛 AI Programming Contest' : 'AI Programming Contest',
      issuerName: cjk ? '示范学校 Demo School' : 'Demo School',
      number: `AI2026112800${String(i + 1).padStart(2, '0')}`,
    }),
  }));
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Runs in the child process: renders for a few seconds and prints its figures as JSON. */
async function measure(variant: Variant): Promise<Figures> {
  const ctx = renderContext(await sampleImages());
  const pages = classOf(variant);
  const options = { standardFonts: variant === 'standard-latin' };
  const baseRssMb = mb(process.memoryUsage().rss);
  let started = performance.now();
  await renderPages(ctx, pages.slice(0, 1), options);
  const firstMs = performance.now() - started;

  let merged: Uint8Array = new Uint8Array();
  let rounds = 0;
  started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    merged = await renderPages(ctx, pages, options);
    rounds++;
  }
  const mergedSeconds = (performance.now() - started) / 1000;

  let single: Uint8Array = new Uint8Array();
  let singles = 0;
  started = performance.now();
  while (performance.now() - started < (SECONDS / 2) * 1000) {
    single = await renderPages(ctx, [pages[singles % CLASS]!], options);
    singles++;
  }
  const singleSeconds = (performance.now() - started) / 1000;
  return {
    variant,
    firstMs: Math.round(firstMs),
    mergedPagesPerSecond: Math.round((rounds * CLASS) / mergedSeconds),
    mergedMs: Math.round((mergedSeconds * 1000) / rounds),
    mergedBytes: merged.length,
    singlePerSecond: Math.round(singles / singleSeconds),
    singleBytes: single.length,
    baseRssMb,
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

function inChild(variant: Variant): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--variant', variant], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${variant} renderer exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Figures);
    });
  });
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export async function benchCertificates(): Promise<string[]> {
  const figures: Figures[] = [];
  for (const variant of VARIANTS) figures.push(await inChild(variant));
  const base = figures.find((f) => f.variant === 'standard-latin')!;
  const lines = [
    `class of ${CLASS} as one merged PDF, ${SECONDS} s per variant, each variant in its own process`,
    '| variant | first PDF (ms, fonts parsed) | merged: pages/s | ms per class | merged size | single: PDFs/s | single size | RSS before → peak (MB) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    lines.push(
      `| ${f.variant} | ${f.firstMs} | ${f.mergedPagesPerSecond} | ${f.mergedMs} | ${Math.round(f.mergedBytes / 1024)} KB | ${f.singlePerSecond} | ${Math.round(f.singleBytes / 1024)} KB | ${f.baseRssMb} → ${f.peakRssMb} |`,
    );
  }
  for (const f of figures.filter((x) => x !== base)) {
    lines.push(
      `${f.variant} vs standard-latin: merged pages/s ${ratio(f.mergedPagesPerSecond, base.mergedPagesPerSecond)}, ` +
        `single PDFs/s ${ratio(f.singlePerSecond, base.singlePerSecond)}, merged size ${ratio(f.mergedBytes, base.mergedBytes)}, ` +
        `peak RSS ${ratio(f.peakRssMb, base.peakRssMb)}`,
    );
  }
  return lines;
}

const variantArg = process.argv.indexOf('--variant');
if (variantArg > 0 && process.argv[1] === fileURLToPath(import.meta.url)) {
  const variant = process.argv[variantArg + 1] as Variant;
  if (!VARIANTS.includes(variant)) throw new Error(`unknown variant ${variant}`);
  process.stdout.write(`${JSON.stringify(await measure(variant))}\n`);
}
