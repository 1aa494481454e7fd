import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, QUIZ, type CourseWorld } from './course-test-world.js';

describe('course states and versions (spec section 4)', () => {
  let w: CourseWorld;
  beforeAll(async () => {
    w = await createCourseWorld();
  });
  afterAll(() => w.t.close());

  const act = (id: string, action: string, who: 'teacher' | 'editor' = 'teacher') =>
    w.call(who, 'POST', `/api/v1/courses/${id}/${action}`);

  it('walks draft → published → modifying → published v2, and refuses every illegal step', async () => {
    const empty = await w.buildCourse({}, []);
    const refusedEmpty = await act(empty.id, 'publish');
    expect(refusedEmpty.body.errorCode).toBe('4105');

    const { id } = await w.buildCourse();
    for (const illegal of ['revision', 'abandon-revision']) {
      expect((await act(id, illegal)).body.errorCode, illegal).toBe('4105');
    }
    const v1 = await act(id, 'publish');
    expect(v1.body.data).toMatchObject({ status: 'published', versionNumber: 1 });
    expect((await act(id, 'publish')).body.errorCode).toBe('4105');
    expect((await act(id, 'abandon-revision')).body.errorCode).toBe('4105');
    // Content of a published course cannot change without a revision.
    const chapterId = v1.body.data.chapters[0].id;
    expect(
      (await w.call('teacher', 'PUT', `/api/v1/courses/chapters/${chapterId}`, { title: 'X' })).body.errorCode,
    ).toBe('4105');
    expect((await w.call('teacher', 'POST', `/api/v1/courses/${id}/chapters`, { title: 'X' })).body.errorCode).toBe(
      '4105',
    );

    const revising = await act(id, 'revision');
    expect(revising.body.data.status).toBe('modifying');
    expect(revising.body.data.chapters[0].id).not.toBe(chapterId);
    expect((await act(id, 'revision')).body.errorCode).toBe('4105');
    const v2 = await act(id, 'publish');
    expect(v2.body.data).toMatchObject({ status: 'published', versionNumber: 2 });

    await act(id, 'revision');
    const abandoned = await act(id, 'abandon-revision');
    expect(abandoned.body.data).toMatchObject({ status: 'published', versionNumber: 2 });

    const closed = await act(id, 'close');
    expect(closed.body.data.status).toBe('closed');
    for (const illegal of ['publish', 'revision', 'abandon-revision', 'close']) {
      expect((await act(id, illegal)).body.errorCode, illegal).toBe('4105');
    }
    expect((await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Again' })).body.errorCode).toBe('4105');
  });

  it('keeps learners on the version they started while the teacher revises; moves them on request', async () => {
    const { id, code, sectionIds } = await w.buildCourse({}, [{ title: 'Basics', sections: ['Hello'] }]);
    await w.call('teacher', 'PUT', `/api/v1/courses/sections/${sectionIds[0]}`, { content: 'version one' });
    await w.call('teacher', 'POST', `/api/v1/courses/sections/${sectionIds[0]}/tasks`, QUIZ);
    await act(id, 'publish');
    const joined = await w.call('student', 'POST', '/api/v1/courses/join', { code });
    expect(joined.body.data.learnerVersionNumber).toBe(1);
    const oldSection = joined.body.data.catalogue[0].sections[0].id;

    const revision = (await act(id, 'revision')).body.data;
    const newSection = revision.chapters[0].sections[0].id;
    await w.call('teacher', 'PUT', `/api/v1/courses/sections/${newSection}`, { content: 'version two', title: 'Hi' });
    await w.call('teacher', 'POST', `/api/v1/courses/${id}/chapters`, { title: 'Advanced' });

    // While modifying, the learner still reads version 1.
    const during = await w.call('student', 'GET', `/api/v1/courses/${id}`);
    expect(during.body.data.catalogue.map((c: { title: string }) => c.title)).toEqual(['Basics']);
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${oldSection}/learn`)).body.data.content).toBe(
      'version one',
    );
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${newSection}/learn`)).status).toBe(404);

    await act(id, 'publish');
    // After version 2 is published the joined learner stays on version 1; a new learner gets version 2.
    const after = await w.call('student', 'GET', `/api/v1/courses/${id}`);
    expect(after.body.data).toMatchObject({ learnerVersionNumber: 1, versionNumber: 2 });
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${oldSection}/learn`)).body.data.content).toBe(
      'version one',
    );
    const fresh = await w.call('student2', 'POST', '/api/v1/courses/join', { code });
    expect(fresh.body.data.learnerVersionNumber).toBe(2);
    expect(fresh.body.data.catalogue.map((c: { title: string }) => c.title)).toEqual(['Basics', 'Advanced']);

    expect((await w.call('editor', 'POST', `/api/v1/courses/${id}/learners/move`, {})).body.errorCode).toBe('1007');
    const moved = await w.call('teacher', 'POST', `/api/v1/courses/${id}/learners/move`, {});
    expect(moved.body.data.moved).toBe(1);
    const now = await w.call('student', 'GET', `/api/v1/courses/${id}`);
    expect(now.body.data.learnerVersionNumber).toBe(2);
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${newSection}/learn`)).body.data.content).toBe(
      'version two',
    );
  });

  it('answers "closed" and "taken down" to learners and keeps their records', async () => {
    const { id, code, sectionIds } = await w.buildCourse();
    await w.call('teacher', 'POST', `/api/v1/courses/sections/${sectionIds[0]}/tasks`, QUIZ);
    await act(id, 'publish');
    await w.call('student', 'POST', '/api/v1/courses/join', { code });
    const section = (await w.call('student', 'GET', `/api/v1/courses/${id}`)).body.data.catalogue[0].sections[0].id;
    await w.call('student', 'POST', `/api/v1/courses/sections/${section}/record`, { seconds: 30, completed: true });

    const down = await w.call('super', 'PUT', `/api/v1/courses/${id}/taken-down`, { takenDown: true });
    expect(down.body.data.takenDown).toBe(true);
    const detail = await w.call('student', 'GET', `/api/v1/courses/${id}`);
    expect(detail.status).toBe(410);
    expect(detail.body.errorCode).toBe('4001');
    expect(
      (await w.call(null, 'GET', `/api/v1/courses/centre?keyword=${encodeURIComponent('Intro')}`)).body.data.list.map(
        (c: { id: string }) => c.id,
      ),
    ).not.toContain(id);
    await w.call('super', 'PUT', `/api/v1/courses/${id}/taken-down`, { takenDown: false });
    expect((await w.call('student', 'GET', `/api/v1/courses/${id}`)).status).toBe(200);

    await act(id, 'close');
    const closed = await w.call('student', 'GET', `/api/v1/courses/${id}`);
    expect(closed.status).toBe(410);
    expect(closed.body.errorCode).toBe('4002');
    expect(closed.body.errorMsg).toBe('课程已删除或关闭，无法查看详情');
    expect((await w.call('student', 'GET', `/api/v1/courses/sections/${section}/learn`)).body.errorCode).toBe('4002');
    expect((await w.call('student2', 'POST', '/api/v1/courses/join', { code })).body.errorCode).toBe('4002');

    const record = await w.call('student', 'GET', `/api/v1/courses/${id}/record`);
    expect(record.status).toBe(200);
    expect(record.body.data).toMatchObject({ progress: 100 });
    expect(record.body.data.sections[0]).toMatchObject({ visited: true, completed: true, secondsSpent: 30 });
    const study = await w.call('student', 'GET', '/api/v1/courses/study');
    expect(study.body.data.find((c: { id: string }) => c.id === id)).toMatchObject({ status: 'closed', progress: 100 });
    // The teacher still sees the course (closed) in the editor.
    expect((await w.call('teacher', 'GET', `/api/v1/courses/${id}`)).body.data.status).toBe('closed');
  });

  it('says "experiment removed" when a learner moved to a new version answers an experiment taken out of it', async () => {
    const { id, code, sectionIds } = await w.buildCourse();
    await w.call('teacher', 'POST', `/api/v1/courses/sections/${sectionIds[0]}/tasks`, {
      title: 'Build',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Build a robot' }],
    });
    await act(id, 'publish');
    await w.call('student', 'POST', '/api/v1/courses/join', { code });
    const oldTask = (await w.call('student', 'GET', `/api/v1/courses/sections/${sectionIds[0]}/learn`)).body.data
      .tasks[0];
    const first = await w.call('student', 'POST', `/api/v1/courses/tasks/${oldTask.id}/attempts`, {
      answers: [{ questionId: 'x', text: '/pjedu/projects/mine' }],
    });
    expect(first.body.data.status).toBe('pending');

    const revision = (await act(id, 'revision')).body.data;
    await w.call('teacher', 'DELETE', `/api/v1/courses/tasks/${revision.chapters[0].sections[0].tasks[0].id}`);
    await act(id, 'publish');
    await w.call('teacher', 'POST', `/api/v1/courses/${id}/learners/move`, {});

    const late = await w.call('student', 'POST', `/api/v1/courses/tasks/${oldTask.id}/attempts`, { answers: [] });
    expect(late.status).toBe(410);
    expect(late.body.errorCode).toBe('4003');
    const record = await w.call('student', 'GET', `/api/v1/courses/${id}/record`);
    expect(record.body.data.versionNumber).toBe(2);
    expect(record.body.data.attempts.map((a: { id: string }) => a.id)).toEqual([first.body.data.id]);
  });

  it('lists every version newest first: the revision, the current one, an abandoned one, with their learners', async () => {
    const { id, code } = await w.buildCourse({ name: 'Robots' });
    const versions = async (who: 'teacher' | 'editor' = 'teacher') =>
      (await w.call(who, 'GET', `/api/v1/courses/${id}/versions`)).body.data;
    expect(await versions()).toMatchObject([{ number: null, status: 'draft', editing: true, current: false }]);
    await act(id, 'publish');
    await w.call('student', 'POST', '/api/v1/courses/join', { code });
    await act(id, 'revision');
    await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Robots, abandoned' });
    await act(id, 'abandon-revision');
    await act(id, 'revision');
    await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Robots 2' });
    await act(id, 'publish');
    await w.call('student2', 'POST', '/api/v1/courses/join', { code });
    await act(id, 'revision');
    const list = await versions();
    expect(
      list.map(
        (v: {
          number: number | null;
          status: string;
          name: string;
          current: boolean;
          editing: boolean;
          learners: number;
        }) => [v.number, v.status, v.name, v.current, v.editing, v.learners],
      ),
    ).toEqual([
      [null, 'draft', 'Robots 2', false, true, 0],
      [2, 'published', 'Robots 2', true, false, 1],
      [null, 'abandoned', 'Robots, abandoned', false, false, 0],
      [1, 'published', 'Robots', false, false, 1],
    ]);
    expect(list[1].publishedAt).not.toBeNull();
    // Collaborators read the list too; a teacher who is neither sees nothing of a course kept to its institution.
    await w.call('teacher', 'PUT', `/api/v1/courses/${id}/collaborators`, { usernames: ['editor'] });
    expect(await versions('editor')).toHaveLength(4);
    expect((await w.call('otherTeacher', 'GET', `/api/v1/courses/${id}/versions`)).status).toBe(404);
  });

  it('refuses to move learners of a course that is not published', async () => {
    const { id } = await w.buildCourse();
    expect((await w.call('teacher', 'POST', `/api/v1/courses/${id}/learners/move`, {})).body.errorCode).toBe('4105');
  });
});
