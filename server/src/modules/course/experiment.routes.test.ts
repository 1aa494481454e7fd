import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld, type Who } from './course-test-world.js';

const P = '/gw/api/v1/projects';
const C = '/api/v1/courses';
const NOTEBOOK = JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] });

describe('course experiments: a learner’s own copy of the template, teachers look read-only', () => {
  let w: CourseWorld;
  let templateId: string;
  let course: { id: string; code: string; sectionIds: string[] };
  let taskId: string;

  const start = (who: Who, task = taskId, questionId = 'x') =>
    w.call(who, 'POST', `${C}/tasks/${task}/experiment/start`, { questionId });
  const learn = async (who: Who, sectionId = course.sectionIds[0]) =>
    (await w.call(who, 'GET', `${C}/sections/${sectionId}/learn`)).body.data;

  /** A published course whose one task holds an experiment on `projectId`, joined by `learners`. */
  const publishExperiment = async (projectId: string | null, learners: Who[]) => {
    const built = await w.buildCourse({ name: 'Experiments', publicScope: 'customer' });
    const added = await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Build a classifier',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Train it', projectId }],
    });
    expect(added.status).toBe(200);
    await w.call('teacher', 'POST', `${C}/${built.id}/publish`);
    for (const who of learners) await w.call(who, 'POST', `${C}/join`, { code: built.code });
    return built;
  };

  beforeAll(async () => {
    w = await createCourseWorld();
    const template = await w.call('teacher', 'POST', P, { name: 'Iris template', tags: ['ml'] });
    templateId = template.body.data.id;
    await w.call('teacher', 'PUT', `${P}/${templateId}/files/content`, { path: 'data.csv', content: 'a,b\n1,2\n' });
    await w.call('teacher', 'PUT', `${P}/${templateId}/collaborators`, { usernames: [] });
    course = await publishExperiment(templateId, ['student', 'student2']);
    await w.call('teacher', 'PUT', `${C}/${course.id}/collaborators`, { usernames: ['editor'] });
    taskId = (await learn('student')).tasks[0].id;
  });
  afterAll(() => w.t.close());

  it('copies the template once for the learner, who could not see it, and opens the same copy again', async () => {
    expect((await w.call('student', 'GET', `${P}/${templateId}`)).status).toBe(404);
    expect((await learn('student')).tasks[0].questions[0]).toMatchObject({
      type: 'experiment',
      experiment: { linked: true, projectId: null },
    });

    const first = await start('student');
    expect(first.body).toMatchObject({ errorCode: '1000', data: { created: true } });
    const copyId: string = first.body.data.projectId;
    const copy = (await w.call('student', 'GET', `${P}/${copyId}`)).body.data;
    expect(copy).toMatchObject({
      name: 'Iris template',
      tags: ['ml'],
      access: 'private',
      isOwner: true,
      canEdit: true,
      reviewing: false,
      forkedFrom: templateId,
    });
    const file = await w.call('student', 'GET', `${P}/${copyId}/files/content?path=data.csv`);
    expect(file.body.data.content).toBe('a,b\n1,2\n');

    const again = await start('student');
    expect(again.body.data).toEqual({ projectId: copyId, created: false });
    expect((await learn('student')).tasks[0].questions[0].experiment).toEqual({
      linked: true,
      projectId: copyId,
      checked: false,
      notebook: null,
    });
    const mine = await w.call('student', 'GET', `${P}/mine`);
    expect(mine.body.data.total).toBe(1);
  });

  it('makes one copy when the learner presses several times at once', async () => {
    const presses = await Promise.all([start('student2'), start('student2'), start('student2')]);
    expect(presses.map((p) => p.status)).toEqual([200, 200, 200]);
    const ids = new Set(presses.map((p) => p.body.data.projectId));
    expect(ids.size).toBe(1);
    expect(presses.filter((p) => p.body.data.created)).toHaveLength(1);
    expect((await w.call('student2', 'GET', `${P}/mine`)).body.data.total).toBe(1);
  });

  it('lists the copies for the course’s teachers, who open each one read-only', async () => {
    const copies = await w.call('teacher', 'GET', `${C}/${course.id}/experiment-copies`);
    expect(copies.body.data).toHaveLength(2);
    expect(copies.body.data[0]).toMatchObject({ learnerName: 'student', taskId, taskTitle: 'Build a classifier' });
    const copyId: string = copies.body.data[0].projectId;

    for (const who of ['teacher', 'editor'] as const) {
      const seen = await w.call(who, 'GET', `${P}/${copyId}`);
      expect(seen.body.data).toMatchObject({ canEdit: false, isOwner: false, reviewing: true });
      const tree = await w.call(who, 'GET', `${P}/${copyId}/files`);
      expect(tree.body.data.map((n: { name: string }) => n.name).sort()).toEqual(['data.csv', 'main.ipynb']);
      expect((await w.call(who, 'GET', `${P}/${copyId}/files/content?path=data.csv`)).status).toBe(200);
      expect((await w.call(who, 'GET', `${P}/${copyId}/versions`)).status).toBe(200);
    }
  });

  it('refuses every write by a reviewing teacher with "no edit permissions", and leaves the files as they were', async () => {
    const copyId: string = (await start('student')).body.data.projectId;
    const writes: [string, string, object?][] = [
      ['PUT', `${P}/${copyId}/files/content`, { path: 'main.ipynb', content: NOTEBOOK }],
      ['POST', `${P}/${copyId}/files`, { folder: '', name: 'x.py', kind: 'file' }],
      ['PUT', `${P}/${copyId}/files/rename`, { path: 'data.csv', name: 'other.csv' }],
      ['DELETE', `${P}/${copyId}/files?path=data.csv`],
      ['PUT', `${P}/${copyId}`, { name: 'Mine now' }],
      ['DELETE', `${P}/${copyId}`],
      ['POST', `${P}/${copyId}/versions`, { major: 1, minor: 0, revision: 0, description: 'v1' }],
      ['POST', `${P}/${copyId}/runtime/start`, {}],
      ['POST', `${P}/${copyId}/packages/install`, { name: 'numpy' }],
      ['POST', `${P}/${copyId}/fork`],
      ['GET', `/gw/api/v1/runtime/${copyId}/api/contents`],
    ];
    for (const [method, url, payload] of writes) {
      const res = await w.call('teacher', method as 'PUT', url, payload);
      expect([res.status, res.body.errorCode], `${method} ${url}`).toEqual([403, '1007']);
    }
    const after = await w.call('student', 'GET', `${P}/${copyId}/files/content?path=data.csv`);
    expect(after.body.data.content).toBe('a,b\n1,2\n');
    expect((await w.call('student', 'GET', `${P}/${copyId}`)).body.data.name).toBe('Iris template');
  });

  it('hides the copies from other teachers, other customers, administrators and other learners', async () => {
    const copyId: string = (await start('student')).body.data.projectId;
    for (const who of ['uncertified', 'otherTeacher', 'otherStudent', 'admin', 'student2'] as const) {
      expect((await w.call(who, 'GET', `${P}/${copyId}`)).status, who).toBe(404);
      expect((await w.call(who, 'GET', `${P}/${copyId}/files/content?path=data.csv`)).status, who).toBe(404);
    }
    expect((await w.call('otherTeacher', 'GET', `${C}/${course.id}/experiment-copies`)).status).toBe(404);
    // A teacher or learner of the institution sees the course, so is told they may not (1007).
    expect((await w.call('uncertified', 'GET', `${C}/${course.id}/experiment-copies`)).body.errorCode).toBe('1007');
    expect((await w.call('student', 'GET', `${C}/${course.id}/experiment-copies`)).status).toBe(403);
  });

  it('says "experiment removed" when the link is gone, and asks outsiders to join first', async () => {
    const unlinked = await publishExperiment(null, ['student']);
    const unlinkedTask = (await learn('student', unlinked.sectionIds[0])).tasks[0];
    expect(unlinkedTask.questions[0].experiment).toEqual({
      linked: false,
      projectId: null,
      checked: false,
      notebook: null,
    });
    const none = await start('student', unlinkedTask.id);
    expect([none.status, none.body.errorCode]).toEqual([410, '4003']);
    expect((await start('student', taskId, 'nope')).body.errorCode).toBe('4003');

    const doomed = (await w.call('teacher', 'POST', P, { name: 'Soon gone' })).body.data.id;
    const gone = await publishExperiment(doomed, ['student']);
    await w.call('teacher', 'DELETE', `${P}/${doomed}`);
    const goneTask = (await learn('student', gone.sectionIds[0])).tasks[0];
    const removed = await start('student', goneTask.id);
    expect([removed.status, removed.body.errorCode]).toEqual([410, '4003']);
    expect((await w.call('student', 'GET', `${P}/mine`)).body.data.total).toBe(1);

    expect((await start('otherStudent')).status).toBe(404);
    const outsider = await publishExperiment(templateId, []);
    const teacherView = (await w.call('teacher', 'GET', `${C}/sections/${outsider.sectionIds[0]}/learn`)).body.data;
    expect((await start('student', teacherView.tasks[0].id)).body.errorCode).toBe('4107');
  });

  it('makes a new copy after the learner deleted theirs', async () => {
    const old: string = (await start('student')).body.data.projectId;
    expect((await w.call('student', 'DELETE', `${P}/${old}`)).status).toBe(200);
    const fresh = await start('student');
    expect(fresh.body.data.created).toBe(true);
    expect(fresh.body.data.projectId).not.toBe(old);
  });

  it('links only a template its author may see', async () => {
    const draft = await w.buildCourse({ name: 'Draft' });
    const secret = (await w.call('student', 'POST', P, { name: 'My private work' })).body.data.id;
    const refused = await w.call('teacher', 'POST', `${C}/sections/${draft.sectionIds[0]}/tasks`, {
      title: 'Copy a learner',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Take it', projectId: secret }],
    });
    expect(refused.status).toBe(404);
    const reviewed: string = (await start('student')).body.data.projectId;
    const viaReview = await w.call('teacher', 'POST', `${C}/sections/${draft.sectionIds[0]}/tasks`, {
      title: 'Copy a copy',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Take it', projectId: reviewed }],
    });
    expect(viaReview.status).toBe(404);
  });
});
