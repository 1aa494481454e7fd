import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../platform/db/schema/index.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('projects and versions', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let schoolId: string;

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const create = async (who: string, body: object) => (await call(who, 'POST', '/gw/api/v1/projects', body)).json();

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const school = await buildCustomer(db, { containerTypes: ['BASIC', 'ADVANCED'] });
    schoolId = school.id;
    const other = await buildCustomer(db);
    for (const [name, customer] of [
      ['kid', school],
      ['friend', school],
      ['stranger', other],
    ] as const) {
      const user = await buildUser(db, { customerId: customer.id, username: name, roles: [ROLES.student] });
      tokens[name] = await signIn(t.app, customer.code, name, user.password);
    }
  });
  afterAll(() => t.close());

  it('creates a project with every field and a starter notebook', async () => {
    const body = await create('kid', {
      name: 'Digits',
      description: 'Recognise digits',
      tags: ['vision', 'mnist'],
      type: 'classification',
      runtimeType: 'ADVANCED',
      framework: 'PyTorch',
      labelFile: 'labels.csv',
      courseTag: 'AI-101',
      direction: 'vision',
      studySection: 'junior',
      tool: 'MMEdu',
    });
    expect(body).toMatchObject({
      errorCode: '1000',
      data: { name: 'Digits', access: 'private', runtimeType: 'ADVANCED', tool: 'MMEdu', isOwner: true, canEdit: true },
    });
    const tree = (await call('kid', 'GET', `/gw/api/v1/projects/${body.data.id}/files`)).json().data;
    expect(tree.map((n: { name: string }) => n.name)).toEqual(['main.ipynb']);
    const notebook = (
      await call('kid', 'GET', `/gw/api/v1/projects/${body.data.id}/files/content?path=main.ipynb`)
    ).json().data;
    expect(JSON.parse(notebook.content)).toMatchObject({ nbformat: 4, cells: [{ cell_type: 'code' }] });
  });

  it('offers only the container types of the customer: others are refused, copies take one offered', async () => {
    const gpu = await call('kid', 'POST', '/gw/api/v1/projects', { name: 'Big model', runtimeType: 'GPU' });
    expect(gpu.statusCode).toBe(403);
    expect(gpu.json()).toMatchObject({ errorCode: '3110', data: { offered: ['BASIC', 'ADVANCED'] } });
    const { data } = await create('kid', { name: 'Shared', runtimeType: 'ADVANCED', access: 'public' });
    const url = `/gw/api/v1/projects/${data.id}`;
    expect((await call('kid', 'PUT', url, { runtimeType: 'GPU' })).json().errorCode).toBe('3110');
    expect((await call('kid', 'GET', url)).json().data.runtimeType).toBe('ADVANCED');
    const balances = (await call('kid', 'GET', '/gw/api/v1/runtime/balance')).json().data;
    expect(balances.map((b: { runtimeType: string }) => b.runtimeType)).toEqual(['BASIC', 'ADVANCED']);

    await t.database.db
      .update(customers)
      .set({ containerTypes: ['BASIC'] })
      .where(eq(customers.id, schoolId));
    try {
      const fork = (await call('friend', 'POST', `${url}/fork`)).json().data;
      expect(fork).toMatchObject({ forkedFrom: data.id, runtimeType: 'BASIC' });
      expect((await call('kid', 'GET', '/gw/api/v1/runtime/balance')).json().data).toHaveLength(1);
    } finally {
      await t.database.db
        .update(customers)
        .set({ containerTypes: ['BASIC', 'ADVANCED'] })
        .where(eq(customers.id, schoolId));
    }
  });

  it('refuses duplicate tags and more than ten', async () => {
    expect((await create('kid', { name: 'T', tags: ['a', 'A'] })).errorCode).toBe('3015');
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect((await create('kid', { name: 'T', tags: eleven })).errorCode).toBe('1001');
  });

  it('never lets a public project return to private', async () => {
    const { data } = await create('kid', { name: 'Shared' });
    expect((await call('kid', 'PUT', `/gw/api/v1/projects/${data.id}`, { access: 'private' })).json().errorCode).toBe(
      '1000',
    );
    expect((await call('kid', 'PUT', `/gw/api/v1/projects/${data.id}`, { access: 'public' })).json().errorCode).toBe(
      '1000',
    );
    const back = await call('kid', 'PUT', `/gw/api/v1/projects/${data.id}`, { access: 'private' });
    expect(back.statusCode).toBe(409);
    expect(back.json().errorCode).toBe('3103');
  });

  it('refuses the group access until a project can name its group', async () => {
    // Shared with a group but naming none, a project would be seen by nobody but its owner.
    expect((await create('kid', { name: 'Team', access: 'group' })).errorCode).toBe('1001');
    const { data } = await create('kid', { name: 'Team' });
    const put = await call('kid', 'PUT', `/gw/api/v1/projects/${data.id}`, { access: 'group' });
    expect(put.statusCode).toBe(400);
    expect(put.json().errorCode).toBe('1001');
  });

  it('shows public projects in the channel of the same institution only, with filters', async () => {
    await create('kid', { name: 'Weather charts', access: 'public', tags: ['charts'], direction: 'data' });
    await create('kid', { name: 'Secret', access: 'private', tags: ['charts'] });
    const channel = (await call('friend', 'GET', '/gw/api/v1/projects?tag=charts&sort=name,asc')).json().data;
    expect(channel.list.map((p: { name: string }) => p.name)).toEqual(['Weather charts']);
    expect(channel.list[0].canEdit).toBe(false);
    const byKeyword = (await call('friend', 'GET', '/gw/api/v1/projects?keyword=weather&direction=data')).json().data;
    expect(byKeyword.total).toBe(1);
    expect((await call('stranger', 'GET', '/gw/api/v1/projects?tag=charts')).json().data.total).toBe(0);
    const mine = (await call('kid', 'GET', '/gw/api/v1/projects/mine?keyword=secret')).json().data;
    expect(mine.list.map((p: { name: string }) => p.name)).toEqual(['Secret']);
    // The total comes with a page's rows; a page past the end still tells it.
    const all = (await call('kid', 'GET', '/gw/api/v1/projects/mine?size=1')).json().data;
    expect(all.list).toHaveLength(1);
    const past = (await call('kid', 'GET', '/gw/api/v1/projects/mine?size=1&page=99')).json().data;
    expect(past).toMatchObject({ list: [], total: all.total, page: 99 });
    expect(all.total).toBeGreaterThan(1);
  });

  it('lets collaborators edit and anyone who can see fork', async () => {
    const { data } = await create('kid', { name: 'Team work', access: 'public' });
    const url = `/gw/api/v1/projects/${data.id}`;
    expect((await call('friend', 'PUT', url, { name: 'Mine now' })).json().errorCode).toBe('1007');
    const set = await call('kid', 'PUT', `${url}/collaborators`, { usernames: ['friend'] });
    expect(set.json().data.map((c: { username: string }) => c.username)).toEqual(['friend']);
    expect((await call('friend', 'PUT', url, { description: 'edited together' })).json().errorCode).toBe('1000');
    expect((await call('friend', 'DELETE', url)).json().errorCode).toBe('1007');
    const fork = (await call('friend', 'POST', `${url}/fork`)).json().data;
    expect(fork).toMatchObject({ forkedFrom: data.id, access: 'private', isOwner: true });
    expect((await call('friend', 'GET', `/gw/api/v1/projects/${fork.id}/files`)).json().data).toHaveLength(1);
    expect((await call('stranger', 'POST', `${url}/fork`)).statusCode).toBe(404);
  });

  it('leaves no project behind when its files cannot be copied', async () => {
    const { data } = await create('kid', { name: 'Odd files', access: 'public' });
    // A named pipe in the workspace: the copy refuses it, as it would fail on a full disk.
    const projectsDir = path.join(t.dataDir, 'runtime');
    execFileSync('mkfifo', [path.join(projectsDir, data.id, 'workspace', 'pipe')]);
    const before = readdirSync(projectsDir);
    const fork = await call('friend', 'POST', `/gw/api/v1/projects/${data.id}/fork`);
    expect(fork.statusCode).toBe(500);
    expect(readdirSync(projectsDir)).toEqual(before);
    const mine = (await call('friend', 'GET', '/gw/api/v1/projects/mine?keyword=Odd')).json().data;
    expect(mine.list).toEqual([]);
  });

  it('saves versions only in increasing order, restores and compares them', async () => {
    const { data } = await create('kid', { name: 'Versions' });
    const url = `/gw/api/v1/projects/${data.id}`;
    const save = (major: number, minor: number, revision: number) =>
      call('kid', 'POST', `${url}/versions`, { major, minor, revision, description: `v${major}.${minor}.${revision}` });
    const first = (await save(1, 0, 0)).json();
    expect(first.data).toMatchObject({ version: '1.0.0', snapshotNo: 1, fileCount: 1 });
    expect((await save(1, 0, 0)).json().errorCode).toBe('3104');
    expect((await save(0, 100, 100)).json().errorCode).toBe('3104');
    expect((await save(1, 0, 101)).json().errorCode).toBe('1001');
    await call('kid', 'PUT', `${url}/files/content`, { path: 'notes.md', content: '# hello' });
    const second = (await save(1, 0, 1)).json();
    expect(second.data).toMatchObject({ version: '1.0.1', snapshotNo: 2, fileCount: 2 });
    const listed = (await call('kid', 'GET', `${url}/versions`)).json().data;
    expect(listed.map((v: { version: string }) => v.version)).toEqual(['1.0.1', '1.0.0']);
    const diff = (await call('kid', 'GET', `${url}/versions/compare?from=${first.data.id}&to=${second.data.id}`)).json()
      .data;
    expect(diff).toEqual([
      { path: 'main.ipynb', change: 'same', fromSize: expect.any(Number), toSize: expect.any(Number) },
      { path: 'notes.md', change: 'added', fromSize: null, toSize: 7 },
    ]);
    await call('kid', 'POST', `${url}/versions/restore`, { versionId: first.data.id });
    const tree = (await call('kid', 'GET', `${url}/files`)).json().data;
    expect(tree.map((n: { name: string }) => n.name)).toEqual(['main.ipynb']);
  });
});
