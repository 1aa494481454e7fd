import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasets, projects } from '../../platform/db/schema/index.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { addDatasetVersion, buildDataset } from './attachment.test-kit.js';

const isRoot = process.getuid?.() === 0;
const IRIS = 'sepal_length,species\n5.1,setosa\n';

describe('datasets attached to projects', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const people: Record<string, { id: string; customerId: string | null }> = {};
  let project: string;

  const call = (who: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]!, language: 'en' } });
  const base = (id = project) => `/gw/api/v1/projects/${id}/datasets`;
  const attach = (who: string, datasetId: string, id = project) => call(who, 'POST', base(id), { datasetId });
  const list = async (id = project) => (await call('kid', 'GET', base(id))).json().data as { [k: string]: unknown }[];
  /** The attachment once its synchronisation has ended. */
  const settled = async (datasetId: string, id = project) => {
    let row: { [k: string]: unknown } | undefined;
    await waitFor(async () => {
      row = (await list(id)).find((r) => r.datasetId === datasetId);
      return row?.syncState !== 'inProgress';
    });
    return row!;
  };
  const workspace = (id = project) => path.join(t.dataDir, 'runtime', id, 'workspace');
  const dataset = (owner: string, name: string, options: { access?: 'public'; ready?: boolean } = {}) =>
    buildDataset(t.database.db, t.storage, people[owner]!, { name, files: { 'iris.csv': IRIS }, ...options });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const school = await buildCustomer(db);
    const other = await buildCustomer(db);
    for (const [name, customer] of [
      ['kid', school],
      ['friend', school],
      ['stranger', other],
    ] as const) {
      const user = await buildUser(db, { customerId: customer.id, username: name, roles: [ROLES.student] });
      people[name] = { id: user.id, customerId: customer.id };
      tokens[name] = await signIn(t.app, customer.code, name, user.password);
    }
    project = (await call('kid', 'POST', '/gw/api/v1/projects', { name: 'Flowers' })).json().data.id;
  });
  afterAll(() => t.close());

  it('attaches a dataset and shows its files read-only at datasets/<name> of the workspace', async () => {
    const { dataset: iris } = await dataset('kid', 'Iris Flowers!');
    const res = await attach('kid', iris.id);
    expect(res.json()).toMatchObject({
      errorCode: '1000',
      data: { datasetId: iris.id, name: 'Iris Flowers!', mountName: 'iris_flowers', path: 'datasets/iris_flowers' },
    });
    expect(await settled(iris.id)).toMatchObject({ syncState: 'success', syncError: null, versionNumber: 1 });
    const link = path.join(workspace(), 'datasets', 'iris_flowers');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(link, 'iris.csv'), 'utf8')).toBe(IRIS);

    // Twice: refused, and nothing changes.
    expect((await attach('kid', iris.id)).json().errorCode).toBe('3205');
    expect(await list()).toHaveLength(1);

    // The file tree, the project's size and a saved version leave the dataset out; a fork gets no link to it.
    const tree = (await call('kid', 'GET', `/gw/api/v1/projects/${project}/files`)).json().data;
    expect(JSON.stringify(tree)).not.toContain('iris.csv');
    const saved = await call('kid', 'POST', `/gw/api/v1/projects/${project}/versions`, {
      major: 1,
      minor: 0,
      revision: 0,
      description: 'first',
    });
    expect(saved.json().errorCode).toBe('1000');
    const versionsDir = path.join(t.dataDir, 'project-versions', project);
    const snapshot = path.join(versionsDir, readdirSync(versionsDir)[0]!);
    expect(existsSync(path.join(snapshot, 'main.ipynb'))).toBe(true);
    expect(readdirSync(path.join(snapshot, 'datasets')).length).toBe(0);
    const fork = (await call('kid', 'POST', `/gw/api/v1/projects/${project}/fork`, {})).json();
    expect(fork.errorCode).toBe('1000');
    expect(existsSync(path.join(workspace(fork.data.id), 'main.ipynb'))).toBe(true);
    expect(lstatSync(path.join(workspace(fork.data.id), 'datasets', 'iris_flowers'), { throwIfNoEntry: false })).toBe(
      undefined,
    );
    // Restoring the version keeps the dataset where it was.
    const versions = (await call('kid', 'GET', `/gw/api/v1/projects/${project}/versions`)).json().data;
    const restored = await call('kid', 'POST', `/gw/api/v1/projects/${project}/versions/restore`, {
      versionId: versions[0].id,
    });
    expect(restored.json().errorCode).toBe('1000');
    expect(readFileSync(path.join(link, 'iris.csv'), 'utf8')).toBe(IRIS);
  });

  it.skipIf(!isRoot)("refuses the project's own user every write through the link", async () => {
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project));
    const uid = t.config.runtimeUidBase + row!.seq;
    const folder = path.join(workspace(), 'datasets', 'iris_flowers');
    const attempt = (code: string) =>
      spawnSync(process.execPath, ['-e', code], { uid, gid: uid, cwd: workspace(), encoding: 'utf8' });
    const read = attempt(
      `process.stdout.write(require('fs').readFileSync(${JSON.stringify(`${folder}/iris.csv`)}, 'utf8'))`,
    );
    expect(read.stdout).toBe(IRIS);
    for (const write of [
      `require('fs').appendFileSync(${JSON.stringify(`${folder}/iris.csv`)}, 'x')`,
      `require('fs').writeFileSync(${JSON.stringify(`${folder}/new.csv`)}, 'x')`,
      `require('fs').unlinkSync(${JSON.stringify(`${folder}/iris.csv`)})`,
      `require('fs').chmodSync(${JSON.stringify(`${folder}/iris.csv`)}, 0o666)`,
    ]) {
      const result = attempt(write);
      expect(result.status, write).not.toBe(0);
      expect(result.stderr).toMatch(/EACCES|EPERM/);
    }
    expect(readFileSync(path.join(folder, 'iris.csv'), 'utf8')).toBe(IRIS);
  });

  it('names folders uniquely, refuses a dataset without ready data, and detaches', async () => {
    const { dataset: first } = await dataset('kid', 'Scores');
    const { dataset: second } = await dataset('kid', 'scores');
    expect((await attach('kid', first.id)).json().data.mountName).toBe('scores');
    expect((await attach('kid', second.id)).json().data.mountName).toBe('scores_2');
    await settled(second.id);

    const { dataset: pending } = await dataset('kid', 'Pending', { ready: false });
    const refused = await attach('kid', pending.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ errorCode: '3204' });

    const { version } = { version: (await settled(first.id)).versionNumber };
    expect(version).toBe(1);
    const copies = path.join(t.dataDir, 'runtime', 'datasets');
    const before = readdirSync(copies).length;
    expect((await call('kid', 'DELETE', `${base()}/${second.id}`)).json().errorCode).toBe('1000');
    expect((await list()).map((r) => r.datasetId)).not.toContain(second.id);
    expect(existsSync(path.join(workspace(), 'datasets', 'scores_2'))).toBe(false);
    expect(readdirSync(copies).length).toBe(before - 1);
    expect((await call('kid', 'DELETE', `${base()}/${second.id}`)).statusCode).toBe(404);
  });

  it('keeps to the rights on the project and the dataset, and to the tenant', async () => {
    const { dataset: shared } = await dataset('friend', 'Shared', { access: 'public' });
    const { dataset: secret } = await dataset('friend', 'Secret');
    const { dataset: foreign } = await dataset('stranger', 'Foreign', { access: 'public' });
    // Another's private dataset, another tenant's public one: as if they did not exist.
    expect((await attach('kid', secret.id)).statusCode).toBe(404);
    expect((await attach('kid', foreign.id)).statusCode).toBe(404);
    // Another's project: a private one is not found; another tenant's neither.
    expect((await attach('friend', shared.id)).statusCode).toBe(404);
    expect((await call('friend', 'GET', base())).statusCode).toBe(404);
    expect((await call('stranger', 'GET', base())).statusCode).toBe(404);
    expect((await call('stranger', 'POST', `${base()}/${shared.id}/sync`)).statusCode).toBe(404);
    expect((await call('stranger', 'DELETE', `${base()}/${shared.id}`)).statusCode).toBe(404);
    // A public dataset of the school is the kid's to use.
    expect((await attach('kid', shared.id)).json().errorCode).toBe('1000');
    expect(await settled(shared.id)).toMatchObject({ syncState: 'success', mountName: 'shared' });
  });

  it('moves to the current version on a sync, and fails one the caller may no longer see', async () => {
    const { dataset: moving } = await dataset('friend', 'Moving', { access: 'public' });
    await attach('kid', moving.id);
    expect(await settled(moving.id)).toMatchObject({ versionNumber: 1, currentVersionNumber: 1 });
    await addDatasetVersion(t.database.db, t.storage, moving.id, people.friend!, { 'iris.csv': 'v2\n' });
    expect((await list()).find((r) => r.datasetId === moving.id)).toMatchObject({ currentVersionNumber: 2 });
    expect((await call('kid', 'POST', `${base()}/${moving.id}/sync`)).json().errorCode).toBe('1000');
    expect(await settled(moving.id)).toMatchObject({ syncState: 'success', versionNumber: 2 });
    expect(readFileSync(path.join(workspace(), 'datasets', 'moving', 'iris.csv'), 'utf8')).toBe('v2\n');

    // Made private by its owner: the kid may no longer see it, so it is not synchronised and leaves the workspace.
    await t.database.db.update(datasets).set({ access: 'private' }).where(eq(datasets.id, moving.id));
    const refused = await call('kid', 'POST', `${base()}/${moving.id}/sync`);
    expect(refused.json().data).toMatchObject({
      syncState: 'failure',
      syncError: { errorCode: '3003', errorMsg: 'Dataset synchronisation failed', reason: 'noPermission' },
    });
    await waitFor(() => !existsSync(path.join(workspace(), 'datasets', 'moving')));
  });
});
