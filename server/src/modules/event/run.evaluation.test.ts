import { readdirSync } from 'node:fs';
import path from 'node:path';
import { EVENT_API, type TRun } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUPYTER_MISSING } from '../../test/jupyter-kit.js';
import { buildRunWorld, multipartFiles, type RunWorld } from './run.test-kit.js';

/** The organiser's script: the share of predictions equal to the answers, line by line. */
const ACCURACY = `import sys

predictions = [l.strip() for l in open(sys.argv[1]) if l.strip()]
answers = [l.strip() for l in open(sys.argv[2]) if l.strip()]
for line in predictions:
    print("prediction:", line)
right = sum(1 for p, a in zip(predictions, answers) if p == a)
print(right / len(answers))
`;
const DAY = 86_400_000;
const ANSWERS = 'cat\ndog\ncat\nbird\n';

/** A script that tries to pass a score of its own: marked lines on its output and on the harness's descriptors. */
const FORGER = `import os, sys

forged = '@@evaluate ' + 'f' * 32 + ' {"score": 99, "error": "", "reason": null}\\n'
print(forged)
parent = os.getppid()
for fd in range(0, 20):
    try:
        with open('/proc/%d/fd/%d' % (parent, fd), 'w') as out:
            out.write(forged)
    except OSError:
        pass
try:
    open('/proc/%d/mem' % parent, 'rb').read(1)
    print('read the harness memory', file=sys.stderr)
    sys.exit(3)
except OSError:
    pass
print(0.25 if sys.argv[1].endswith('.csv') else forged)
`;

describe.skipIf(JUPYTER_MISSING)('auto-scored runs end to end: the script in a sandbox, scores on the ladder', () => {
  let w: RunWorld;
  const q = `eventId=REPLACE&trackId=acc`;
  const query = () => q.replace('REPLACE', w.event.id);
  const setEvaluation = (script: string) => {
    const body = multipartFiles({
      script: { name: 'evaluate.py', content: script },
      answers: { name: 'answers.csv', content: ANSWERS },
    });
    return w.call('boss', 'PUT', `${EVENT_API.evaluation}?${query()}`, body.payload, body.headers);
  };
  const submit = (who: string, content: string, name = 'predictions.csv') => {
    const body = multipartFiles({ file: { name, content } });
    return w.call(who, 'POST', `${EVENT_API.runs}?${query()}`, body.payload, body.headers);
  };
  /** The run once the queue has finished it: waits for this process's queue to run dry, then reads it. */
  const finished = async (who: string, runId: string): Promise<TRun> => {
    for (;;) {
      await w.t.app.eventRuns.settled();
      const view = (await w.call(who, 'GET', `${EVENT_API.runs}?${query()}`)).json().data as { runs: TRun[] };
      const run = view.runs.find((r) => r.id === runId)!;
      if (run.state !== 'queued' && run.state !== 'running') return run;
      w.t.app.eventRuns.kick();
    }
  };

  beforeAll(async () => {
    w = await buildRunWorld({ config: { eventRuns: { concurrency: 1, timeoutSeconds: 20 } } });
    await w.team('stuA1', 'acc', w.schoolA.id, 'passed', ['stuA2']);
    await w.team('stuB1', 'acc', w.schoolB.id);
    expect(w.code(await setEvaluation(ACCURACY))).toBe('1000');
  }, 60_000);
  afterAll(async () => {
    await w?.t.close();
  });

  it('scores two teams by the organiser’s script and ranks them by personal best', async () => {
    const a = (await submit('stuA1', 'cat\ndog\ndog\nbird\n')).json().data as TRun;
    const b = (await submit('stuB1', 'cat\ncat\ncat\ncat\n')).json().data as TRun;
    expect(await finished('stuA1', a.id)).toMatchObject({ state: 'scored', score: 0.75, counted: true, error: null });
    expect(await finished('stuB1', b.id)).toMatchObject({ state: 'scored', score: 0.5 });
    // B improves past A; A's worse second run leaves its best alone.
    const b2 = (await submit('stuB1', 'cat\ndog\ncat\nbird\n')).json().data as TRun;
    const a2 = (await submit('stuA2', 'bird\nbird\nbird\nbird\n')).json().data as TRun;
    expect((await finished('stuB1', b2.id)).score).toBe(1);
    expect((await finished('stuA1', a2.id)).score).toBe(0.25);
    const ladder = (await w.call('stuA1', 'GET', `${EVENT_API.ladder}?${query()}`)).json().data;
    expect(
      ladder.rows.map((r: { teamName: string; best: number; runs: number }) => [r.teamName, r.best, r.runs]),
    ).toEqual([
      ['Team stuB1', 1, 2],
      ['Team stuA1', 0.75, 2],
    ]);
    expect((await w.call('stuA1', 'GET', `${EVENT_API.runs}?${query()}`)).json().data).toMatchObject({
      best: 0.75,
      usedToday: 2,
    });
    // Each run's copies of the answers and predictions go with it.
    const left = readdirSync(path.join(w.t.dataDir, 'runtime'), { recursive: true }).map(String);
    expect(left.filter((f) => /(answers|predictions)\.csv$/.test(f))).toEqual([]);
  }, 180_000);

  it('ignores a result line the predictions or the script forge', async () => {
    w.clock.set(new Date(w.start.getTime() + DAY));
    const forged = `@@evaluate ${'0'.repeat(32)} {"score": 99, "error": "", "reason": null}\ncat\n`;
    const run = (await submit('stuB1', forged)).json().data as TRun;
    // Only the second line matches an answer ("dog" expected): nothing scores.
    expect(await finished('stuB1', run.id)).toMatchObject({ state: 'scored', score: 0 });

    expect(w.code(await setEvaluation(FORGER))).toBe('1000');
    const honest = (await submit('stuA1', 'x\n')).json().data as TRun;
    expect(await finished('stuA1', honest.id)).toMatchObject({ state: 'scored', score: 0.25 });
    const lying = (await submit('stuA1', 'x\n', 'predictions.txt')).json().data as TRun;
    const failed = await finished('stuA1', lying.id);
    expect(failed).toMatchObject({ state: 'failed', score: null, platformFault: false, counted: true });
    expect(failed.error).toContain('no score');
  }, 180_000);

  it("a script that fails counts; one that runs out of time is the platform's and does not", async () => {
    w.clock.set(new Date(w.start.getTime() + 2 * DAY));
    expect(w.code(await setEvaluation('raise ValueError("bad predictions format")\n'))).toBe('1000');
    const broken = (await submit('stuB1', 'cat\n')).json().data as TRun;
    expect(await finished('stuB1', broken.id)).toMatchObject({
      state: 'failed',
      platformFault: false,
      counted: true,
      error: 'ValueError: bad predictions format',
    });
    w.t.app.eventRuns.ctx.config.eventRuns.timeoutSeconds = 2;
    expect(w.code(await setEvaluation('import time\ntime.sleep(60)\nprint(1)\n'))).toBe('1000');
    const slow = (await submit('stuB1', 'cat\n')).json().data as TRun;
    expect(await finished('stuB1', slow.id)).toMatchObject({ state: 'failed', platformFault: true, counted: false });
  }, 180_000);

  it('runs a file of a project the team member owns, read through the runtime’s files', async () => {
    expect(w.code(await setEvaluation(ACCURACY))).toBe('1000');
    w.t.app.eventRuns.ctx.config.eventRuns.timeoutSeconds = 20;
    const project = await w.call('stuA1', 'POST', '/gw/api/v1/projects', { name: 'Predictor' });
    const projectId: string = project.json().data.id;
    await w.call('stuA1', 'PUT', `/gw/api/v1/projects/${projectId}/files/content`, {
      path: 'out.csv',
      content: 'cat\ndog\ncat\ncat\n',
    });
    // Another member's project is not the caller's to submit.
    expect(w.code(await w.call('stuA2', 'POST', `${EVENT_API.runs}?${query()}`, { projectId, path: 'out.csv' }))).toBe(
      '1004',
    );
    w.clock.set(new Date(w.start.getTime() + 3 * DAY));
    const run = (await w.call('stuA1', 'POST', `${EVENT_API.runs}?${query()}`, { projectId, path: 'out.csv' })).json()
      .data as TRun;
    expect(await finished('stuA1', run.id)).toMatchObject({ state: 'scored', score: 0.75 });
  }, 180_000);
});
