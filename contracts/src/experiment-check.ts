import { z } from 'zod';
import { CHECK_LIMITS, CHECK_STATUSES, CHECK_REASONS } from './experiment-check-constants.js';
import { LANGUAGES } from './languages.js';

/**
 * One hidden test: Python run in the kernel state the learner's notebook left; it passes when it raises nothing.
 * Only the course's authors ever read its code.
 */
export const ZCheckTest = z.object({
  name: z.string().trim().min(1).max(CHECK_LIMITS.testName),
  hint: z.string().trim().max(CHECK_LIMITS.hint).default('').describe('shown to the learner when the test fails'),
  points: z.number().int().min(1).max(100),
  code: z.string().min(1).max(CHECK_LIMITS.code),
});
export type TCheckTest = z.input<typeof ZCheckTest>;

/**
 * An experiment question's automatic check (nbgrader-style): the learner's notebook runs top to bottom in their own
 * runtime sandbox, then the tests in the same kernel state. The score is the share of points passed, 0–100; the
 * server's CHECK_TIMEOUT_SECONDS caps `timeoutSeconds`.
 */
export const ZExperimentCheck = z.object({
  notebook: z
    .string()
    .trim()
    .min(1)
    .max(CHECK_LIMITS.notebookPath)
    .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).*\.ipynb$/, 'a notebook path inside the project, ending in .ipynb')
    .describe('the notebook checked, a path inside the learner’s copy'),
  timeoutSeconds: z.number().int().min(CHECK_LIMITS.timeoutSecondsMin).max(CHECK_LIMITS.timeoutSecondsMax).default(120),
  tests: z.array(ZCheckTest).min(1).max(CHECK_LIMITS.tests),
  solution: z
    .string()
    .max(CHECK_LIMITS.solutionChars)
    .nullable()
    .default(null)
    .describe('a reference solution notebook (its JSON) to try the check against; never sent to learners'),
});
export type TExperimentCheck = z.infer<typeof ZExperimentCheck>;
export type TExperimentCheckInput = z.input<typeof ZExperimentCheck>;

export const ZCheckTestResult = z.object({
  name: z.string(),
  points: z.number().int(),
  passed: z.boolean(),
  message: z.string().describe('the hint and the error of a failed test; empty when it passed'),
});
export type TCheckTestResult = z.infer<typeof ZCheckTestResult>;

/** One run of a check, as the learner who ran it and the course's teachers see it. */
export const ZCheckResult = z.object({
  id: z.string(),
  taskId: z.string(),
  questionId: z.string(),
  userId: z.string(),
  trial: z.enum(['template', 'solution']).nullable(),
  status: z.enum(CHECK_STATUSES),
  score: z.number().int().min(0).max(100).nullable(),
  tests: z.array(ZCheckTestResult),
  reason: z.enum(CHECK_REASONS).nullable(),
  detail: z.string(),
  durationMs: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TCheckResult = z.infer<typeof ZCheckResult>;

export const ZRunCheckRequest = z.object({ questionId: z.string().min(1).max(40) });
export const ZCheckQuery = z.object({ questionId: z.string().min(1).max(40) });

/** An author tries a check (saved, or the draft in the editor) against the template or the reference solution. */
export const ZTrialCheckRequest = z.object({
  questionId: z.string().min(1).max(40),
  against: z.enum(['template', 'solution']),
  check: ZExperimentCheck.optional().describe('the draft to try; the saved check when absent'),
});
export type TTrialCheckRequest = z.input<typeof ZTrialCheckRequest>;

/** The five starter courses shipped with the platform, for import into a customer. */
export const ZStarterCourse = z.object({
  slug: z.string(),
  order: z.number().int(),
  environment: z.enum(['python', 'ai']),
  names: z.record(z.enum(LANGUAGES), z.string()),
  descriptions: z.record(z.enum(LANGUAGES), z.string()),
  experiments: z.number().int(),
  /** Courses this customer already imported from it, by language. */
  imported: z.array(z.object({ language: z.enum(LANGUAGES), courseId: z.string() })),
});
export type TStarterCourse = z.infer<typeof ZStarterCourse>;

export const ZImportStarterRequest = z.object({ slug: z.string().min(1).max(60), language: z.enum(LANGUAGES) });
export type TImportStarterRequest = z.infer<typeof ZImportStarterRequest>;
