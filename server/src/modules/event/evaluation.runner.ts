import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { RuntimeDriver, RuntimeProject } from '../runtime/runtime-driver.js';

/** The harness the sandbox's Python runs: server/python/evaluate_harness.py, sent on its command line. */
export const EVALUATE_HARNESS_FILE = new URL('../../../python/evaluate_harness.py', import.meta.url);
const HARNESS = readFileSync(EVALUATE_HARNESS_FILE, 'utf8');

/** Time the sandbox gets beyond the script's own limit: its virtual environment's making and the harness's exit. */
const SANDBOX_GRACE_MS = 120_000;

export interface EvaluationOutcome {
  score: number | null;
  error: string | null;
  /** The platform failed (sandbox, time limit, no answer from the harness): the run does not count. */
  platformFault: boolean;
}

interface HarnessResult {
  score: number | null;
  error: string;
  reason: 'timeout' | 'script' | null;
}

/**
 * Reads the harness's result: the last line that carries this run's nonce. The script's own output never reaches
 * the harness's standard output, and it cannot know the nonce, so a line it forges is never taken.
 */
export function parseEvaluation(stdout: string, nonce: string): HarnessResult | null {
  const marker = `@@evaluate ${nonce} `;
  const line = stdout
    .split('\n')
    .filter((l) => l.startsWith(marker))
    .at(-1);
  if (!line) return null;
  try {
    const parsed = JSON.parse(line.slice(marker.length)) as HarnessResult;
    if (parsed.score !== null && (typeof parsed.score !== 'number' || !Number.isFinite(parsed.score))) return null;
    return parsed;
  } catch {
    return null;
  }
}

/** What a finished harness (or its absence) means for the run. */
export function outcomeOf(result: HarnessResult | null, stderr: string): EvaluationOutcome {
  if (!result) {
    const detail = stderr.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
    return { score: null, error: `the evaluation sandbox failed${detail ? `: ${detail}` : ''}`, platformFault: true };
  }
  if (result.reason === 'timeout') return { score: null, error: result.error, platformFault: true };
  if (result.reason === 'script' || result.score === null) {
    return { score: null, error: result.error.slice(0, 500) || 'the evaluation failed', platformFault: false };
  }
  return { score: result.score, error: null, platformFault: false };
}

/**
 * A runtime identity of its own for an evaluation: a folder of its own and a project number taken from the projects'
 * own sequence, so its system user (`uidBase + seq`) is no project's and the teams' runtimes never see the answers.
 */
export async function newSandbox(db: Db): Promise<RuntimeProject> {
  const result = await db.execute(sql`select nextval(pg_get_serial_sequence('projects', 'seq'))::int as seq`);
  const [row] = (result as unknown as { rows: { seq: number }[] }).rows;
  return { id: randomUUID(), seq: Number(row!.seq), name: 'evaluation', environment: 'python' };
}

/** A file's name in the sandbox: its role and the original's extension, when it is a plain one. */
export function sandboxName(role: 'predictions' | 'answers', original: string): string {
  const ext = path.extname(original).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? `${role}${ext}` : role;
}

export interface EvaluationFiles {
  script: () => Promise<Readable>;
  predictions: { name: string; open: () => Promise<Readable> };
  answers: { name: string; open: () => Promise<Readable> };
}

/**
 * Runs the organiser's script on the team's predictions and the answer set in the evaluation's sandbox of the
 * runtime driver (its own user, virtual environment, network rules and process limit), never in this process. Each
 * run has a folder of its own there, removed with everything in it once the run is over.
 */
export async function evaluateInSandbox(
  driver: RuntimeDriver,
  sandbox: RuntimeProject,
  runId: string,
  files: EvaluationFiles,
  limits: { timeoutSeconds: number; memoryBytes: number },
): Promise<EvaluationOutcome> {
  const folder = `run-${runId}`;
  const dir = path.join(driver.ensureWorkspace(sandbox), folder);
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    const predictions = sandboxName('predictions', files.predictions.name);
    const answers = sandboxName('answers', files.answers.name);
    await pipeline(await files.script(), createWriteStream(path.join(dir, 'evaluate.py')));
    await pipeline(await files.predictions.open(), createWriteStream(path.join(dir, predictions)));
    await pipeline(await files.answers.open(), createWriteStream(path.join(dir, answers)));
    driver.claim(sandbox, dir);
    const nonce = randomBytes(16).toString('hex');
    const output = await driver.exec(sandbox, ['-c', HARNESS], {
      input: JSON.stringify({ nonce, folder, predictions, answers, ...limits }),
      timeoutMs: limits.timeoutSeconds * 1000 + SANDBOX_GRACE_MS,
    });
    return outcomeOf(parseEvaluation(output.stdout, nonce), output.stderr);
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 300) : '';
    return { score: null, error: `the evaluation sandbox failed: ${detail}`, platformFault: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
