import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TCheckResult, TExperimentCheck } from '@aiedu/contracts';
import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import {
  courseTasks,
  experimentChecks,
  type AttemptCheckResult,
  type StoredCheck,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { loadProjectFor } from '../project/project-access.js';
import type { RuntimeManager } from '../runtime/runtime-manager.js';
import { runCheck, type CheckRun } from './check-runner.js';
import { findEnrolment, loadForAuthor, loadForLearner } from './course-access.js';
import { copiesByTemplate } from './experiment.service.js';
import { isUuid } from '../../platform/ids.js';

type CheckRow = typeof experimentChecks.$inferSelect;
type TaskRow = typeof courseTasks.$inferSelect;

/** A notebook larger than this is not a learner's exercise: the check refuses it rather than read it. */
const NOTEBOOK_MAX_BYTES = 20 * 1024 * 1024;
const CHECK_LOCK = 706_130_001;

export function presentCheck(row: CheckRow): TCheckResult {
  return {
    id: row.id,
    taskId: row.taskId,
    questionId: row.questionId,
    userId: row.userId,
    trial: row.trial,
    status: row.status,
    score: row.score,
    tests: row.tests,
    reason: row.reason,
    detail: row.detail,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Runs checks in this process, at most CHECK_CONCURRENCY at once (the others wait their turn in order), each in
 * the sandbox of the project it checks. A check never holds the learner's runtime: it runs beside it.
 */
export class CheckQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly ctx: AppContext,
    readonly manager: RuntimeManager,
  ) {}

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.ctx.config.checks.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Runs the check of a stored row in the background and records how it ended. */
  start(row: CheckRow, project: { id: string; seq: number; runtimeType: string }, job: CheckJob) {
    const finished = this.slot(() => this.execute(project, job)).catch((error: unknown): CheckRun => ({
      status: 'error',
      score: 0,
      tests: job.check.tests.map((t) => ({ name: t.name, points: t.points, passed: false, message: 'not run' })),
      reason: error instanceof AppError && error.code.startsWith('RUNTIME_') ? 'runtime' : 'crashed',
      detail: error instanceof Error ? error.message.slice(0, 500) : '',
      durationMs: 0,
    }));
    const done = finished.then((run) => this.record(row.id, run));
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
    return done;
  }

  /** Checks this process has not finished recording (tests and a clean close wait for them). */
  readonly running = new Set<Promise<unknown>>();

  private async execute(project: { id: string; seq: number; runtimeType: string }, job: CheckJob): Promise<CheckRun> {
    const notebook = job.notebook ?? (await readNotebook(this.manager, project, job.check.notebook));
    if (notebook === null) {
      return {
        status: 'error',
        score: 0,
        tests: job.check.tests.map((t) => ({ name: t.name, points: t.points, passed: false, message: 'not run' })),
        reason: 'notebook',
        detail: `notebook not found: ${job.check.notebook}`,
        durationMs: 0,
      };
    }
    const limits = this.ctx.config.runtimeLimits[project.runtimeType as 'BASIC'] ?? this.ctx.config.runtimeLimits.BASIC;
    return runCheck(this.manager.driver, project, {
      notebook,
      tests: job.check.tests,
      timeoutSeconds: Math.min(job.check.timeoutSeconds, this.ctx.config.checks.timeoutSeconds),
      memoryBytes: limits.memoryMb * 1024 * 1024,
    });
  }

  private async record(id: string, run: CheckRun) {
    await this.ctx.db
      .update(experimentChecks)
      .set({
        status: run.status,
        score: run.score,
        tests: run.tests,
        reason: run.reason,
        detail: run.detail,
        durationMs: run.durationMs,
        finishedAt: this.ctx.now(),
      })
      .where(eq(experimentChecks.id, id));
  }

  async drain() {
    await Promise.allSettled([...this.running]);
  }
}

interface CheckJob {
  check: StoredCheck;
  /** The notebook's JSON, when it does not come from the project's files (a trial against the solution). */
  notebook?: string | null;
}

/** The notebook's text in the project's files; null when it is not there (or not a plain file of sane size). */
async function readNotebook(manager: RuntimeManager, project: { id: string; seq: number }, notebookPath: string) {
  const root = manager.driver.workspaceDir(project);
  const file = path.resolve(root, notebookPath);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    const stat = await lstat(file);
    if (!stat.isFile() || stat.size > NOTEBOOK_MAX_BYTES) return null;
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** The experiment question of a task, with its check; refusals as the learner and the author should read them. */
function checkedQuestion(task: TaskRow, questionId: string) {
  const question = task.questions.find((q) => q.id === questionId && q.type === 'experiment');
  if (!question?.projectId) throw new AppError('EXPERIMENT_REMOVED');
  if (!question.check) throw new AppError('EXPERIMENT_CHECK_MISSING');
  return { templateId: question.projectId, check: question.check };
}

async function loadTask(db: Db, taskId: string) {
  const [task] = await db.select().from(courseTasks).where(eq(courseTasks.id, taskId));
  if (!task) throw new AppError('NOT_FOUND');
  return task;
}

/** A learner's own checks of one experiment question (an author's trials are not theirs). */
function learnersChecks(userId: string, taskId: string, questionId: string) {
  return and(
    eq(experimentChecks.userId, userId),
    eq(experimentChecks.taskId, taskId),
    eq(experimentChecks.questionId, questionId),
    isNull(experimentChecks.trial),
  );
}

/** A check still `running` whose process stopped beating is over: it ended as crashed. */
async function settleOrphan(ctx: AppContext, queue: CheckQueue, row: CheckRow): Promise<CheckRow> {
  if (row.status !== 'running' || !row.holder || row.holder === queue.manager.instance.id) return row;
  if ((await queue.manager.instance.addressOf(row.holder)) !== null) return row;
  const [settled] = await ctx.db
    .update(experimentChecks)
    .set({
      status: 'error',
      score: 0,
      reason: 'crashed',
      detail: 'the server running it stopped',
      finishedAt: ctx.now(),
    })
    .where(and(eq(experimentChecks.id, row.id), eq(experimentChecks.status, 'running')))
    .returning();
  return settled ?? row;
}

/**
 * A learner checks their experiment: their own copy's notebook runs in their project's sandbox, then the hidden
 * tests. One check at a time per learner (a second press answers the running one) and CHECKS_PER_HOUR per
 * question (1109 with `retryAfterSeconds` beyond). Answers at once with the check `running`; the learner polls it.
 */
export async function runLearnerCheck(
  ctx: AppContext,
  queue: CheckQueue,
  auth: AuthContext,
  taskId: string,
  questionId: string,
): Promise<TCheckResult> {
  const task = await loadTask(ctx.db, taskId);
  await loadForLearner(ctx.db, auth, task.courseId);
  const enrolment = await findEnrolment(ctx.db, task.courseId, auth.userId);
  if (!enrolment) throw new AppError('COURSE_NOT_JOINED');
  if (enrolment.versionId !== task.versionId) throw new AppError('EXPERIMENT_REMOVED');
  const { templateId, check } = checkedQuestion(task, questionId);
  const copyId = (await copiesByTemplate(ctx.db, task.courseId, auth.userId)).get(templateId);
  if (!copyId) throw new AppError('EXPERIMENT_NOT_STARTED');
  const { project } = await loadProjectFor(ctx.db, auth, copyId, 'edit');
  queue.manager.checkInstalled(project.environment);

  const row = await ctx.db.transaction(async (tx) => {
    // Presses at the same time wait for each other here, so each sees the check the one before started.
    await tx.execute(sql`select pg_advisory_xact_lock(${CHECK_LOCK}::int4, hashtext(${auth.userId}))`);
    const [running] = await tx
      .select()
      .from(experimentChecks)
      .where(
        and(
          eq(experimentChecks.userId, auth.userId),
          eq(experimentChecks.status, 'running'),
          isNull(experimentChecks.trial),
        ),
      )
      .orderBy(desc(experimentChecks.createdAt))
      .limit(1);
    if (running) {
      const settled = await settleOrphan({ ...ctx, db: tx }, queue, running);
      if (settled.status === 'running') {
        if (settled.taskId === taskId && settled.questionId === questionId) return { row: settled, fresh: false };
        throw new AppError('TOO_FREQUENT', { retryAfterSeconds: 10 });
      }
    }
    const hourAgo = new Date(ctx.now().getTime() - 3_600_000);
    const recent = await tx
      .select({ createdAt: experimentChecks.createdAt })
      .from(experimentChecks)
      .where(and(learnersChecks(auth.userId, taskId, questionId), gte(experimentChecks.createdAt, hourAgo)))
      .orderBy(experimentChecks.createdAt);
    if (recent.length >= ctx.config.checks.perHour) {
      const oldest = recent[recent.length - ctx.config.checks.perHour]!.createdAt.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + 3_600_000 - ctx.now().getTime()) / 1000));
      throw new AppError('TOO_FREQUENT', { retryAfterSeconds, perHour: ctx.config.checks.perHour });
    }
    const [created] = await tx
      .insert(experimentChecks)
      .values({
        courseId: task.courseId,
        taskId,
        questionId,
        userId: auth.userId,
        customerId: auth.customerId,
        projectId: project.id,
        status: 'running',
        holder: queue.manager.instance.id,
      })
      .returning();
    return { row: created!, fresh: true };
  });
  if (row.fresh) void queue.start(row.row, project, { check });
  return presentCheck(row.row);
}

/**
 * An author tries a check (the saved one, or the draft in the editor) against the experiment's template or the
 * reference solution, in the template project's sandbox. Trials never count for anyone.
 */
export async function runTrialCheck(
  ctx: AppContext,
  queue: CheckQueue,
  auth: AuthContext,
  taskId: string,
  input: { questionId: string; against: 'template' | 'solution'; check?: TExperimentCheck | undefined },
): Promise<TCheckResult> {
  const task = await loadTask(ctx.db, taskId);
  await loadForAuthor(ctx.db, auth, task.courseId);
  const question = task.questions.find((q) => q.id === input.questionId && q.type === 'experiment');
  if (!question?.projectId) throw new AppError('EXPERIMENT_REMOVED');
  const check = input.check ?? question.check;
  if (!check) throw new AppError('EXPERIMENT_CHECK_MISSING');
  if (input.against === 'solution' && !check.solution) {
    throw new AppError('BAD_REQUEST', { reason: 'solution', message: 'no reference solution to try' });
  }
  const { project } = await loadProjectFor(ctx.db, auth, question.projectId, 'view');
  queue.manager.checkInstalled(project.environment);
  const [{ value: running }] = (await ctx.db
    .select({ value: count() })
    .from(experimentChecks)
    .where(and(eq(experimentChecks.userId, auth.userId), eq(experimentChecks.status, 'running')))) as [
    { value: number },
  ];
  if (running >= 2) throw new AppError('TOO_FREQUENT', { retryAfterSeconds: 10 });
  const [row] = await ctx.db
    .insert(experimentChecks)
    .values({
      courseId: task.courseId,
      taskId,
      questionId: input.questionId,
      userId: auth.userId,
      customerId: auth.customerId,
      projectId: project.id,
      trial: input.against,
      status: 'running',
      holder: queue.manager.instance.id,
    })
    .returning();
  void queue.start(row!, project, { check, notebook: input.against === 'solution' ? check.solution : null });
  return presentCheck(row!);
}

/**
 * One check: the learner who ran it, or a teacher (owner or co-author) of its course. Anyone else: 404, so a
 * check's existence never leaks.
 */
export async function getCheck(ctx: AppContext, queue: CheckQueue, auth: AuthContext, checkId: string) {
  if (!isUuid(checkId)) throw new AppError('NOT_FOUND');
  const [row] = await ctx.db.select().from(experimentChecks).where(eq(experimentChecks.id, checkId));
  if (!row) throw new AppError('NOT_FOUND');
  if (row.userId !== auth.userId) {
    await loadForAuthor(ctx.db, auth, row.courseId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
  }
  return presentCheck(await settleOrphan(ctx, queue, row));
}

/** The caller's latest check of an experiment question (null: none yet). */
export async function latestLearnerCheck(
  ctx: AppContext,
  queue: CheckQueue,
  auth: AuthContext,
  taskId: string,
  questionId: string,
): Promise<TCheckResult | null> {
  // A task of a course the caller cannot see is not confirmed to exist.
  await loadForLearner(ctx.db, auth, (await loadTask(ctx.db, taskId)).courseId);
  const [row] = await ctx.db
    .select()
    .from(experimentChecks)
    .where(learnersChecks(auth.userId, taskId, questionId))
    .orderBy(desc(experimentChecks.createdAt))
    .limit(1);
  return row ? presentCheck(await settleOrphan(ctx, queue, row)) : null;
}

/**
 * The latest finished check of each checked experiment of a task, for an answer to take its credit from. Checks
 * that ended in an error (timeout, crash, memory) count: their score is what their tests earned, 0 when none ran.
 */
export async function latestChecksFor(
  db: Db,
  task: TaskRow,
  userId: string,
): Promise<Record<string, AttemptCheckResult>> {
  const checked = task.questions.filter((q) => q.type === 'experiment' && q.check).map((q) => q.id);
  if (checked.length === 0) return {};
  const rows = await db
    .select()
    .from(experimentChecks)
    .where(
      and(
        eq(experimentChecks.userId, userId),
        eq(experimentChecks.taskId, task.id),
        isNull(experimentChecks.trial),
        sql`${experimentChecks.status} <> 'running'`,
      ),
    )
    .orderBy(desc(experimentChecks.createdAt));
  const result: Record<string, AttemptCheckResult> = {};
  for (const row of rows) {
    if (!checked.includes(row.questionId) || result[row.questionId]) continue;
    result[row.questionId] = {
      checkId: row.id,
      status: row.status as AttemptCheckResult['status'],
      score: row.score ?? 0,
      tests: row.tests,
    };
  }
  return result;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Experiment checks this process runs (tests wait for them with `drain`). */
    checks: CheckQueue;
  }
}
