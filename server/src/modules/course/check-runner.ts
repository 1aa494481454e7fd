import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TCheckTestResult } from '@aiedu/contracts';
import type { StoredCheckTest } from '../../platform/db/schema/index.js';
import type { RuntimeDriver, RuntimeProject } from '../runtime/runtime-driver.js';

/** The harness the project's Python runs: server/python/check_harness.py, sent on its command line. */
export const HARNESS_FILE = new URL('../../../python/check_harness.py', import.meta.url);
const HARNESS = readFileSync(HARNESS_FILE, 'utf8');

/** Time the sandbox gets beyond the check's own limit: its kernel's start and the harness's own exit. */
const SANDBOX_GRACE_MS = 60_000;

export interface CheckRun {
  status: 'passed' | 'failed' | 'error';
  score: number;
  tests: TCheckTestResult[];
  reason: 'timeout' | 'crashed' | 'memory' | 'notebook' | 'runtime' | null;
  detail: string;
  durationMs: number;
}

interface HarnessResult {
  cells: number;
  cellError: string;
  tests: { passed: boolean; error: string }[];
  reason: 'timeout' | 'crashed' | 'memory' | 'notebook' | null;
  detail: string;
}

/** Reads the harness's result line: the one that carries this run's nonce. */
export function parseHarnessOutput(stdout: string, nonce: string): HarnessResult | null {
  const marker = `@@check ${nonce} `;
  const line = stdout.split('\n').find((l) => l.startsWith(marker));
  if (!line) return null;
  try {
    return JSON.parse(line.slice(marker.length)) as HarnessResult;
  } catch {
    return null;
  }
}

/** Per-test results and the score (the share of points passed, 0–100) of what the harness reported. */
export function scoreRun(tests: readonly StoredCheckTest[], result: HarnessResult, durationMs: number): CheckRun {
  const results = tests.map((test, i) => {
    const ran = result.tests[i];
    const passed = ran?.passed === true;
    const error = ran ? ran.error : result.reason ? `not run (${result.reason})` : 'not run';
    return {
      name: test.name,
      points: test.points,
      passed,
      message: passed ? '' : [test.hint, error].filter(Boolean).join(' — '),
    };
  });
  const total = tests.reduce((sum, t) => sum + t.points, 0);
  const earned = results.reduce((sum, r) => sum + (r.passed ? r.points : 0), 0);
  const score = total === 0 ? 0 : Math.round((100 * earned) / total);
  const status = result.reason ? 'error' : results.every((r) => r.passed) ? 'passed' : 'failed';
  return {
    status,
    score,
    tests: results,
    reason: result.reason,
    detail: (result.detail || result.cellError || '').slice(0, 2000),
    durationMs,
  };
}

/**
 * Runs a check in the project's own sandbox (its user, virtual environment, network rules and process limit),
 * never in this process: the notebook top to bottom in a fresh kernel, then the tests in its state. The tests
 * travel on the harness's standard input: they are never written to the project's files.
 */
export async function runCheck(
  driver: RuntimeDriver,
  project: RuntimeProject,
  input: { notebook: string; tests: readonly StoredCheckTest[]; timeoutSeconds: number; memoryBytes: number },
): Promise<CheckRun> {
  const nonce = randomBytes(16).toString('hex');
  const started = Date.now();
  const request = JSON.stringify({
    nonce,
    notebook: input.notebook,
    tests: input.tests.map((t) => ({ name: t.name, code: t.code })),
    timeoutSeconds: input.timeoutSeconds,
    memoryBytes: input.memoryBytes,
  });
  const output = await driver.exec(project, ['-c', HARNESS], {
    input: request,
    timeoutMs: input.timeoutSeconds * 1000 + SANDBOX_GRACE_MS,
  });
  const result = parseHarnessOutput(output.stdout, nonce) ?? {
    cells: 0,
    cellError: '',
    tests: [],
    reason: 'crashed' as const,
    detail: output.stderr.trim().split('\n').slice(-5).join('\n'),
  };
  return scoreRun(input.tests, result, Date.now() - started);
}
