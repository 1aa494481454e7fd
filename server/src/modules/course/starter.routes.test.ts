import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

const C = '/api/v1/courses';
const P = '/gw/api/v1/projects';

describe('starter courses: administrators import one in a language as their customer’s own course', () => {
  let w: CourseWorld;
  let courseId: string;

  beforeAll(async () => {
    w = await createCourseWorld();
  });
  afterAll(() => w.t.close());

  it('lists the starter courses in the four languages for administrators only', async () => {
    const list = await w.call('admin', 'GET', `${C}/starter`);
    expect(list.status).toBe(200);
    const iris = list.body.data.find((c: { slug: string }) => c.slug === 'iris-classifier');
    expect(iris).toMatchObject({ environment: 'ai', experiments: 1, imported: [] });
    expect(Object.keys(iris.names).sort()).toEqual(['en', 'ja', 'zh_CHS', 'zh_CHT']);
    expect(new Set(Object.values(iris.names)).size).toBe(4);
    for (const who of ['teacher', 'student'] as const) {
      expect((await w.call(who, 'GET', `${C}/starter`)).status).toBe(403);
      expect(
        (await w.call(who, 'POST', `${C}/starter/import`, { slug: 'iris-classifier', language: 'en' })).status,
      ).toBe(403);
    }
  });

  it('imports a published course with its outline, resources, template project and hidden check', async () => {
    const imported = await w.call('admin', 'POST', `${C}/starter/import`, { slug: 'iris-classifier', language: 'ja' });
    expect(imported.status).toBe(200);
    courseId = imported.body.data.courseId;

    const editCall = await w.call('admin', 'GET', `${C}/${courseId}/edit`);
    const edit = editCall.body.data;
    expect(edit).toMatchObject({ status: 'published', isOwner: true, publicScope: 'customer' });
    expect(edit.chapters.length).toBeGreaterThanOrEqual(2);
    const sections = edit.chapters.flatMap((c: { sections: unknown[] }) => c.sections);
    expect(sections.every((s: { content: string }) => s.content.length > 200)).toBe(true);
    expect(sections.some((s: { resources: unknown[] }) => s.resources.length > 0)).toBe(true);
    const experiment = sections
      .flatMap((s: { tasks: { questions: { type: string }[] }[] }) => s.tasks.flatMap((t) => t.questions))
      .find((q: { type: string }) => q.type === 'experiment');
    expect(experiment.check).toMatchObject({ notebook: 'iris.ipynb', timeoutSeconds: 120 });
    expect(experiment.check.tests.length).toBeGreaterThan(0);
    expect(experiment.check.solution).toContain('KNeighborsClassifier');

    const template = (await w.call('admin', 'GET', `${P}/${experiment.projectId}`)).body.data;
    expect(template).toMatchObject({ environment: 'ai', access: 'private', isOwner: true });
    const files = (await w.call('admin', 'GET', `${P}/${experiment.projectId}/files`)).body.data;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['iris.ipynb']);
    const notebook = (await w.call('admin', 'GET', `${P}/${experiment.projectId}/files/content?path=iris.ipynb`)).body
      .data;
    // The Japanese template: its lesson text is Japanese, its placeholders are there to complete.
    expect(JSON.stringify(notebook)).toMatch(/[\u3040-\u30ff]/);
    expect(JSON.stringify(notebook)).toContain('knn = None');
  });

  it('shows the course to the customer’s learners without the check’s tests, and says what was imported', async () => {
    const detail = await w.call('student', 'GET', `${C}/${courseId}`);
    expect(detail.status).toBe(200);
    await w.call('student', 'POST', `${C}/${courseId}/join`);
    const sections = detail.body.data.catalogue.flatMap((c: { sections: { id: string }[] }) => c.sections);
    for (const section of sections) {
      const learn = (await w.call('student', 'GET', `${C}/sections/${section.id}/learn`)).body;
      expect(JSON.stringify(learn)).not.toContain('KNeighborsClassifier().fit');
      expect(JSON.stringify(learn)).not.toContain('"code"');
    }
    expect((await w.call('otherStudent', 'GET', `${C}/${courseId}`)).status).toBeGreaterThanOrEqual(400);

    const iris = (await w.call('admin', 'GET', `${C}/starter`)).body.data.find(
      (c: { slug: string }) => c.slug === 'iris-classifier',
    );
    expect(iris.imported).toEqual([{ language: 'ja', courseId }]);
    expect((await w.call('admin', 'POST', `${C}/starter/import`, { slug: 'nope', language: 'en' })).status).toBe(404);
  });
});
