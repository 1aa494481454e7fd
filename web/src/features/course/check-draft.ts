import { CHECK_LIMITS, type TExperimentCheck } from '@aiedu/contracts';

/** One hidden test as the author writes it; `key` keeps its editor while tests move. */
export interface TestDraft {
  key: number;
  name: string;
  hint: string;
  points: number | null;
  code: string;
}

/** An experiment question's automatic check in the editor: kept while switched off, sent only when on. */
export interface CheckDraft {
  enabled: boolean;
  notebook: string;
  timeoutSeconds: number | null;
  tests: TestDraft[];
  /** The reference solution notebook's JSON, and the file it came from (unknown for a saved one). */
  solution: string | null;
  solutionName: string | null;
}

export const DEFAULT_NOTEBOOK = 'main.ipynb';
export const DEFAULT_TIMEOUT = 120;

let nextKey = 1;
export const blankTest = (): TestDraft => ({ key: nextKey++, name: '', hint: '', points: 1, code: '' });

export function checkDraftOf(check: TExperimentCheck | null | undefined): CheckDraft {
  if (!check) {
    return {
      enabled: false,
      notebook: DEFAULT_NOTEBOOK,
      timeoutSeconds: DEFAULT_TIMEOUT,
      tests: [blankTest()],
      solution: null,
      solutionName: null,
    };
  }
  return {
    enabled: true,
    notebook: check.notebook,
    timeoutSeconds: check.timeoutSeconds,
    tests: check.tests.map((t) => ({ key: nextKey++, name: t.name, hint: t.hint, points: t.points, code: t.code })),
    solution: check.solution,
    solutionName: null,
  };
}

/** The check to save or try: null when switched off. Call only when `checkProblems` finds nothing. */
export function checkOf(draft: CheckDraft): TExperimentCheck | null {
  if (!draft.enabled) return null;
  return {
    notebook: draft.notebook.trim(),
    timeoutSeconds: draft.timeoutSeconds ?? DEFAULT_TIMEOUT,
    tests: draft.tests.map((t) => ({ name: t.name.trim(), hint: t.hint.trim(), points: t.points ?? 1, code: t.code })),
    solution: draft.solution,
  };
}

export const totalPoints = (draft: CheckDraft) => draft.tests.reduce((sum, t) => sum + (t.points ?? 0), 0);

/** What is wrong with a field: a key of `course:check.errors` and its values. */
export type Problem = { key: ProblemKey; values?: Record<string, number> };
export type ProblemKey = 'notebook' | 'timeout' | 'tests' | 'name' | 'hint' | 'points' | 'code';

export interface CheckProblems {
  notebook?: Problem;
  timeout?: Problem;
  tests?: Problem;
  /** By test key. */
  test: Record<number, Partial<Record<'name' | 'hint' | 'points' | 'code', Problem>>>;
  any: boolean;
}

const NOTEBOOK_PATH = /^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.ipynb$/;

/** The draft against CHECK_LIMITS (the server's ZExperimentCheck), field by field. */
export function checkProblems(draft: CheckDraft): CheckProblems {
  const found: CheckProblems = { test: {}, any: false };
  if (!draft.enabled) return found;
  const notebook = draft.notebook.trim();
  if (!notebook || notebook.length > CHECK_LIMITS.notebookPath || !NOTEBOOK_PATH.test(notebook)) {
    found.notebook = { key: 'notebook', values: { max: CHECK_LIMITS.notebookPath } };
  }
  const timeout = draft.timeoutSeconds;
  if (
    timeout === null ||
    !Number.isInteger(timeout) ||
    timeout < CHECK_LIMITS.timeoutSecondsMin ||
    timeout > CHECK_LIMITS.timeoutSecondsMax
  ) {
    found.timeout = {
      key: 'timeout',
      values: { min: CHECK_LIMITS.timeoutSecondsMin, max: CHECK_LIMITS.timeoutSecondsMax },
    };
  }
  if (draft.tests.length < 1 || draft.tests.length > CHECK_LIMITS.tests) {
    found.tests = { key: 'tests', values: { max: CHECK_LIMITS.tests } };
  }
  for (const test of draft.tests) {
    const own: CheckProblems['test'][number] = {};
    const name = test.name.trim();
    if (!name || name.length > CHECK_LIMITS.testName)
      own.name = { key: 'name', values: { max: CHECK_LIMITS.testName } };
    if (test.hint.trim().length > CHECK_LIMITS.hint) own.hint = { key: 'hint', values: { max: CHECK_LIMITS.hint } };
    if (test.points === null || !Number.isInteger(test.points) || test.points < 1 || test.points > 100) {
      own.points = { key: 'points', values: { min: 1, max: 100 } };
    }
    if (!test.code.trim() || test.code.length > CHECK_LIMITS.code) {
      own.code = { key: 'code', values: { max: CHECK_LIMITS.code } };
    }
    if (Object.keys(own).length > 0) found.test[test.key] = own;
  }
  found.any = Boolean(found.notebook || found.timeout || found.tests || Object.keys(found.test).length > 0);
  return found;
}

/** Why a file cannot be the reference solution, or null when it can: a notebook's JSON (with `cells`) in the limit. */
export function solutionProblem(text: string): 'solutionTooLarge' | 'solutionInvalid' | null {
  if (text.length > CHECK_LIMITS.solutionChars) return 'solutionTooLarge';
  try {
    const notebook = JSON.parse(text) as unknown;
    const cells = (notebook as { cells?: unknown } | null)?.cells;
    return Array.isArray(cells) ? null : 'solutionInvalid';
  } catch {
    return 'solutionInvalid';
  }
}
