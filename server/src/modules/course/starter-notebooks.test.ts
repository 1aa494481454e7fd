import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@aiedu/contracts';
import { LocalRuntimeDriver } from '../runtime/local-driver.js';
import { runtimeInstalled, AI_SET } from '../runtime/runtime-install.js';
import { writeFiles } from '../project/workspace-files.js';
import { runCheck } from './check-runner.js';
import { experimentFiles, starterCourses, starterFile } from './starter-content.js';

const PYTHON = '/usr/bin/python3';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

/**
 * Every starter course's notebooks, on the real runtime (Debian's Python and the AI packages, in a project's own
 * sandbox, through the same harness as a learner's check): each template and the reference solution run top to
 * bottom without an error, the check passes the solution with 100 and fails every untouched template.
 */
describe.skipIf(!runtimeInstalled(PYTHON) || !runtimeInstalled(PYTHON, AI_SET))(
  'the starter courses’ notebooks',
  () => {
    let root: string;
    let driver: LocalRuntimeDriver;
    let seq = 0;

    beforeAll(() => {
      root = mkdtempSync(path.join(os.tmpdir(), 'starter-notebooks-'));
      driver = new LocalRuntimeDriver({
        rootDir: root,
        python: PYTHON,
        uidBase: 260_000,
        limits: {
          BASIC: { cpu: 1, memoryMb: 2048 },
          ADVANCED: { cpu: 2, memoryMb: 2048 },
          GPU: { cpu: 2, memoryMb: 2048 },
        },
        maxProcesses: 512,
        warmPool: { BASIC: 0, ADVANCED: 0, GPU: 0 },
        pipIndexUrl: undefined,
        network: { mode: 'none', allow: [] },
        log: silent,
      });
    });
    afterAll(async () => {
      await driver.stopAll();
      rmSync(root, { recursive: true, force: true });
    });

    const courses = starterCourses();

    it('ships five courses in four languages', () => {
      expect(courses.map((c) => c.manifest.slug)).toEqual([
        'python-first-steps',
        'data-and-charts',
        'iris-classifier',
        'handwritten-digits',
        'image-basics',
      ]);
      for (const course of courses) {
        expect(Object.keys(course.locales).sort()).toEqual([...LANGUAGES].sort());
        for (const experiment of Object.values(course.manifest.experiments)) {
          expect(experiment.tests.reduce((sum, t) => sum + t.points, 0)).toBe(100);
        }
      }
    });

    for (const course of courses) {
      for (const [key, experiment] of Object.entries(course.manifest.experiments)) {
        it(`${course.manifest.slug}/${key}: the solution scores 100, every template runs and fails`, async () => {
          const project = { id: `starter-${course.manifest.slug}-${key}`, seq: ++seq };
          await writeFiles(driver.ensureWorkspace(project), experimentFiles(course, key));
          const tests = experiment.tests.map((t) => ({ name: t.name.en, hint: '', points: t.points, code: t.code }));
          const check = (file: string) =>
            runCheck(driver, project, {
              notebook: starterFile(course, `experiment/${key}/${file}`).toString('utf8'),
              tests,
              timeoutSeconds: experiment.timeoutSeconds,
              memoryBytes: 2048 * 1024 * 1024,
            });
          const solution = await check('solution.ipynb');
          expect(solution, JSON.stringify(solution.tests)).toMatchObject({ status: 'passed', score: 100, detail: '' });
          for (const language of LANGUAGES) {
            const template = await check(`template.${language}.ipynb`);
            expect(template, `${language}: ${template.detail}`).toMatchObject({
              status: 'failed',
              reason: null,
              detail: '',
            });
            expect(template.score).toBeLessThan(50);
          }
        }, 600_000);
      }
    }
  },
);
