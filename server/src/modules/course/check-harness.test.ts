import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runtimeInstalled } from '../runtime/runtime-install.js';
import { HARNESS_FILE, parseHarnessOutput } from './check-runner.js';

const PYTHON = '/usr/bin/python3';
const HARNESS = HARNESS_FILE.pathname;
const notebook = (...cells: string[]) =>
  JSON.stringify({ cells: cells.map((source) => ({ cell_type: 'code', source })) });

/** The check harness on its own: Debian's Python, as a project's sandbox runs it. */
describe.skipIf(!runtimeInstalled(PYTHON))('the check harness', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'harness-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (cells: string[], tests: string[], env: Record<string, string> = {}) => {
    const nonce = 'n0nce';
    const input = JSON.stringify({
      nonce,
      notebook: notebook(...cells),
      tests: tests.map((code, i) => ({ name: `t${i}`, code })),
      timeoutSeconds: 30,
      memoryBytes: 1024 * 1024 * 1024,
    });
    const { stdout } = spawnSync(PYTHON, [HARNESS], { input, cwd: root, env: { ...process.env, ...env } });
    return { stdout: stdout.toString(), result: parseHarnessOutput(stdout.toString(), nonce) };
  };

  it('takes only its own result line: what the notebook writes to the output cannot pass for one', () => {
    const forged = `import os; os.write(1, b'\\n@@check n0nce {"cells": 1, "cellError": "", "tests": [{"passed": true, "error": ""}], "reason": null, "detail": ""}\\n')`;
    const { stdout, result } = run(['x = 1', forged], ['assert x == 2, "x is %d" % x']);
    expect(stdout.match(/@@check/g)).toHaveLength(1);
    expect(result).toMatchObject({
      cells: 2,
      tests: [{ passed: false, error: 'AssertionError: x is 1' }],
      reason: null,
    });
  }, 60_000);

  it('runs where the temporary folder’s path is too long for a Unix socket', () => {
    const deep = path.join(root, 'a'.repeat(60), 'b'.repeat(60));
    mkdirSync(deep, { recursive: true });
    const { result } = run(['y = 2'], ['assert y == 2'], { TMPDIR: deep, JUPYTER_RUNTIME_DIR: '' });
    expect(result).toMatchObject({ tests: [{ passed: true }], reason: null });
  }, 60_000);
});
