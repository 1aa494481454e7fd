import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const KB = 1024;

describe("the owner's storage quota over versions and forks", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const create = async (who: string, name: string, access = 'private') =>
    (await call(who, 'POST', '/gw/api/v1/projects', { name, access })).json().data.id as string;
  const workspace = (id: string) => path.join(t.dataDir, 'runtime', id, 'workspace');
  /** A file the kernel wrote into a project's workspace. */
  const kernelWrites = (id: string, name: string, bytes: number) =>
    writeFileSync(path.join(workspace(id), name), Buffer.alloc(bytes, 97));
  const snapshot = (who: string, id: string, revision: number) =>
    call(who, 'POST', `/gw/api/v1/projects/${id}/versions`, { major: 1, minor: 0, revision, description: 'v' });

  beforeAll(async () => {
    t = await createTestApp({ config: { userStorageQuotaBytes: 64 * KB } });
    const school = await buildCustomer(t.database.db);
    for (const name of ['kid', 'friend']) {
      const user = await buildUser(t.database.db, { customerId: school.id, username: name, roles: [ROLES.student] });
      tokens[name] = await signIn(t.app, school.code, name, user.password);
    }
  });
  afterAll(() => t.close());

  it('counts stored versions toward the quota and refuses a snapshot that does not fit', async () => {
    const id = await create('kid', 'Data');
    kernelWrites(id, 'data.bin', 40 * KB);
    // 40 kB of files and 40 kB more for their copy: past the 64 kB quota, and no version is left behind.
    const refused = await snapshot('kid', id, 0);
    expect(refused.statusCode).toBe(507);
    expect(refused.json().errorCode).toBe('2003');
    expect((await call('kid', 'GET', `/gw/api/v1/projects/${id}/versions`)).json().data).toEqual([]);
    expect(readdirSync(path.join(t.dataDir, 'project-versions'))).not.toContain(id);

    kernelWrites(id, 'data.bin', 20 * KB);
    expect((await snapshot('kid', id, 0)).json()).toMatchObject({ errorCode: '1000', data: { version: '1.0.0' } });
    // The version's 20 kB count: 20 kB of files, 20 kB kept and 30 kB more do not fit.
    const save = await call('kid', 'PUT', `/gw/api/v1/projects/${id}/files/content`, {
      path: 'more.txt',
      content: 'x'.repeat(30 * KB),
    });
    expect(save.json().errorCode).toBe('2003');

    // A restore that grows the workspace past the quota is refused and leaves the draft as it was.
    const [version] = (await call('kid', 'GET', `/gw/api/v1/projects/${id}/versions`)).json().data;
    rmSync(path.join(workspace(id), 'data.bin'));
    const other = await create('kid', 'Other');
    kernelWrites(other, 'other.bin', 30 * KB);
    const restore = await call('kid', 'POST', `/gw/api/v1/projects/${id}/versions/restore`, { versionId: version.id });
    expect(restore.json().errorCode).toBe('2003');
    expect(existsSync(path.join(workspace(id), 'main.ipynb'))).toBe(true);
    rmSync(path.join(workspace(other), 'other.bin'));
    expect(
      (await call('kid', 'POST', `/gw/api/v1/projects/${id}/versions/restore`, { versionId: version.id })).json()
        .errorCode,
    ).toBe('1000');
    expect(existsSync(path.join(workspace(id), 'data.bin'))).toBe(true);

    // 30 kB more and their version fit only once the project and its version are deleted.
    kernelWrites(other, 'other.bin', 30 * KB);
    expect((await snapshot('kid', other, 0)).json().errorCode).toBe('2003');
    expect((await call('kid', 'DELETE', `/gw/api/v1/projects/${id}`)).json().errorCode).toBe('1000');
    expect((await snapshot('kid', other, 0)).json().errorCode).toBe('1000');
  });

  it("refuses a fork whose files do not fit in the new owner's quota", async () => {
    const shared = await create('kid', 'Shared', 'public');
    kernelWrites(shared, 'model.bin', 30 * KB);
    const own = await create('friend', 'Own');
    kernelWrites(own, 'own.bin', 40 * KB);

    const refused = await call('friend', 'POST', `/gw/api/v1/projects/${shared}/fork`);
    expect(refused.statusCode).toBe(507);
    expect(refused.json().errorCode).toBe('2003');
    const mine = (await call('friend', 'GET', '/gw/api/v1/projects/mine')).json().data;
    expect(mine.list.map((p: { name: string }) => p.name)).toEqual(['Own']);

    rmSync(path.join(workspace(own), 'own.bin'));
    const fork = (await call('friend', 'POST', `/gw/api/v1/projects/${shared}/fork`)).json();
    expect(fork).toMatchObject({ errorCode: '1000', data: { forkedFrom: shared, isOwner: true } });
    // The copy counts for its new owner: 30 kB of it and 40 kB more do not fit.
    const save = await call('friend', 'PUT', `/gw/api/v1/projects/${own}/files/content`, {
      path: 'more.txt',
      content: 'x'.repeat(40 * KB),
    });
    expect(save.json().errorCode).toBe('2003');
  });
});
