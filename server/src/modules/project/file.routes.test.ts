import { lstatSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPEN_LIMITS, ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, createProjectAs, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('the editor file tree', () => {
  let t: TestApp;
  let token: string;
  let url: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object) =>
    t.app.inject({ method, url: `${url}${path}`, payload, headers: { 'x-authorization': token } });
  const upload = (folder: string, name: string, content: Buffer) => {
    const { payload, type } = multipartFile(name, content);
    return t.app.inject({
      method: 'POST',
      url: `${url}/files/upload?folder=${encodeURIComponent(folder)}`,
      payload,
      headers: { 'x-authorization': token, 'content-type': type },
    });
  };

  const workspace = () => path.join(t.dataDir, 'runtime', url.split('/').pop()!, 'workspace');

  beforeAll(async () => {
    t = await createTestApp({ config: { userStorageQuotaBytes: 64 * 1024 } });
    const customer = await buildCustomer(t.database.db);
    const kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
    token = await signIn(t.app, customer.code, 'kid', kid.password);
    url = `/gw/api/v1/projects/${await createProjectAs(t.app, token, 'Files')}`;
  });
  afterAll(() => t.close());

  it('creates, renames, moves and deletes files and folders', async () => {
    expect((await call('POST', '/files', { name: 'data', kind: 'folder' })).json().data.path).toBe('data');
    expect((await call('POST', '/files', { folder: 'data', name: 'a.py', kind: 'file' })).json().data.path).toBe(
      'data/a.py',
    );
    expect((await call('POST', '/files', { folder: 'data', name: 'a.py', kind: 'file' })).json().errorCode).toBe(
      '2002',
    );
    expect((await call('PUT', '/files/rename', { path: 'data/a.py', name: 'b.py' })).json().errorCode).toBe('1000');
    expect((await call('POST', '/files', { name: 'sub', kind: 'folder' })).json().errorCode).toBe('1000');
    expect((await call('PUT', '/files/move', { path: 'data/b.py', toFolder: 'sub' })).json().errorCode).toBe('1000');
    const tree = (await call('GET', '/files')).json().data;
    expect(tree.map((n: { path: string }) => n.path)).toEqual(['data', 'sub', 'main.ipynb']);
    expect(tree[1].children.map((n: { path: string }) => n.path)).toEqual(['sub/b.py']);
    expect((await call('DELETE', '/files?path=sub')).json().errorCode).toBe('1000');
    expect((await call('GET', '/files')).json().data).toHaveLength(2);
  });

  it('refuses names with special characters or over 30 characters', async () => {
    for (const name of ['a/b', 'what?.py', 'x'.repeat(31), '..', 'a*b']) {
      const res = await call('POST', '/files', { name, kind: 'file' });
      expect({ name, code: res.json().errorCode }).toEqual({ name, code: '3106' });
    }
    expect((await call('PUT', '/files/rename', { path: 'main.ipynb', name: 'bad|name' })).json().errorCode).toBe(
      '3106',
    );
    expect((await call('PUT', '/files/rename', { path: 'main.ipynb', name: '课程 1.ipynb' })).json().errorCode).toBe(
      '1000',
    );
    await call('PUT', '/files/rename', { path: '课程 1.ipynb', name: 'main.ipynb' });
  });

  it('never moves a folder into itself and never leaves the workspace', async () => {
    await call('POST', '/files', { name: 'outer', kind: 'folder' });
    await call('POST', '/files', { folder: 'outer', name: 'inner', kind: 'folder' });
    expect((await call('PUT', '/files/move', { path: 'outer', toFolder: 'outer/inner' })).json().errorCode).toBe(
      '2001',
    );
    expect((await call('PUT', '/files/move', { path: 'outer', toFolder: 'outer' })).json().errorCode).toBe('2001');
    expect((await call('GET', '/files/content?path=../../secrets/jwt.key')).statusCode).toBe(400);
  });

  it('uploads files: existing names, the storage quota and downloads', async () => {
    const res = await upload('', 'data.csv', Buffer.from('a,b\n1,2\n'));
    expect(res.json().data).toEqual({ path: 'data.csv', size: 8 });
    expect((await upload('', 'data.csv', Buffer.from('x'))).json().errorCode).toBe('2002');
    const full = await upload('', 'big.bin', Buffer.alloc(80 * 1024));
    expect(full.json().errorCode).toBe('2003');
    expect((await call('GET', '/files')).json().data.map((n: { name: string }) => n.name)).not.toContain('big.bin');
    // The disk is below its floor: nothing is written, and the refusal says it is the server's disk.
    const floor = t.config.minFreeDiskMb;
    t.config.minFreeDiskMb = 1_000_000_000;
    const noDisk = await upload('', 'small.csv', Buffer.from('x'));
    t.config.minFreeDiskMb = floor;
    expect(noDisk.statusCode).toBe(507);
    expect(noDisk.json()).toMatchObject({ errorCode: '2003', data: { disk: 'server' } });
    expect(readdirSync(workspace()).filter((name) => name === 'small.csv' || name.startsWith('.upload-'))).toEqual([]);
    const download = await call('GET', '/files/download?path=data.csv');
    expect(download.body).toBe('a,b\n1,2\n');
    expect(download.headers['content-disposition']).toContain('attachment');
  });

  it('saves text and refuses to open files over the size limit', async () => {
    await call('PUT', '/files/content', { path: 'notes.md', content: '# Notes' });
    expect((await call('GET', '/files/content?path=notes.md')).json().data.content).toBe('# Notes');
    // Files the kernel wrote appear too; one over the 5 MB text limit is offered for download only.
    writeFileSync(path.join(workspace(), 'huge.txt'), Buffer.alloc(OPEN_LIMITS.textBytes + 1, 97));
    const refused = await call('GET', '/files/content?path=huge.txt');
    expect(refused.statusCode).toBe(413);
    expect(refused.json().errorCode).toBe('3107');
    expect((await call('GET', '/files/download?path=huge.txt')).rawPayload.length).toBe(OPEN_LIMITS.textBytes + 1);
    rmSync(path.join(workspace(), 'huge.txt'));
  });

  it('holds saves that grow a file to the storage quota, and checks the names of new files', async () => {
    const save = (file: string, content: string) => call('PUT', '/files/content', { path: file, content });
    const visible = () => readdirSync(workspace()).filter((name) => name === 'big.md' || name.startsWith('.save-'));
    // 80 kB would take the owner past the 64 kB quota: refused, and nothing written.
    const big = await save('big.md', 'x'.repeat(80 * 1024));
    expect(big.statusCode).toBe(507);
    expect(big.json().errorCode).toBe('2003');
    expect(visible()).toEqual([]);

    // The kernel wrote past the quota: a save that shrinks a file goes through, one that grows a file does not.
    writeFileSync(path.join(workspace(), 'out.txt'), Buffer.alloc(70 * 1024, 97));
    expect((await save('out.txt', 'a'.repeat(66 * 1024))).json().errorCode).toBe('1000');
    expect((await save('notes.md', '# Notes, and more')).json().errorCode).toBe('2003');
    expect((await save('notes.md', '# N')).json().errorCode).toBe('1000');
    rmSync(path.join(workspace(), 'out.txt'));
    expect((await save('notes.md', '# Notes, and more')).json().errorCode).toBe('1000');

    // A new file takes a name the file tree would accept; a file the kernel named otherwise is still saved.
    for (const name of ['what?.py', `${'x'.repeat(31)}.py`, 'a|b.md']) {
      expect({ name, code: (await save(name, 'x')).json().errorCode }).toEqual({ name, code: '3106' });
    }
    writeFileSync(path.join(workspace(), `${'k'.repeat(40)}.py`), 'print(1)');
    expect((await save(`${'k'.repeat(40)}.py`, 'print(2)')).json().errorCode).toBe('1000');
    rmSync(path.join(workspace(), `${'k'.repeat(40)}.py`));

    // The server's disk floor never refuses a save: it leaves room for them.
    const floor = t.config.minFreeDiskMb;
    t.config.minFreeDiskMb = 1_000_000_000;
    const notebook = await save(
      'main.ipynb',
      JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
    );
    t.config.minFreeDiskMb = floor;
    expect(notebook.json().errorCode).toBe('1000');
  });

  it('never follows a link the runtime made to files outside the project', async () => {
    symlinkSync(path.join(t.dataDir, 'secrets', 'jwt.key'), path.join(workspace(), 'key.txt'));
    symlinkSync(path.join(t.dataDir, 'secrets'), path.join(workspace(), 'secrets'));
    expect((await call('GET', '/files/content?path=key.txt')).statusCode).toBe(404);
    expect((await call('GET', '/files/download?path=secrets/jwt.key')).statusCode).toBe(404);
    expect((await call('PUT', '/files/content', { path: 'secrets/new.txt', content: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/files')).json().data.map((n: { name: string }) => n.name)).not.toContain('key.txt');
  });

  it('copies a file beside itself or a folder into another, never a folder into itself, and never through a link', async () => {
    await call('PUT', '/files/content', { path: 'chart.py', content: 'print(1)' });
    const beside = await call('POST', '/files/copy', { path: 'chart.py' });
    expect(beside.json()).toMatchObject({ errorCode: '1000', data: { path: 'chart_copy.py' } });
    expect((await call('POST', '/files/copy', { path: 'chart.py' })).json().data.path).toBe('chart_copy_2.py');
    expect((await call('GET', '/files/content?path=chart_copy.py')).json().data.content).toBe('print(1)');
    // A long name is shortened to stay within 30 characters.
    const long = `${'l'.repeat(27)}.py`;
    await call('PUT', '/files/content', { path: long, content: '' });
    expect((await call('POST', '/files/copy', { path: long })).json().data.path).toBe(`${'l'.repeat(22)}_copy.py`);

    await call('POST', '/files', { name: 'lesson', kind: 'folder' });
    await call('POST', '/files', { folder: 'lesson', name: 'inner', kind: 'folder' });
    await call('PUT', '/files/content', { path: 'lesson/inner/a.txt', content: 'a' });
    symlinkSync(path.join(t.dataDir, 'secrets', 'jwt.key'), path.join(workspace(), 'lesson', 'key.txt'));
    expect((await call('POST', '/files/copy', { path: 'lesson', toFolder: 'lesson/inner' })).json().errorCode).toBe(
      '2001',
    );
    await call('POST', '/files', { name: 'archive', kind: 'folder' });
    const into = await call('POST', '/files/copy', { path: 'lesson', toFolder: 'archive', name: 'week 1' });
    expect(into.json().data.path).toBe('archive/week 1');
    expect((await call('GET', '/files/content?path=archive/week 1/inner/a.txt')).json().data.content).toBe('a');
    // A link out of the project is no file of it: neither copied nor followed.
    expect(
      lstatSync(path.join(workspace(), 'archive', 'week 1', 'key.txt'), { throwIfNoEntry: false }),
    ).toBeUndefined();
    expect((await call('GET', '/files/content?path=archive/week 1/key.txt')).statusCode).toBe(404);
    expect((await call('POST', '/files/copy', { path: 'chart.py', name: 'chart_copy.py' })).json().errorCode).toBe(
      '2002',
    );
    expect((await call('POST', '/files/copy', { path: 'chart.py', name: 'bad|name' })).json().errorCode).toBe('3106');
  });

  it("answers the storage the owner's projects take against the quota, and refuses a copy beyond it", async () => {
    const usage = (await call('GET', '/storage')).json().data;
    expect(usage.quotaBytes).toBe(64 * 1024);
    expect(usage.usedBytes).toBeGreaterThan(0);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/account/storage',
      headers: { 'x-authorization': token },
    });
    expect(mine.json().data).toEqual(usage);
    writeFileSync(path.join(workspace(), 'big.bin'), Buffer.alloc(40 * 1024));
    const copy = await call('POST', '/files/copy', { path: 'big.bin' });
    expect(copy.statusCode).toBe(507);
    expect(copy.json().errorCode).toBe('2003');
    expect((await call('GET', '/storage')).json().data.usedBytes).toBe(usage.usedBytes + 40 * 1024);
  });
});
