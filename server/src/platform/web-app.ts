import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIXES, isLanguage, languageFromBrowser, SERVICE_PATHS, type Language } from '@aiedu/contracts';
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
  /** Pages whose own index.html frames their title and lead, one file per language (relative to the build). */
  frames?: { path: string; files: Partial<Record<Language, string>> }[];
}

interface FirstPaint {
  /** The Link header of a page: what its first paint needs, to be fetched while the browser still reads the page. */
  links: (url: string, language: Language) => string | undefined;
  /** The page's own index.html in the language, for a framed page; index.html for the others. */
  html: (url: string, language: Language) => string;
}

function readFirstPaint(webDist: string): FirstPaint | undefined {
  const file = path.join(webDist, '.vite', 'first-paint.json');
  if (!existsSync(file)) return undefined;
  const firstPaint = JSON.parse(readFileSync(file, 'utf8')) as FirstPaintFile;
  const frames = new Map(
    (firstPaint.frames ?? []).map((frame) => [
      frame.path,
      Object.fromEntries(
        Object.entries(frame.files).filter(([, name]) => name && existsSync(path.join(webDist, name))),
      ) as Partial<Record<Language, string>>,
    ]),
  );
  const pages = firstPaint.pages.map((page) => ({
    ...page,
    // `/pjedu/courses/:courseId` matches one segment in place of each parameter.
    patterns: page.paths.map((p) => new RegExp(`^${p.replace(/:[^/]+/g, '[^/]+')}/?$`)),
  }));
  const html = (url: string, language: Language) => frames.get(url.replace(/(.)\/$/, '$1'))?.[language] ?? 'index.html';
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
  return { links, html };
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
 * in the visitor's language while the code downloads.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined) {
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
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0]!;
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasWeb && wantsPage && !isApiPath(url) && !url.startsWith('/assets/')) {
      const language = pageLanguage(app, request);
      const links = firstPaint?.links(url, language);
      if (links) reply.header('link', links);
      // A framed page's frame is in the visitor's language: a cache keeps one copy per language.
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding, accept-language, cookie')
        .sendFile(firstPaint?.html(url, language) ?? 'index.html');
    }
    return sendError(request, reply, new AppError('NOT_FOUND'));
  });
}
