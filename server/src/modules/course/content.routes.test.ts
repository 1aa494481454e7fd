import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, QUIZ, type CourseWorld } from './course-test-world.js';

const C = '/api/v1/courses';

interface Outline {
  chapters: {
    id: string;
    title: string;
    sections: { id: string; title: string; tasks: { id: string; title: string }[] }[];
  }[];
}
/** Chapter titles with their section titles, as the editor shows them. */
const shape = (course: Outline) => course.chapters.map((c) => [c.title, c.sections.map((s) => s.title)]);
/** The outline call's body for an editable course as it stands. */
const orderOf = (course: Outline) => ({
  chapters: course.chapters.map((c) => ({ id: c.id, sections: c.sections.map((s) => s.id) })),
});

describe('shaping a course in the editor: order, chapter names, saved tasks', () => {
  let w: CourseWorld;
  beforeAll(async () => {
    w = await createCourseWorld();
  });
  afterAll(() => w.t.close());

  const edit = async (id: string): Promise<Outline> => (await w.call('teacher', 'GET', `${C}/${id}/edit`)).body.data;
  const threeChapters = () =>
    w.buildCourse({}, [
      { title: 'One', sections: ['1.1', '1.2'] },
      { title: 'Two', sections: ['2.1'] },
      { title: 'Three', sections: [] },
    ]);

  it('writes a new order of chapters and sections in one call, moving a section to another chapter', async () => {
    const { id } = await threeChapters();
    const [one, two, three] = (await edit(id)).chapters;
    const res = await w.call('teacher', 'PUT', `${C}/${id}/outline`, {
      chapters: [
        { id: three!.id, sections: [one!.sections[1]!.id] },
        { id: one!.id, sections: [] },
        { id: two!.id, sections: [two!.sections[0]!.id, one!.sections[0]!.id] },
      ],
    });
    expect(res.status).toBe(200);
    const expected = [
      ['Three', ['1.2']],
      ['One', []],
      ['Two', ['2.1', '1.1']],
    ];
    expect(shape(res.body.data)).toEqual(expected);
    expect(shape(await edit(id))).toEqual(expected);
    // What is added afterwards comes last in its chapter.
    await w.call('teacher', 'POST', `${C}/chapters/${two!.id}/sections`, { title: '2.2' });
    await w.call('teacher', 'POST', `${C}/${id}/chapters`, { title: 'Four' });
    expect(shape(await edit(id))).toEqual([...expected.slice(0, 2), ['Two', ['2.1', '1.1', '2.2']], ['Four', []]]);
  });

  it('refuses an order that is not every chapter and every section once, and keeps the old one', async () => {
    const { id } = await threeChapters();
    const other = await threeChapters();
    const course = await edit(id);
    const before = shape(course);
    const good = orderOf(course);
    const [one, two, three] = good.chapters;
    const foreign = (await edit(other.id)).chapters[0]!;
    const refusals = [
      { chapters: [one, two] },
      { chapters: [one, two, three, one] },
      { chapters: [{ ...one!, sections: [] }, two, three] },
      { chapters: [{ ...one!, sections: [...one!.sections, two!.sections[0]] }, two, three] },
      { chapters: [{ ...one!, sections: [...one!.sections, foreign.sections[0]!.id] }, two, three] },
      { chapters: [one, two, { id: foreign.id, sections: [] }] },
    ];
    for (const body of refusals) {
      const res = await w.call('teacher', 'PUT', `${C}/${id}/outline`, body);
      expect({ status: res.status, code: res.body.errorCode }).toEqual({ status: 400, code: '1001' });
    }
    expect(shape(await edit(id))).toEqual(before);
    expect(shape(await edit(other.id))).toEqual(before);
    expect((await w.call('teacher', 'PUT', `${C}/${id}/outline`, good)).status).toBe(200);
  });

  it('reorders only the draft: a published version waits for a revision, and the revision keeps its own order', async () => {
    const { id } = await threeChapters();
    await w.call('teacher', 'POST', `${C}/${id}/publish`);
    const published = await edit(id);
    const reversed = { chapters: orderOf(published).chapters.reverse() };
    const refused = await w.call('teacher', 'PUT', `${C}/${id}/outline`, reversed);
    expect(refused.body.errorCode).toBe('4105');
    const revision = (await w.call('teacher', 'POST', `${C}/${id}/revision`)).body.data;
    const reordered = await w.call('teacher', 'PUT', `${C}/${id}/outline`, {
      chapters: orderOf(revision).chapters.reverse(),
    });
    expect(shape(reordered.body.data).map(([title]) => title)).toEqual(['Three', 'Two', 'One']);
    await w.call('student', 'POST', `${C}/${id}/join`);
    const learner = (await w.call('student', 'GET', `${C}/${id}`)).body.data;
    expect(learner.catalogue.map((c: { title: string }) => c.title)).toEqual(['One', 'Two', 'Three']);
  });

  it('puts a section’s tasks in a new order, every task once', async () => {
    const { id, sectionIds } = await w.buildCourse();
    const url = `${C}/sections/${sectionIds[0]}/tasks`;
    for (const title of ['First', 'Second', 'Third']) await w.call('teacher', 'POST', url, { ...QUIZ, title });
    const tasks = (await edit(id)).chapters[0]!.sections[0]!.tasks;
    const ids = tasks.map((t) => t.id);
    const res = await w.call('teacher', 'PUT', `${url}/order`, { ids: [ids[2], ids[0], ids[1]] });
    expect(res.body.data.chapters[0].sections[0].tasks.map((t: { title: string }) => t.title)).toEqual([
      'Third',
      'First',
      'Second',
    ]);
    for (const wrong of [
      [ids[0], ids[1]],
      [ids[0], ids[0], ids[1]],
      [...ids, ids[0]],
    ]) {
      expect((await w.call('teacher', 'PUT', `${url}/order`, { ids: wrong })).body.errorCode).toBe('1001');
    }
  });

  it('renames a chapter within 100 characters', async () => {
    const { id } = await w.buildCourse();
    const chapterId = (await edit(id)).chapters[0]!.id;
    const renamed = await w.call('teacher', 'PUT', `${C}/chapters/${chapterId}`, { title: '  Getting started ' });
    expect(renamed.body.data.chapters[0].title).toBe('Getting started');
    expect(
      (await w.call('teacher', 'PUT', `${C}/chapters/${chapterId}`, { title: 'x'.repeat(101) })).body.errorCode,
    ).toBe('1001');
    expect((await w.call('teacher', 'PUT', `${C}/chapters/${chapterId}`, { title: ' ' })).body.errorCode).toBe('1001');
  });

  it('changes a saved quiz task in place, checking it as a new one', async () => {
    const { id, sectionIds } = await w.buildCourse();
    const url = `${C}/sections/${sectionIds[0]}/tasks`;
    await w.call('teacher', 'POST', url, QUIZ);
    await w.call('teacher', 'POST', url, { ...QUIZ, title: 'Later' });
    const [task] = (await edit(id)).chapters[0]!.sections[0]!.tasks;
    const changed = {
      title: 'Quiz, corrected',
      questions: [
        { id: 'q1', type: 'single', prompt: '1 + 2 = ?', options: ['2', '3'], answer: [1] },
        { id: 'q3', type: 'short', prompt: 'Why?' },
      ],
    };
    const res = await w.call('teacher', 'PUT', `${C}/tasks/${task!.id}`, changed);
    expect(res.status).toBe(200);
    const saved = res.body.data.chapters[0].sections[0].tasks;
    expect(saved.map((t: { title: string }) => t.title)).toEqual(['Quiz, corrected', 'Later']);
    expect(saved[0]).toEqual({ id: task!.id, ...changed });
    const badAnswer = { ...changed, questions: [{ ...changed.questions[0], answer: [2] }] };
    expect((await w.call('teacher', 'PUT', `${C}/tasks/${task!.id}`, badAnswer)).body.errorCode).toBe('1001');
  });
});
