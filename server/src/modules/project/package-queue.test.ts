import { ROLES } from '@aiedu/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { packageOperations, projects, serverInstances } from '../../platform/db/schema/index.js';
import { ServerInstance } from '../../platform/server-instances.js';
import { AppError } from '../../platform/errors.js';
import { buildCustomer, buildUser, createProjectAs, signIn } from '../../test/factories.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { ExecResult, RuntimeDriver } from '../runtime/runtime-driver.js';
import { PackageQueue } from './package.service.js';
import type { ProjectRow } from './project-access.js';

/**
 * pip as the queue sees it: each run waits until the test lets it finish, and the most runs at once in one
 * project's environment are counted (the two processes of a deployment share it).
 */
class RecordingPip {
  running = 0;
  most = 0;
  readonly started: string[] = [];
  private readonly finish = new Map<string, () => void>();

  exec(_project: unknown, args: string[]): Promise<ExecResult> {
    const name = args.at(-1)!;
    this.running += 1;
    this.most = Math.max(this.most, this.running);
    this.started.push(name);
    return new Promise((resolve) =>
      this.finish.set(name, () => {
        this.running -= 1;
        resolve({ code: 0, stdout: `Successfully installed ${name}`, stderr: '' });
      }),
    );
  }

  done(name: string) {
    this.finish.get(name)!();
  }
}

describe('package operations of one project asked of several server processes', () => {
  let t: TestApp;
  let project: ProjectRow;
  let userId: string;
  const instances: ServerInstance[] = [];

  /** A server process: its record in the database (beating) and its queue, on the shared environment. */
  async function process(pip: Pick<RecordingPip, 'exec'>, port: number) {
    const ctx = {
      db: t.database.db,
      now: () => new Date(),
      config: { ...t.config, instanceUrl: `http://127.0.0.1:${port}` },
    } as unknown as AppContext;
    const instance = new ServerInstance(ctx, 'test-secret-test-secret-test-secret');
    await instance.register();
    instances.push(instance);
    return { instance, queue: new PackageQueue(ctx, pip as unknown as RuntimeDriver, instance) };
  }

  const states = async () =>
    (
      await t.database.db
        .select({ name: packageOperations.name, state: packageOperations.state })
        .from(packageOperations)
        .where(eq(packageOperations.projectId, project.id))
        .orderBy(asc(packageOperations.createdAt), asc(packageOperations.id))
    ).map((row) => `${row.name}:${row.state}`);

  beforeAll(async () => {
    t = await createTestApp();
    const customer = await buildCustomer(t.database.db);
    const kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
    userId = kid.id;
    const token = await signIn(t.app, customer.code, 'kid', kid.password);
    const id = await createProjectAs(t.app, token, 'Shared environment');
    [project] = (await t.database.db.select().from(projects).where(eq(projects.id, id))) as [ProjectRow];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await t.close();
  });

  it('runs one at a time in the order they were asked for, whichever process was asked', async () => {
    const pip = new RecordingPip();
    const a = await process(pip, 1);
    const b = await process(pip, 2);
    await a.queue.enqueue(project, userId, 'install', 'first');
    await b.queue.enqueue(project, userId, 'install', 'second');
    await a.queue.enqueue(project, userId, 'install', 'third');

    await waitFor(() => pip.started.length === 1);
    expect(await states()).toEqual(['first:installing', 'second:waiting', 'third:waiting']);
    pip.done('first');
    // The other process's operation is next, not the one queued behind `first` in the same process.
    await waitFor(() => pip.started.length === 2);
    expect(pip.started).toEqual(['first', 'second']);
    pip.done('second');
    await waitFor(() => pip.started.length === 3);
    pip.done('third');
    await Promise.all([a.queue.idle(project.id), b.queue.idle(project.id)]);

    expect(pip.started).toEqual(['first', 'second', 'third']);
    expect(pip.most).toBe(1);
    expect(await states()).toEqual(['first:success', 'second:success', 'third:success']);
  });

  it('ends as failed what a process that stopped was running, so the queue goes on', async () => {
    const pip = new RecordingPip();
    const gone = await process(pip, 3);
    const live = await process(pip, 4);
    await t.database.db.delete(packageOperations).where(eq(packageOperations.projectId, project.id));
    // `gone` was installing when it stopped; a row from before operations named their process was waiting.
    const base = { projectId: project.id, customerId: project.customerId, userId, kind: 'install' as const };
    await t.database.db
      .insert(packageOperations)
      .values({ ...base, name: 'cut-off', state: 'installing', holder: gone.instance.id });
    await t.database.db.insert(packageOperations).values({ ...base, name: 'older', state: 'waiting', holder: null });
    await gone.instance.close();
    await t.database.db.delete(serverInstances).where(eq(serverInstances.id, gone.instance.id));

    expect((await live.queue.list(project.id)).map((op) => `${op.name}:${op.state}`).sort()).toEqual([
      'cut-off:fail',
      'older:fail',
    ]);
    await live.queue.enqueue(project, userId, 'install', 'after');
    await waitFor(() => pip.started.length === 1);
    pip.done('after');
    await live.queue.idle(project.id);
    expect(await states()).toEqual(['cut-off:fail', 'older:fail', 'after:success']);
  });

  it('ends as failed, with the reason, an operation whose command could not run, and goes on with the next', async () => {
    const pip = new RecordingPip();
    await t.database.db.delete(packageOperations).where(eq(packageOperations.projectId, project.id));
    // Preparing the environment fails for `broken` (as the local driver's venv creation can).
    const driver = {
      exec: (p: unknown, args: string[]) =>
        args.at(-1) === 'broken'
          ? Promise.reject(new AppError('VM_CREATE_FAILED', { reason: 'venv: cannot create environment' }))
          : pip.exec(p, args),
    };
    const { queue: failing } = await process(driver, 5);

    await failing.enqueue(project, userId, 'install', 'broken');
    await failing.enqueue(project, userId, 'install', 'after');
    await waitFor(() => pip.started.length === 1);
    pip.done('after');
    await failing.idle(project.id);

    expect(await states()).toEqual(['broken:fail', 'after:success']);
    const [broken] = await t.database.db.select().from(packageOperations).where(eq(packageOperations.name, 'broken'));
    expect(broken!.message).toContain('venv: cannot create environment');
    expect(broken!.finishedAt).not.toBeNull();
  });
});
