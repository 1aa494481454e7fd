import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
// From the source: the config is loaded before any workspace is built (the dev server, a build of the web alone).
import { escapeHtml } from '../contracts/src/html.js';
import { HTML_LANG, LANGUAGES, type Language } from '../contracts/src/languages.js';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, normalizePath, type Plugin, type Rolldown } from 'vite';
import { PATHS } from './src/app/paths.js';
import { STARTUP_NAMESPACES, type Namespace } from './src/locales/namespaces.js';

const backend = { target: 'http://127.0.0.1:8080', changeOrigin: false, ws: true };

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 512;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of the build, once,
 * so the server sends them as they are (server/src/platform/web-app.ts) instead of compressing on every request.
 * A copy that is not smaller than its file is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const deflate = promisify(gzip);
  return {
    name: 'aiedu:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter(
        // The manifest (.vite/) is read by tools, never served.
        (file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite'),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          if (!(await stat(full)).isFile()) return;
          const bytes = await readFile(full);
          if (bytes.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            }),
            deflate(bytes, { level: 9 }),
          ]);
          if (br.length < bytes.length) await writeFile(`${full}.br`, br);
          if (gz.length < bytes.length) await writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
}

/** antd's locale module of each product language (src/app/antd-locale.ts loads the same). */
const ANTD_LOCALES: Record<Language, string> = { en: 'en_US', zh_CHS: 'zh_CN', zh_CHT: 'zh_TW', ja: 'ja_JP' };

/**
 * The pages people land on, with the module src/app/routes.tsx loads for each and the text namespaces it reads.
 * The server announces their files with the page (see firstPaint), so they download beside the app's own code
 * instead of after it has run. A module missing from the build fails the build: this table follows routes.tsx.
 */
const LANDING_PAGES: { paths: string[]; module: string; namespaces: Namespace[]; antd?: boolean }[] = [
  { paths: [PATHS.home, PATHS.learnerHome], module: 'src/features/home/home-page.tsx', namespaces: ['home'] },
  {
    paths: [PATHS.login, PATHS.userLogin],
    module: 'src/features/sign/sign-pages.tsx',
    namespaces: ['sign'],
    antd: true,
  },
  {
    paths: [PATHS.courseCentre, PATHS.courses],
    module: 'src/features/course/course-centre-page.tsx',
    namespaces: ['course'],
    antd: true,
  },
  {
    paths: [`${PATHS.courses}/:courseId`],
    module: 'src/features/course/course-detail-page.tsx',
    namespaces: ['course', 'errors'],
    antd: true,
  },
];

/**
 * Pages whose index.html frame shows their title and lead in the visitor's language, where their first render draws
 * them, while the code downloads: text the visitor reads seconds earlier on a slow phone. Each is written to
 * `frames/<name>.<language>.html` and named in first-paint.json, and the server sends it for the page's path.
 * A frame with `fill` is the page's own head, whose `{{…}}` marks the server fills for the visitor from the database
 * (server/src/platform/web-app.ts), with the page's data beside it so the first render draws the same.
 */
const FRAMED_PAGES: {
  name: string;
  path: string;
  texts: Record<string, [Namespace, string]>;
  /** A card in the middle (the sign-in pages' SignCard), a page's head (title and lead), or a course's head. */
  layout: keyof typeof FRAME_LAYOUTS;
  fill?: 'course';
}[] = [
  {
    name: 'sign-in',
    path: PATHS.login,
    texts: { title: ['screens', 'login'], lead: ['sign', 'page.lead'] },
    layout: 'card',
  },
  {
    name: 'course-centre',
    path: PATHS.courseCentre,
    texts: { title: ['screens', 'courseCentre'], lead: ['course', 'centre.lead'] },
    layout: 'head',
  },
  {
    name: 'course',
    path: `${PATHS.courses}/:courseId`,
    texts: {
      by: ['course', 'detail.by'],
      version: ['course', 'detail.version'],
      status: ['course', 'status.published'],
    },
    layout: 'course',
    fill: 'course',
  },
];
const FRAME_LAYOUTS = {
  card: (t: Record<string, string>) =>
    `<div class="boot-shell__frame boot-shell__frame--card"><section class="boot-shell__card">` +
    `<h1>${t.title}</h1><p>${t.lead}</p></section></div>`,
  head: (t: Record<string, string>) =>
    `<div class="boot-shell__frame boot-shell__frame--head"><div><h1>${t.title}</h1><p>${t.lead}</p></div></div>`,
  // CourseDetailPage's head: the course's name, its by-line (the status tag only holds its place), its description.
  course: (t: Record<string, string>) =>
    `<div class="boot-shell__frame boot-shell__frame--head"><div><h1>{{title}}</h1>` +
    `<p>${t.by}<span> · ${t.version}</span><span class="boot-shell__tag">${t.status}</span></p>` +
    `<p>{{description}}</p></div></div>{{data}}`,
};
const FRAME_MARKS = /<!-- frame:[^>]*-->[\s\S]*<!-- \/frame -->/;

/** The component library's stylesheet, as src/app/antd-styles.ts imports it. */
const ANTD_STYLESHEET = 'virtual:antd-stylesheet';
/** Its rules for every link of the page (`a`, `a:hover`…): the library scopes them to its components at run time. */
const ANTD_GLOBAL_LINK_RULES = /(^|})(a(?::[a-z-]+|\[[a-z]+\])?(?:,a(?::[a-z-]+|\[[a-z]+\])?)*)\{/g;
const ANTD_COMPONENTS = ':where([class^="ant-"],[class*=" ant-"])';
/** Its default theme's variables, for the roots of its own build (`css-var-_R_…`; the app's roots are `_r_…`). */
const ANTD_BUILD_THEME_RULES = /\.css-var-_R_\w+_[^{}]*\{[^{}]*\}/g;

/**
 * The component library's whole stylesheet (antd/dist/antd.css, its rules reading the theme from CSS variables), as
 * a file of the build whose address `virtual:antd-stylesheet` exports; null on the dev server, which keeps the
 * library's run-time styles. Its link rules are scoped to the library's components as at run time, so the app's own
 * links (the footer's, the focus ring) keep their look, and the variables of its own build's default theme go: the
 * app's theme is written at run time.
 */
function antdStylesheet(): Plugin {
  let serve = false;
  return {
    name: 'aiedu:antd-stylesheet',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    resolveId: (source) => (source === ANTD_STYLESHEET ? `\0${ANTD_STYLESHEET}` : null),
    async load(id) {
      if (id !== `\0${ANTD_STYLESHEET}`) return null;
      if (serve) return 'export default null;';
      const file = createRequire(import.meta.url).resolve('antd/dist/antd.css');
      const css = (await readFile(file, 'utf8')).replace(ANTD_BUILD_THEME_RULES, '').replace(
        ANTD_GLOBAL_LINK_RULES,
        (_rule, before: string, selectors: string) =>
          `${before}${selectors
            .split(',')
            .map((selector) => `${ANTD_COMPONENTS} ${selector}`)
            .join(',')}{`,
      );
      const reference = this.emitFile({ type: 'asset', name: 'antd.css', source: css });
      return `export default import.meta.ROLLUP_FILE_URL_${reference};`;
    },
  };
}

/**
 * Writes `.vite/first-paint.json` (read by server/src/platform/web-app.ts, never served): the files every page needs
 * first (the app's entry, then the start's texts in each language) and, for each landing page, its code and texts.
 * The server sends them as Link headers, the entry first, so that over HTTP/1.1's few connections the entry is not
 * queued behind the rest.
 */
function firstPaint(): Plugin {
  let root = '';
  let outDir = '';
  const frameFile = (name: string, language: Language) => `frames/${name}.${language}.html`;
  return {
    name: 'aiedu:first-paint',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    /**
     * The entry's module scripts become downloads (modulepreload) that public/boot.js runs once the frame is drawn:
     * a browser with the code at hand would otherwise run it before its first paint.
     */
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const scripts = [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"><\/script>/g)];
        const entry = scripts.find(([, src]) => /\/assets\/app-[\w-]+\.js$/.test(src!))?.[1];
        if (!entry) throw new Error('first paint: index.html has no entry script');
        let boot = html;
        for (const [tag, src] of scripts)
          boot = boot.replace(tag, `<link rel="modulepreload" crossorigin href="${src}">`);
        return boot.replace('</head>', `  <script defer src="/boot.js" data-entry="${entry}"></script>\n  </head>`);
      },
    },
    /** The framed pages' index.html, once index.html is written (before precompress's closeBundle). */
    async writeBundle() {
      const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
      if (!FRAME_MARKS.test(html)) this.error('first paint: index.html has no <!-- frame --> marks');
      const text = async (language: Language, [namespace, key]: [Namespace, string]) => {
        const json = JSON.parse(await readFile(path.join(root, `src/locales/${language}/${namespace}.json`), 'utf8'));
        const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], json);
        if (typeof value !== 'string') this.error(`first paint: no text ${namespace}:${key} in ${language}`);
        return escapeHtml(value);
      };
      await mkdir(path.join(outDir, 'frames'), { recursive: true });
      for (const page of FRAMED_PAGES) {
        for (const language of LANGUAGES) {
          const texts: Record<string, string> = {};
          for (const [role, key] of Object.entries(page.texts)) texts[role] = await text(language, key);
          const frame = FRAME_LAYOUTS[page.layout](texts);
          const framed = html
            .replace('<html lang="en">', `<html lang="${HTML_LANG[language]}">`)
            .replace(FRAME_MARKS, frame);
          await writeFile(path.join(outDir, frameFile(page.name, language)), framed);
        }
      }
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
      const source = (file: string) => normalizePath(path.join(root, file));
      const byModule = (id: string) => {
        const chunk = chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) this.error(`first paint: ${path.relative(root, id)} is in no chunk; update LANDING_PAGES`);
        return chunk;
      };
      /** A chunk's file, the files it imports, and their CSS, as URL paths. */
      const closure = (first: Rolldown.OutputChunk[], skip: ReadonlySet<string> = new Set()) => {
        const files = new Set<string>();
        const visit = (chunk: Rolldown.OutputChunk) => {
          if (files.has(`/${chunk.fileName}`)) return;
          files.add(`/${chunk.fileName}`);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(`/${css}`);
          for (const name of chunk.imports) {
            const imported = bundle[name];
            if (imported?.type === 'chunk') visit(imported);
          }
        };
        first.forEach(visit);
        return [...files].filter((file) => !skip.has(file));
      };
      const textModule = (language: Language, namespace: Namespace) =>
        namespace === 'errors'
          ? source('src/locales/error-messages.ts')
          : source(`src/locales/${language}/${namespace}.json`);
      const antdLocale = (language: Language) => {
        const id = chunks
          .flatMap((c) => c.moduleIds)
          .find((m) => m.endsWith(`/antd/es/locale/${ANTD_LOCALES[language]}.js`));
        if (!id) this.error(`first paint: antd's ${ANTD_LOCALES[language]} locale is in no chunk`);
        return byModule(id);
      };

      const entry = closure([byModule(source('src/main.tsx'))]);
      const known = new Set(entry);
      const texts = Object.fromEntries(
        LANGUAGES.map((language) => [
          language,
          closure(
            STARTUP_NAMESPACES.map((ns) => byModule(textModule(language, ns))),
            known,
          ),
        ]),
      );
      const pages = LANDING_PAGES.map(({ paths, module, namespaces, antd }) => {
        const code = [byModule(source(module))];
        if (antd) code.push(byModule(source('src/app/antd-scope.tsx')));
        const files = closure(code, known);
        // A page people land on reads the contracts' constants, never their schemas: the schema library is about
        // a fifth of the code such a page runs before its first render (import from a `*-constants` module).
        const schemas = [...entry, ...files]
          .map((file) => bundle[file.slice(1)])
          .find((file) => file?.type === 'chunk' && file.moduleIds.some((id) => id.includes('/node_modules/zod/')));
        if (schemas) this.error(`first paint: ${paths[0]} loads the schema library (zod) in ${schemas.fileName}`);
        const pageTexts = Object.fromEntries(
          LANGUAGES.map((language) => {
            const modules = namespaces.map((ns) => byModule(textModule(language, ns)));
            if (antd) modules.push(antdLocale(language));
            return [language, closure(modules, new Set([...known, ...files, ...texts[language]!]))];
          }),
        );
        return { paths, files, languages: pageTexts };
      });
      this.emitFile({
        type: 'asset',
        fileName: '.vite/first-paint.json',
        source: JSON.stringify(
          {
            entry,
            languages: texts,
            pages,
            frames: FRAMED_PAGES.map(({ name, path: pagePath, fill }) => ({
              path: pagePath,
              files: Object.fromEntries(LANGUAGES.map((language) => [language, frameFile(name, language)])),
              ...(fill ? { fill } : {}),
            })),
          },
          null,
          2,
        ),
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), antdStylesheet(), firstPaint(), precompress()],
  // 'source' first so '@aiedu/contracts' resolves to its TypeScript source, not a build output.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/gw': backend,
      '/api': backend,
      '/api-docs': backend,
      '/.well-known': backend,
      '/healthz': backend,
      '/readyz': backend,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/bundle.bench.ts reads the manifest to add up what /home loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs first is one file, not twenty: over HTTP/1.1 each file costs a round trip.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
});
