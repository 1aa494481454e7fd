import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import {
  API_PREFIXES,
  escapeHtml,
  isLanguage,
  languageFromBrowser,
  SERVICE_PATHS,
  type Language,
} from '@aiedu/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { sendError } from './error-handler.js';

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix)) || url.startsWith(SERVICE_PATHS.apiDocs);
}

/** The cookie the web app keeps the chosen language in (web/src/app/i18n.ts). */
const LANGUAGE_COOKIE = 'language';

/** `.vite/first-paint.json`, written by the web build (web/vite.config.ts). */
interface FirstPaintFile {
  entry: string[];
  languages: Partial<Record<Language, string[]>>;
  pages: { paths: string[]; files: string[]; languages: Partial<Record<Language, string[]>> }[];
  /**
   * Pages whose own index.html frames their title and lead, one file per language (relative to the build). A frame
   * with `fill` has `{{…}}` marks that the filler of that name fills for the visitor.
   */
  frames?: { path: string; files: Partial<Record<Language, string>>; fill?: string }[];
}

/**
 * What a filled frame shows a visitor, read from the database: the text of each `{{mark}}` (escaped here), and the
 * page's data for the app's first render (`data`, see web/src/app/page-data.ts). Null when the page shows this
 * visitor nothing it may show everyone (a course that is not public, a signed-in user whose page is their own):
 * they get index.html.
 */
export interface PageFill {
  texts: Record<string, string>;
  data?: { api: string; body: unknown };
}
export type PageFiller = (params: Record<string, string>, request: FastifyRequest) => Promise<PageFill | null>;

interface FirstPaint {
  /** The Link header of a page: what its first paint needs, to be fetched while the browser still reads the page. */
  links: (url: string, language: Language) => string | undefined;
  /** The page's framed index.html in the language: a file of the build, or a filled frame's template. */
  frame: (
    url: string,
    language: Language,
  ) => { file: string } | { template: string; fill: string; params: Record<string, string> } | undefined;
}

/** `/pjedu/courses/:courseId` as a pattern matching one segment in place of each parameter, the parameters named. */
const pathPattern = (pagePath: string) => new RegExp(`^${pagePath.replace(/:([^/]+)/g, '(?<$1>[^/]+)')}/?$`);

function readFirstPaint(webDist: string): FirstPaint | undefined {
  const file = path.join(webDist, '.vite', 'first-paint.json');
  if (!existsSync(file)) return undefined;
  const firstPaint = JSON.parse(readFileSync(file, 'utf8')) as FirstPaintFile;
  const frames = (firstPaint.frames ?? []).map((frame) => {
    const files = Object.entries(frame.files).filter(([, name]) => name && existsSync(path.join(webDist, name)));
    return {
      pattern: pathPattern(frame.path),
      fill: frame.fill,
      files: Object.fromEntries(files) as Partial<Record<Language, string>>,
      // A filled frame is a template, read once.
      templates: Object.fromEntries(
        frame.fill ? files.map(([language, name]) => [language, readFileSync(path.join(webDist, name!), 'utf8')]) : [],
      ) as Partial<Record<Language, string>>,
    };
  });
  const pages = firstPaint.pages.map((page) => ({ ...page, patterns: page.paths.map(pathPattern) }));
  const frame: FirstPaint['frame'] = (url, language) => {
    for (const { pattern, fill, files, templates } of frames) {
      const match = pattern.exec(url);
      if (!match) continue;
      const template = templates[language];
      if (fill) return template ? { template, fill, params: { ...match.groups } } : undefined;
      const name = files[language];
      return name ? { file: name } : undefined;
    }
    return undefined;
  };
  const links = (url: string, language: Language) => {
    const page = pages.find(({ patterns }) => patterns.some((pattern) => pattern.test(url)));
    const files = new Set([
      ...firstPaint.entry,
      ...(firstPaint.languages[language] ?? []),
      ...(page?.files ?? []),
      ...(page?.languages[language] ?? []),
    ]);
    return [...files]
      .map((f) => (f.endsWith('.css') ? `<${f}>; rel=preload; as=style; crossorigin` : `<${f}>; rel=modulepreload`))
      .join(', ');
  };
  return { links, frame };
}

/**
 * A filled frame: each `{{mark}}` the filler answered becomes its escaped text; `{{data}}`, the page's data as a JSON
 * block that never runs (the Content-Security-Policy allows no inline script) and cannot close its element.
 */
function fillFrame(template: string, fill: PageFill): string {
  const data = fill.data
    ? `<script type="application/json" id="page-data">${JSON.stringify(fill.data).replace(/</g, '\\u003c')}</script>`
    : '';
  return template.replace(/\{\{(\w+)\}\}/g, (mark, name: string) =>
    name === 'data' ? data : name in fill.texts ? escapeHtml(fill.texts[name]!) : mark,
  );
}

/** A page made for one visitor, compressed as the browser accepts (quickly: it is sent once). */
function sendPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.type('text/html; charset=utf-8');
  if (/\bbr\b/.test(accepts)) {
    return reply
      .header('content-encoding', 'br')
      .send(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
  return reply.send(html);
}

/** The language the web app will start in: its cookie, else the browser's first language. */
function pageLanguage(app: FastifyInstance, request: FastifyRequest): Language {
  const saved = request.headers.cookie ? app.parseCookie(request.headers.cookie)[LANGUAGE_COOKIE] : undefined;
  if (isLanguage(saved)) return saved;
  return languageFromBrowser(request.headers['accept-language']?.split(/[,;]/, 1)[0]?.trim());
}

/**
 * Serves the built single-page app: hashed assets with a long cache, and index.html for every other GET
 * so the browser's router can show the page (or its own page-not-found). Unknown API paths answer 404 JSON.
 * The build writes a Brotli and a gzip copy beside each text file (web/vite.config.ts); the one the browser
 * accepts is sent as it is, index.html included, and the file itself to a browser that accepts neither.
 * index.html comes with Link headers naming the files its first paint needs in the visitor's language (the app's
 * entry first, then the start's texts, then a landing page's code and texts), so they download at once instead of
 * after the app has run. They are hints: a cache that serves them for another language only wastes a download.
 * A framed page (web/vite.config.ts, FRAMED_PAGES) gets its own index.html, whose frame shows its title and lead
 * in the visitor's language while the code downloads; a filled frame (a course's page) is filled for the visitor by
 * the filler of its name (`fillers`), with the page's data for the first render.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string | undefined,
  fillers: Record<string, PageFiller> = {},
) {
  const hasWeb = Boolean(webDist && existsSync(path.join(webDist, 'index.html')));
  const firstPaint = hasWeb ? readFirstPaint(webDist!) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are found beside their file; they get no address of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0]!;
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasWeb && wantsPage && !isApiPath(url) && !url.startsWith('/assets/')) {
      const language = pageLanguage(app, request);
      const links = firstPaint?.links(url, language);
      if (links) reply.header('link', links);
      // A framed page's frame is in the visitor's language: a cache keeps one copy per language.
      reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, accept-language, cookie');
      const frame = firstPaint?.frame(url, language);
      if (frame && 'template' in frame) {
        const filler = fillers[frame.fill];
        // A frame the database cannot fill now leaves the page to the app: never an error page for it.
        const fill = filler
          ? await filler(frame.params, request).catch((error: unknown) => {
              request.log.warn({ err: error, url }, 'page frame not filled');
              return null;
            })
          : null;
        if (fill) return sendPage(request, reply, fillFrame(frame.template, fill));
      }
      return reply.sendFile(frame && 'file' in frame ? frame.file : 'index.html');
    }
    return sendError(request, reply, new AppError('NOT_FOUND'));
  });
}
