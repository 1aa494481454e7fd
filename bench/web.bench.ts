import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API, COURSE_API } from '@aiedu/contracts';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import { startServerProcess, stopServerProcess } from './server-process.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.js';

const CHROMIUM = CHROMIUM_PATH;
/** Each page is measured this many times per preset; the median is printed. */
const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 2);
/** A folder to keep every Lighthouse report in (JSON), to see what a figure is made of. */
const REPORTS = process.env.WEB_BENCH_REPORTS;
/** Only the pages whose path holds one of these (comma-separated), and only these presets (`mobile,desktop`). */
const ONLY_PAGES = process.env.WEB_BENCH_PAGES?.split(',').filter(Boolean);
const ONLY_PRESETS = process.env.WEB_BENCH_PRESETS?.split(',').filter(Boolean);

const DEMO_TEACHER = { custcode: 'demo2026', username: 'teacher1', password: 'Teacher@2026' };

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  cls: number;
  tbt: number;
  bytes: number;
}

async function call<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers['X-Authorization'] = init.token;
  const response = await fetch(url, { ...init, headers });
  const body = (await response.json()) as { errorCode: string; errorMsg: string; data: T };
  if (body.errorCode !== '1000') throw new Error(`${init.method ?? 'GET'} ${url}: ${body.errorCode} ${body.errorMsg}`);
  return body.data;
}

/**
 * The demo teacher shares the seeded starter courses with everyone, as a school shares a course on its site, so a
 * visitor's course centre lists them; answers the id of the newest one for its detail page.
 */
async function shareDemoCourses(base: string): Promise<string> {
  const login = await call<{ token: string }>(`${base}${API.authLogin}`, {
    method: 'POST',
    body: JSON.stringify({
      custcode: DEMO_TEACHER.custcode,
      usernameOrEmailOrPhone: DEMO_TEACHER.username,
      password: Buffer.from(DEMO_TEACHER.password).toString('base64'),
    }),
  });
  const courses = await call<{ id: string }[]>(`${base}${COURSE_API.mine}`, { token: login.token });
  if (courses.length === 0) throw new Error('the demo school has no course: were the starter courses seeded?');
  for (const { id } of courses) {
    await call(`${base}${COURSE_API.base}/${id}`, {
      method: 'PUT',
      token: login.token,
      body: JSON.stringify({ publicScope: 'public' }),
    });
  }
  const centre = await call<{ list: { id: string }[] }>(`${base}${COURSE_API.centre}?size=1`);
  const newest = centre.list[0];
  if (!newest) throw new Error('the course centre lists no course for a visitor');
  return newest.id;
}

/**
 * One Lighthouse run. A run whose trace Lighthouse could not record (it says so, e.g. NO_NAVSTART on a busy
 * machine) measured nothing and is run again, up to three times.
 */
async function audit(url: string, port: number, config: Config | undefined) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      config,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (!result.lhr.runtimeError) return result;
    if (attempt === 3) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  }
}

function figuresOf(result: Result): Figures {
  const audit = (id: string) => {
    const value = result.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse gave no ${id} for ${result.finalDisplayedUrl}`);
    return value;
  };
  return {
    score: result.categories.performance?.score ?? 0,
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbt: audit('total-blocking-time'),
    bytes: audit('total-byte-weight'),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function format(figures: Figures[]): string {
  const m = (key: keyof Figures) => median(figures.map((f) => f[key]));
  return [
    `performance ${m('score').toFixed(2)}`,
    `FCP ${(m('fcp') / 1000).toFixed(1)} s`,
    `LCP ${(m('lcp') / 1000).toFixed(1)} s`,
    `CLS ${m('cls').toFixed(3)}`,
    `TBT ${Math.round(m('tbt'))} ms`,
    `${Math.round(m('bytes') / 1024)} KiB`,
  ].join(' · ');
}

/**
 * Lighthouse 12 (performance only) on four pages a visitor opens on a phone, against the built server in a process
 * of its own with the demo school: the landing page, the sign-in page, the course centre and a course's page. The
 * mobile preset (Moto G Power emulation, slow 4G and a 4× slower CPU, simulated) and the desktop preset, each page
 * RUNS times, the median printed.
 */
export async function benchWeb(): Promise<string[]> {
  if (!existsSync(CHROMIUM))
    return [`(Chromium not found at ${CHROMIUM}: install it with apt-get install -y chromium)`];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-lighthouse-'));
  const { url, child } = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: 'true' });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const courseId = await shareDemoCourses(url);
    const pages = [
      { name: 'Landing page', path: '/home' },
      { name: 'Sign-in page', path: '/portal/sign/login' },
      { name: 'Course centre', path: '/pjedu/course' },
      { name: 'Course page', path: `/pjedu/courses/${courseId}` },
    ].filter((page) => !ONLY_PAGES || ONLY_PAGES.some((only) => page.path.includes(only)));
    const presets = [
      { name: 'mobile', config: undefined as Config | undefined },
      { name: 'desktop', config: desktopConfig as Config | undefined },
    ].filter((preset) => !ONLY_PRESETS || ONLY_PRESETS.includes(preset.name));
    if (REPORTS) mkdirSync(REPORTS, { recursive: true });
    const lines: string[] = [];
    const benchmarkIndexes: number[] = [];
    for (const page of pages) {
      for (const preset of presets) {
        const figures: Figures[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const result = await audit(`${url}${page.path}`, chrome.port, preset.config);
          figures.push(figuresOf(result.lhr));
          benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
          if (REPORTS) {
            const name = `${page.name.toLowerCase().replaceAll(' ', '-')}.${preset.name}.${run}.json`;
            writeFileSync(path.join(REPORTS, name), JSON.stringify(result.lhr));
          }
        }
        lines.push(`${page.name} (${page.path.replace(courseId, ':id')}), ${preset.name}: ${format(figures)}`);
      }
    }
    // Lighthouse's measure of this machine's speed (higher is faster): simulated figures scale with it,
    // and with the other work on the machine, which the load average shows.
    const header =
      `Lighthouse 12 (simulated throttling), median of ${RUNS} runs per page and preset; host benchmark index ` +
      `${Math.round(median(benchmarkIndexes))}, load average ${os.loadavg()[0]!.toFixed(1)} at the end`;
    return [header, ...lines];
  } finally {
    chrome.kill();
    await stopServerProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
