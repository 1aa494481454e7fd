import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COURSE_LEVELS, LANGUAGES, RUNTIME_ENVIRONMENTS, ZCheckTest, type Language } from '@aiedu/contracts';
import { z } from 'zod';

/** The starter courses shipped in the repository (content/starter, format in its README.md). */
export const STARTER_DIR = fileURLToPath(new URL('../../../../content/starter/', import.meta.url));

const localized = z.object({ en: z.string(), zh_CHS: z.string(), zh_CHT: z.string(), ja: z.string() });

const ZStarterManifest = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,60}$/),
  order: z.number().int(),
  environment: z.enum(RUNTIME_ENVIRONMENTS),
  levels: z.array(z.enum(COURSE_LEVELS)).min(1),
  direction: z.string(),
  stage: z.string(),
  difficulty: z.string(),
  experiments: z.record(
    z.string(),
    z.object({
      notebook: z.string().regex(/^[\w.-]+\.ipynb$/),
      timeoutSeconds: z.number().int().min(5).max(3600),
      tests: z
        .array(
          z.object({
            name: localized,
            hint: localized.optional(),
            points: ZCheckTest.shape.points,
            code: ZCheckTest.shape.code,
          }),
        )
        .min(1),
    }),
  ),
});

const ZStarterQuestion = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['single', 'multiple']),
    prompt: z.string().min(1).max(2000),
    options: z.array(z.string().min(1).max(200)).min(2).max(10),
    answer: z.array(z.number().int().min(0)).min(1),
  }),
  z.object({ type: z.literal('short'), prompt: z.string().min(1).max(2000) }),
  z.object({ type: z.literal('experiment'), prompt: z.string().min(1).max(2000), experiment: z.string() }),
]);

const ZStarterLocale = z.object({
  name: z.string().min(1).max(50),
  description: z.string().max(500),
  tags: z.array(z.string().min(1).max(20)).max(5),
  chapters: z
    .array(
      z.object({
        title: z.string().min(1).max(50),
        sections: z
          .array(
            z.object({
              title: z.string().min(1).max(50),
              content: z.string(),
              resources: z.array(z.string()).max(10).default([]),
              tasks: z
                .array(z.object({ title: z.string().min(1).max(50), questions: z.array(ZStarterQuestion).min(1) }))
                .default([]),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

export type StarterManifest = z.infer<typeof ZStarterManifest>;
export type StarterLocale = z.infer<typeof ZStarterLocale>;

export interface StarterCourse {
  dir: string;
  manifest: StarterManifest;
  locales: Record<Language, StarterLocale>;
}

/** A file of a starter course, by its path inside the course's folder (never outside it). */
export function starterFile(course: StarterCourse, relative: string): Buffer {
  const file = path.resolve(course.dir, relative);
  if (!file.startsWith(course.dir + path.sep)) throw new Error(`${relative}: outside the course folder`);
  return readFileSync(file);
}

/** The files of an experiment's `files/` folder, by their path inside it. */
export function experimentFiles(course: StarterCourse, key: string): { path: string; content: Buffer }[] {
  const root = path.join(course.dir, 'experiment', key, 'files');
  if (!existsSync(root)) return [];
  const out: { path: string; content: Buffer }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ path: path.relative(root, full), content: readFileSync(full) });
    }
  };
  walk(root);
  return out;
}

function readCourse(dir: string): StarterCourse {
  const json = (name: string) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown;
  const manifest = ZStarterManifest.parse(json('course.json'));
  const locales = Object.fromEntries(
    LANGUAGES.map((language) => [language, ZStarterLocale.parse(json(`${language}.json`))]),
  ) as Record<Language, StarterLocale>;
  const course = { dir, manifest, locales };
  // Every file a language names is there, and every experiment it names is described: checked once, at load.
  for (const language of LANGUAGES) {
    for (const chapter of locales[language].chapters) {
      for (const section of chapter.sections) {
        starterFile(course, section.content);
        for (const resource of section.resources) starterFile(course, resource);
        for (const q of section.tasks.flatMap((t) => t.questions)) {
          if (q.type !== 'experiment') continue;
          if (!manifest.experiments[q.experiment]) throw new Error(`${dir}: unknown experiment ${q.experiment}`);
          starterFile(course, `experiment/${q.experiment}/template.${language}.ipynb`);
        }
      }
    }
  }
  return course;
}

let catalogue: StarterCourse[] | null = null;

/** Every starter course, in their order; read and checked once per process. */
export function starterCourses(): StarterCourse[] {
  if (catalogue) return catalogue;
  const dirs = existsSync(STARTER_DIR)
    ? readdirSync(STARTER_DIR)
        .map((name) => path.join(STARTER_DIR, name))
        .filter((dir) => existsSync(path.join(dir, 'course.json')))
    : [];
  catalogue = dirs.map(readCourse).sort((a, b) => a.manifest.order - b.manifest.order);
  return catalogue;
}
