import { Readable } from 'node:stream';
import { LIMITS, type Language, type TImportStarterRequest, type TStarterCourse } from '@aiedu/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseCategories,
  courseChapters,
  courseDifficulties,
  courseResources,
  courses,
  courseSections,
  courseTasks,
  courseVersions,
  type StoredQuestion,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { createProject, deleteProject } from '../project/project.service.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { withFreeCourseCode } from './course-code.js';
import { experimentFiles, starterCourses, starterFile, type StarterCourse } from './starter-content.js';

const MIME: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  json: 'application/json',
  pdf: 'application/pdf',
};

function mimeOf(name: string) {
  return MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The starter courses, with the ones this customer imported already (by language). */
export async function listStarterCourses(ctx: AppContext, auth: AuthContext): Promise<TStarterCourse[]> {
  const imported = await starterCopies(ctx.db, auth);
  return starterCourses().map(({ manifest, locales }) => ({
    slug: manifest.slug,
    order: manifest.order,
    environment: manifest.environment,
    names: { en: locales.en.name, zh_CHS: locales.zh_CHS.name, zh_CHT: locales.zh_CHT.name, ja: locales.ja.name },
    descriptions: {
      en: locales.en.description,
      zh_CHS: locales.zh_CHS.description,
      zh_CHT: locales.zh_CHT.description,
      ja: locales.ja.description,
    },
    experiments: Object.keys(manifest.experiments).length,
    imported: imported
      .filter((c) => c.starter.startsWith(`${manifest.slug}:`))
      .map((c) => ({ language: c.starter.split(':')[1] as Language, courseId: c.id })),
  }));
}

async function categoryIds(db: Db, course: StarterCourse) {
  const { direction, stage, difficulty } = course.manifest;
  const [categories, difficulties] = await Promise.all([
    db.select().from(courseCategories),
    db.select().from(courseDifficulties).where(eq(courseDifficulties.name, difficulty)),
  ]);
  const find = (kind: 'direction' | 'stage', name: string) =>
    categories.find((c) => c.kind === kind && c.name === name)?.id ?? null;
  return {
    directionId: find('direction', direction),
    stageId: find('stage', stage),
    difficultyId: difficulties[0]?.id ?? null,
  };
}

/**
 * Imports a starter course, in one language, as the caller's own published course of their customer (scope
 * "customer"): its chapters, sections, resources, questions, and for each experiment a private template project
 * in the course's runtime environment with the notebook and its files, and the hidden check. The copy is the
 * caller's to edit (a revision, as any course). Nothing is left behind when a step fails.
 */
export async function importStarterCourse(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest | null,
  auth: AuthContext,
  input: TImportStarterRequest,
): Promise<{ courseId: string }> {
  const course = starterCourses().find((c) => c.manifest.slug === input.slug);
  if (!course) throw new AppError('NOT_FOUND');
  const { manifest } = course;
  const text = course.locales[input.language];
  const templates = new Map<string, string>();
  const made: Awaited<ReturnType<typeof createProject>>[] = [];
  const resourceKeys: string[] = [];
  try {
    for (const [key, experiment] of Object.entries(manifest.experiments)) {
      const project = await createProject(
        ctx,
        driver,
        request,
        auth,
        {
          name: text.name.slice(0, 100),
          description: text.description.slice(0, LIMITS.description),
          tags: text.tags.slice(0, 10),
          access: 'private',
          environment: manifest.environment,
          courseTag: text.name.slice(0, 50),
        },
        undefined,
        [
          {
            path: experiment.notebook,
            content: starterFile(course, `experiment/${key}/template.${input.language}.ipynb`),
          },
          ...experimentFiles(course, key),
        ],
      );
      made.push(project);
      templates.set(key, project.id);
    }
    const resources = new Map<string, { storageKey: string; size: number }>();
    for (const section of text.chapters.flatMap((c) => c.sections)) {
      for (const file of section.resources) {
        if (resources.has(file)) continue;
        const bytes = starterFile(course, file);
        const storageKey = `courses/resources/${uuidv7()}`;
        await ctx.storage.put(storageKey, Readable.from([bytes]), { maxBytes: LIMITS.resourceBytes });
        resourceKeys.push(storageKey);
        resources.set(file, { storageKey, size: bytes.length });
      }
    }
    const courseId = await ctx.db.transaction(async (tx) => {
      const id = uuidv7();
      const versionId = uuidv7();
      const now = ctx.now();
      await withFreeCourseCode(async (code) => {
        const [row] = await tx
          .insert(courses)
          .values({
            id,
            code,
            customerId: auth.customerId,
            ownerId: auth.userId,
            publicScope: auth.customerId ? 'customer' : 'public',
            levels: manifest.levels,
            status: 'published',
            publishedVersionId: versionId,
            publishedAt: now,
            starter: `${manifest.slug}:${input.language}`,
            ...(await categoryIds(tx, course)),
          })
          .onConflictDoNothing({ target: courses.code })
          .returning({ id: courses.id });
        return row ?? null;
      }, ctx.courseCode);
      await tx.insert(courseVersions).values({
        id: versionId,
        courseId: id,
        number: 1,
        status: 'published',
        name: text.name,
        description: text.description,
        tags: text.tags,
        publishedAt: now,
      });
      await insertOutline(tx, course, input.language, { courseId: id, versionId, templates, resources });
      if (request) {
        await writeAudit(tx, request, {
          module: 'course',
          operation: 'import',
          params: { id, starter: manifest.slug, language: input.language },
        });
      }
      return id;
    });
    return { courseId };
  } catch (error) {
    for (const key of resourceKeys) await ctx.storage.delete(key).catch(() => undefined);
    for (const project of made) await deleteProject(ctx, driver, request, project).catch(() => undefined);
    throw error;
  }
}

async function insertOutline(
  db: Db,
  course: StarterCourse,
  language: Language,
  target: {
    courseId: string;
    versionId: string;
    templates: ReadonlyMap<string, string>;
    resources: ReadonlyMap<string, { storageKey: string; size: number }>;
  },
) {
  const { courseId, versionId } = target;
  const text = course.locales[language];
  for (const [c, chapter] of text.chapters.entries()) {
    const [chapterRow] = await db
      .insert(courseChapters)
      .values({ courseId, versionId, title: chapter.title, position: c })
      .returning({ id: courseChapters.id });
    for (const [s, section] of chapter.sections.entries()) {
      const [sectionRow] = await db
        .insert(courseSections)
        .values({
          courseId,
          versionId,
          chapterId: chapterRow!.id,
          title: section.title,
          content: starterFile(course, section.content).toString('utf8'),
          position: s,
        })
        .returning({ id: courseSections.id });
      const sectionId = sectionRow!.id;
      for (const [t, task] of section.tasks.entries()) {
        const questions = task.questions.map((q, n) =>
          storedQuestion(course, language, q, `q${n + 1}`, target.templates),
        );
        await db
          .insert(courseTasks)
          .values({ courseId, versionId, sectionId, title: task.title, questions, position: t });
      }
      for (const [r, file] of section.resources.entries()) {
        const stored = target.resources.get(file)!;
        await db.insert(courseResources).values({
          courseId,
          versionId,
          sectionId,
          name: file.split('/').pop()!,
          mime: mimeOf(file),
          position: r,
          ...stored,
        });
      }
    }
  }
}

function storedQuestion(
  course: StarterCourse,
  language: Language,
  q: StarterCourse['locales'][Language]['chapters'][number]['sections'][number]['tasks'][number]['questions'][number],
  id: string,
  templates: ReadonlyMap<string, string>,
): StoredQuestion {
  if (q.type !== 'experiment') return { id, ...q };
  const experiment = course.manifest.experiments[q.experiment]!;
  return {
    id,
    type: 'experiment',
    prompt: q.prompt,
    projectId: templates.get(q.experiment) ?? null,
    check: {
      notebook: experiment.notebook,
      timeoutSeconds: experiment.timeoutSeconds,
      tests: experiment.tests.map((t) => ({
        name: t.name[language].slice(0, 100),
        hint: t.hint?.[language] ?? '',
        points: t.points,
        code: t.code,
      })),
      solution: starterFile(course, `experiment/${q.experiment}/solution.ipynb`).toString('utf8'),
    },
  };
}

/**
 * The courses imported from a starter course in the caller's customer (a super administrator's own in the public
 * space), with their origin `slug:language`.
 */
async function starterCopies(db: Db, auth: Pick<AuthContext, 'userId' | 'customerId'>) {
  const rows = await db
    .select({ id: courses.id, starter: courses.starter })
    .from(courses)
    .where(
      and(
        isNotNull(courses.starter),
        auth.customerId ? eq(courses.customerId, auth.customerId) : eq(courses.ownerId, auth.userId),
      ),
    );
  return rows.map((r) => ({ id: r.id, starter: r.starter! }));
}

export interface StarterOwner {
  auth: AuthContext;
  language: Language;
}

/**
 * The first start's demo: every starter course in each owner's language, unless that customer has it already
 * (a second process seeding at the same time finds the first one's). Logged, never fatal: the demo works without.
 */
export async function seedStarterCourses(ctx: AppContext, driver: RuntimeDriver, owners: readonly StarterOwner[]) {
  for (const { auth, language } of owners) {
    const have = (await starterCopies(ctx.db, auth)).map((c) => c.starter);
    for (const { manifest } of starterCourses()) {
      if (have.includes(`${manifest.slug}:${language}`)) continue;
      await importStarterCourse(ctx, driver, null, auth, { slug: manifest.slug, language });
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Imports the starter courses for the demo's teachers (the first start, and tests). */
    seedStarterCourses(owners: StarterOwner[]): Promise<void>;
  }
}
