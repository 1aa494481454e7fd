import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld, type Who } from './course-test-world.js';

const P = '/gw/api/v1/projects';
const C = '/api/v1/courses';

const notebook = (...cells: string[]) =>
  JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: cells.map((source) => ({ cell_type: 'code', metadata: {}, source, outputs: [], execution_count: null })),
  });

const SECRET = 'assert x == 42, f"x is {x}"';
const CHECK = {
  notebook: 'lab.ipynb',
  timeoutSeconds: 60,
  tests: [
    { name: 'x is the answer', hint: 'Set x to 42', points: 60, code: SECRET },
    { name: 'y greets', hint: '', points: 40, code: 'assert y == "hi"' },
  ],
  solution: notebook('x = 42', 'y = "hi"'),
};

describe('experiment checks: hidden tests run on the learner’s notebook in their sandbox, into the gradebook', () => {
  let w: CourseWorld;
  let taskId: string;
  let plainTaskId: string;
  let slowTaskId: string;
  let greedyTaskId: string;
  let courseId: string;
  let copyId: string;

  const check = (who: Who, task = taskId) =>
    w.call(who, 'POST', `${C}/tasks/${task}/experiment/check`, { questionId: 'x' });
  /** Runs a check and answers it once finished: the queue drains when every check of this process is recorded. */
  const checked = async (who: Who, task = taskId) => {
    const started = await check(who, task);
    expect(started.body).toMatchObject({ errorCode: '1000', data: { status: 'running' } });
    await w.t.app.checks.drain();
    return (await w.call(who, 'GET', `${C}/checks/${started.body.data.id}`)).body.data;
  };
  const writeNotebook = (who: Who, projectId: string, content: string) =>
    w.call(who, 'PUT', `${P}/${projectId}/files/content`, { path: 'lab.ipynb', content });

  beforeAll(async () => {
    w = await createCourseWorld({ config: { checks: { timeoutSeconds: 120, perHour: 5, concurrency: 2 } } });
    // Checks get the memory of the project's runtime type: a small one here, so a greedy notebook passes it fast.
    w.t.app.checks.ctx.config.runtimeLimits.BASIC = { cpu: 1, memoryMb: 400 };
    const template = await w.call('teacher', 'POST', P, { name: 'Lab', environment: 'python' });
    const templateId: string = template.body.data.id;
    await writeNotebook('teacher', templateId, notebook('x = None  # TODO', 'y = None  # TODO'));
    const slowTemplate = await w.call('teacher', 'POST', P, { name: 'Slow lab' });
    await writeNotebook('teacher', slowTemplate.body.data.id, notebook('x = 42', 'while True: pass'));
    const greedyTemplate = await w.call('teacher', 'POST', P, { name: 'Greedy lab' });
    await writeNotebook(
      'teacher',
      greedyTemplate.body.data.id,
      notebook('x = 42', 'hog = bytearray(900 * 1024 * 1024)'),
    );
    const built = await w.buildCourse({ name: 'Checked', publicScope: 'customer' });
    courseId = built.id;
    const added = await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Experiment',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Complete the lab', projectId: templateId, check: CHECK }],
    });
    expect(added.status).toBe(200);
    await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Unchecked',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Explore', projectId: templateId }],
    });
    await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Slow',
      questions: [
        {
          id: 'x',
          type: 'experiment',
          prompt: 'Wait',
          projectId: slowTemplate.body.data.id,
          check: { ...CHECK, timeoutSeconds: 5 },
        },
      ],
    });
    await w.call('teacher', 'POST', `${C}/sections/${built.sectionIds[0]}/tasks`, {
      title: 'Greedy',
      questions: [{ id: 'x', type: 'experiment', prompt: 'Hog', projectId: greedyTemplate.body.data.id, check: CHECK }],
    });
    await w.call('teacher', 'POST', `${C}/${built.id}/publish`);
    for (const who of ['student', 'student2'] as const) await w.call(who, 'POST', `${C}/join`, { code: built.code });
    const learn = (await w.call('student', 'GET', `${C}/sections/${built.sectionIds[0]}/learn`)).body;
    expect(JSON.stringify(learn)).not.toContain('x == 42');
    expect(JSON.stringify(learn)).not.toContain('"hi"');
    expect(learn.data.tasks[0].questions[0].experiment).toMatchObject({ checked: true, notebook: 'lab.ipynb' });
    taskId = learn.data.tasks[0].id;
    plainTaskId = learn.data.tasks[1].id;
    slowTaskId = learn.data.tasks[2].id;
    greedyTaskId = learn.data.tasks[3].id;
  }, 60_000);
  afterAll(() => w.t.close());

  it('asks the learner to start the experiment first, and says when a question has no check', async () => {
    expect((await check('student')).body).toMatchObject({ errorCode: '4112' });
    const started = await w.call('student', 'POST', `${C}/tasks/${taskId}/experiment/start`, { questionId: 'x' });
    copyId = started.body.data.projectId;
    expect((await check('student', plainTaskId)).body).toMatchObject({ errorCode: '4111' });
    expect((await check('otherStudent')).status).toBeGreaterThanOrEqual(400);
  });

  it('fails the untouched template with each test’s hint, and passes the completed notebook with 100', async () => {
    const untouched = await checked('student');
    expect(untouched).toMatchObject({ status: 'failed', score: 0, reason: null });
    expect(untouched.tests).toEqual([
      { name: 'x is the answer', points: 60, passed: false, message: 'Set x to 42 — AssertionError: x is None' },
      expect.objectContaining({ name: 'y greets', passed: false }),
    ]);
    expect(JSON.stringify(untouched)).not.toContain(SECRET);

    await writeNotebook('student', copyId, notebook('x = 41', 'x += 1', '1 / 0', 'y = "hi"'));
    const done = await checked('student');
    expect(done).toMatchObject({ status: 'passed', score: 100, detail: 'cell 3: ZeroDivisionError: division by zero' });
    // The tests were never written into the learner's files.
    const files = (await w.call('student', 'GET', `${P}/${copyId}/files`)).body.data.map(
      (f: { name: string }) => f.name,
    );
    expect(files.sort()).toEqual(['lab.ipynb', 'main.ipynb']);
  }, 60_000);

  it('scores the answer from the latest check; the teacher sees it in the results and may override', async () => {
    const answer = await w.call('student', 'POST', `${C}/tasks/${taskId}/attempts`, { answers: [{ questionId: 'x' }] });
    expect(answer.body.data).toMatchObject({ status: 'graded', score: 100, autoScore: 100 });
    expect(answer.body.data.checks.x).toMatchObject({ status: 'passed', score: 100 });

    const results = (await w.call('teacher', 'GET', `${C}/${courseId}/results`)).body.data;
    expect(JSON.stringify(results)).toContain('"checkId"');
    expect(JSON.stringify(results)).not.toContain(SECRET);
    const attemptId: string = answer.body.data.id;
    const graded = await w.call('teacher', 'PUT', `${C}/attempts/${attemptId}/grade`, {
      score: 80,
      comment: 'Tidy up',
    });
    expect(graded.body.data).toMatchObject({ score: 80, autoScore: 100, status: 'graded' });
  });

  it('shows a check to its learner and the course’s teachers only', async () => {
    const mine = (await w.call('student', 'GET', `${C}/tasks/${taskId}/experiment/check?questionId=x`)).body.data;
    expect(mine).toMatchObject({ status: 'passed' });
    expect((await w.call('teacher', 'GET', `${C}/checks/${mine.id}`)).status).toBe(200);
    for (const who of ['student2', 'otherTeacher', 'otherStudent', 'uncertified'] as const) {
      expect((await w.call(who, 'GET', `${C}/checks/${mine.id}`)).status).toBe(404);
    }
    expect(
      (await w.call('student2', 'GET', `${C}/tasks/${taskId}/experiment/check?questionId=x`)).body.data,
    ).toBeNull();
  });

  it('ends a notebook that runs too long as failed with the reason, and the next check runs normally', async () => {
    await w.call('student', 'POST', `${C}/tasks/${slowTaskId}/experiment/start`, { questionId: 'x' });
    const slow = await checked('student', slowTaskId);
    expect(slow).toMatchObject({ status: 'error', reason: 'timeout', score: 0 });
    expect(slow.tests[1]).toMatchObject({ passed: false, message: 'not run (timeout)' });
    expect(await checked('student')).toMatchObject({ status: 'passed', score: 100 });
  }, 60_000);

  it('ends a notebook that takes more memory than its runtime type has as failed, with the reason', async () => {
    await w.call('student', 'POST', `${C}/tasks/${greedyTaskId}/experiment/start`, { questionId: 'x' });
    expect(await checked('student', greedyTaskId)).toMatchObject({ status: 'error', reason: 'memory', score: 0 });
  }, 60_000);

  it('answers the running check to a second press, and refuses more than CHECKS_PER_HOUR per question', async () => {
    const [a, b] = await Promise.all([check('student'), check('student')]);
    expect(a.body.data.id).toBe(b.body.data.id);
    await w.t.app.checks.drain();
    await checked('student');
    // Five in the hour now (two, the one after the slow one, these two): the sixth waits.
    const refused = await check('student');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ errorCode: '1109', data: { perHour: 5 } });
    expect(refused.body.data.retryAfterSeconds).toBeGreaterThan(0);
  }, 60_000);

  it('lets authors try a check against the template and the reference solution; learners may not', async () => {
    const trial = async (against: 'template' | 'solution') => {
      const started = await w.call('teacher', 'POST', `${C}/tasks/${taskId}/experiment/check-trial`, {
        questionId: 'x',
        against,
      });
      expect(started.body).toMatchObject({ errorCode: '1000', data: { trial: against, status: 'running' } });
      await w.t.app.checks.drain();
      return (await w.call('teacher', 'GET', `${C}/checks/${started.body.data.id}`)).body.data;
    };
    expect(await trial('template')).toMatchObject({ status: 'failed', score: 0 });
    expect(await trial('solution')).toMatchObject({ status: 'passed', score: 100 });
    const byLearner = await w.call('student', 'POST', `${C}/tasks/${taskId}/experiment/check-trial`, {
      questionId: 'x',
      against: 'template',
    });
    expect(byLearner.status).toBe(403);
  }, 60_000);
});
