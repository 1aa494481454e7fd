import { and, eq, like } from 'drizzle-orm';
import { courses, courseTasks, users } from '../server/src/platform/db/schema/index.js';
import { starterCourses, starterFile } from '../server/src/modules/course/starter-content.js';
import { runtimeInstalled, AI_SET } from '../server/src/modules/runtime/runtime-install.js';
import { JUPYTER_MISSING } from '../server/src/test/jupyter-kit.js';
import { hashPassword } from '../server/src/platform/passwords.js';
import { openRuntimeWorld } from './runtime.bench.js';

const RUNS = 10;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * Experiment checks: the seeded iris course's experiment, completed with its reference solution by a student whose
 * runtime is running; time from "check" to a recorded score over 10 checks. And the resident memory of an idle
 * project of each environment: its Jupyter server and a kernel that imported the environment's packages.
 */
export async function benchCheck(): Promise<string[]> {
  if (JUPYTER_MISSING || !runtimeInstalled('/usr/bin/python3', AI_SET)) {
    return ['(skipped: Debian jupyter-server or the AI environment’s packages are not installed)'];
  }
  const world = await openRuntimeWorld('aiedu-bench-check-', { CHECKS_PER_HOUR: '1000' });
  const { app, call } = world;
  try {
    const db = app.checks.ctx.db;
    const [teacher] = await db
      .insert(users)
      .values({
        customerId: world.customerId,
        username: 'author',
        passwordHash: await hashPassword('Author#2026pass'),
        roles: ['ROLE_TEACHER'],
      })
      .returning();
    const auth = { userId: teacher!.id, customerId: world.customerId, roles: ['ROLE_TEACHER'] };
    await app.seedStarterCourses([{ auth: { ...auth, sessionId: '', mustChangePassword: false }, language: 'en' }]);
    const [course] = await db
      .select()
      .from(courses)
      .where(and(eq(courses.customerId, world.customerId), like(courses.starter, 'iris-classifier:%')));
    await call('POST', '/api/v1/courses/join', { code: course!.code });
    const tasks = await db.select().from(courseTasks).where(eq(courseTasks.courseId, course!.id));
    const task = tasks.find((t) => t.questions.some((q) => q.type === 'experiment' && q.check))!;
    const question = task.questions.find((q) => q.type === 'experiment')!;
    const copyId = (
      await call('POST', `/api/v1/courses/tasks/${task.id}/experiment/start`, { questionId: question.id })
    ).json().data.projectId as string;
    const iris = starterCourses().find((c) => c.manifest.slug === 'iris-classifier')!;
    const solution = starterFile(iris, 'experiment/iris/solution.ipynb').toString('utf8');
    await call('PUT', `/gw/api/v1/projects/${copyId}/files/content`, { path: 'iris.ipynb', content: solution });
    // A warm runtime: the project's virtual environment made and its server running, as while a learner works.
    const warm = await world.kernelReady(copyId);

    const times: number[] = [];
    let score = -1;
    for (let i = 0; i < RUNS + 1; i++) {
      const started = performance.now();
      const check = (
        await call('POST', `/api/v1/courses/tasks/${task.id}/experiment/check`, { questionId: question.id })
      ).json().data as { id: string };
      let result: { status: string; score: number | null; reason: string | null; detail: string };
      do {
        await new Promise((r) => setTimeout(r, 25));
        result = (await call('GET', `/api/v1/courses/checks/${check.id}`)).json().data;
      } while (result.status === 'running');
      // The first check is a warm-up (the harness's imports reach the page cache).
      if (i > 0) times.push(performance.now() - started);
      score = result.score ?? -1;
      if (result.status !== 'passed') throw new Error(`the check did not pass: ${JSON.stringify(result)}`);
    }
    warm.channel.close();
    await world.stop(copyId);

    const idle = async (environment: 'python' | 'ai', imports: string) => {
      const id = (await call('POST', '/gw/api/v1/projects', { name: `Idle ${environment}`, environment })).json().data
        .id as string;
      const run = await world.kernelReady(id);
      await run.channel.execute(imports);
      const usage = await app.runtimes.driver.usage(id);
      run.channel.close();
      await world.stop(id);
      return usage?.memoryBytes ?? 0;
    };
    const plain = await idle('python', 'import numpy, matplotlib.pyplot');
    const ai = await idle('ai', 'import numpy, matplotlib.pyplot, pandas, sklearn, torch, cv2, PIL, scipy');
    return [
      `iris experiment, "check" → score recorded, ${RUNS} checks on a warm runtime (score ${score}): p50 ${seconds(quantile(times, 0.5))}, p95 ${seconds(quantile(times, 0.95))}`,
      `idle project, Jupyter server + a kernel with its environment imported (RSS): python ${mb(plain)}, ai ${mb(ai)} = ${(ai / plain).toFixed(1)}× the python one`,
    ];
  } finally {
    await world.close();
  }
}
