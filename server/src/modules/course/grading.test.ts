import { COURSE_CODE } from '@aiedu/contracts';
import { describe, expect, it } from 'vitest';
import type { StoredQuestion } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { COURSE_CODE_ATTEMPTS, randomCourseCode, withFreeCourseCode } from './course-code.js';
import { choiceCredit, gradeAttempt } from './grading.js';

const single: StoredQuestion = { id: 's', type: 'single', prompt: '', options: ['a', 'b', 'c'], answer: [2] };
const multiple: StoredQuestion = {
  id: 'm',
  type: 'multiple',
  prompt: '',
  options: ['a', 'b', 'c', 'd'],
  answer: [0, 1, 3],
};

describe('choice grading', () => {
  it.each([
    [single, [2], 1],
    [single, [1], 0],
    [single, [2, 1], 0],
    [single, [], 0],
    [multiple, [0, 1, 3], 1],
    [multiple, [3, 0, 1], 1],
    [multiple, [0], 1 / 3],
    [multiple, [0, 3], 2 / 3],
    [multiple, [0, 2], 0],
    [multiple, [0, 1, 2, 3], 0],
    [multiple, undefined, 0],
  ] as const)('%o with %o earns %d', (question, choices, credit) => {
    expect(choiceCredit(question, choices)).toBeCloseTo(credit);
  });

  it('scores 0–100 over the questions, or waits for the teacher when a question is not a choice', () => {
    expect(
      gradeAttempt(
        [single, multiple],
        [
          { questionId: 's', choices: [2] },
          { questionId: 'm', choices: [1] },
        ],
      ),
    ).toEqual({
      credits: { s: 1, m: 1 / 3 },
      score: 67,
      status: 'graded',
      autoScore: null,
    });
    const short: StoredQuestion = { id: 'x', type: 'short', prompt: '' };
    expect(gradeAttempt([single, short], [{ questionId: 's', choices: [2] }])).toEqual({
      credits: { s: 1 },
      score: null,
      status: 'pending',
      autoScore: null,
    });
  });

  it('takes a checked experiment’s credit from its check, and waits for the teacher while none ran', () => {
    const check = { notebook: 'lab.ipynb', timeoutSeconds: 60, tests: [], solution: null };
    const lab: StoredQuestion = { id: 'e', type: 'experiment', prompt: '', projectId: null, check };
    const ran = { e: { checkId: 'c', status: 'failed' as const, score: 50, tests: [] } };
    expect(gradeAttempt([single, lab], [{ questionId: 's', choices: [2] }], ran)).toEqual({
      credits: { s: 1, e: 0.5 },
      score: 75,
      status: 'graded',
      autoScore: 50,
    });
    expect(gradeAttempt([lab], [], {})).toMatchObject({ score: null, status: 'pending', autoScore: null });
    // An experiment without a check is the teacher's, whatever a check of it says.
    const unchecked: StoredQuestion = { ...lab, check: null };
    expect(gradeAttempt([unchecked], [], ran)).toMatchObject({ status: 'pending', autoScore: null });
  });
});

describe('course codes', () => {
  it('draws 6 characters from the alphabet without look-alikes', () => {
    for (let i = 0; i < 200; i++) expect(randomCourseCode()).toMatch(COURSE_CODE);
  });

  it('tries another code when one is taken, and gives up after a bounded number of tries', async () => {
    const taken = new Set(['AAAAAA', 'BBBBBB']);
    const codes = ['AAAAAA', 'BBBBBB', 'CCCCCC'];
    const tried: string[] = [];
    const row = await withFreeCourseCode(
      async (code) => {
        tried.push(code);
        return taken.has(code) ? null : { code };
      },
      () => codes.shift()!,
    );
    expect(row).toEqual({ code: 'CCCCCC' });
    expect(tried).toEqual(['AAAAAA', 'BBBBBB', 'CCCCCC']);
    let calls = 0;
    const always = withFreeCourseCode(
      async () => {
        calls++;
        return null;
      },
      () => 'AAAAAA',
    );
    await expect(always).rejects.toThrow(AppError);
    await expect(always).rejects.toMatchObject({ code: '4108' });
    expect(calls).toBe(COURSE_CODE_ATTEMPTS);
  });
});
