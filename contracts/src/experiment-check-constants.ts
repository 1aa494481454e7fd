/** The constants of experiments' automatic checks, apart from their schemas (experiment-check.ts). */

/** Limits of an experiment's automatic check. */
export const CHECK_LIMITS = {
  tests: 50,
  testName: 100,
  hint: 500,
  code: 20_000,
  notebookPath: 200,
  /** A reference solution notebook, as JSON text. */
  solutionChars: 2_000_000,
  timeoutSecondsMin: 5,
  timeoutSecondsMax: 3600,
} as const;

export const CHECK_STATUSES = ['running', 'passed', 'failed', 'error'] as const;

/** Why a check ended without a score from its tests. */
export const CHECK_REASONS = ['timeout', 'crashed', 'memory', 'notebook', 'runtime'] as const;
