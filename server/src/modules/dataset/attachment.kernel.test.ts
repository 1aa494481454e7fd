import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { JUPYTER_MISSING, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildDataset } from './attachment.test-kit.js';

const isRoot = process.getuid?.() === 0;

describe.skipIf(JUPYTER_MISSING)('a notebook reads an attached dataset', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  let project: string;
  let kernel: KernelChannel;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token } });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const school = await buildCustomer(db);
    const kid = await buildUser(db, { customerId: school.id, username: 'kid', roles: [ROLES.student] });
    token = await signIn(t.app, school.code, 'kid', kid.password);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    project = (await call('POST', '/gw/api/v1/projects', { name: 'Flowers' })).json().data.id;
    const { dataset } = await buildDataset(db, t.storage, kid, {
      name: 'Iris',
      files: { 'iris.csv': 'sepal_length,species\n5.1,setosa\n4.9,setosa\n6.3,virginica\n' },
    });
    expect(
      (await call('POST', `/gw/api/v1/projects/${project}/datasets`, { datasetId: dataset.id })).json(),
    ).toMatchObject({ errorCode: '1000' });
    await waitFor(
      async () => (await call('GET', `/gw/api/v1/projects/${project}/datasets`)).json().data[0].syncState === 'success',
    );
    expect((await call('POST', `/gw/api/v1/projects/${project}/runtime/start`, {})).json().errorCode).toBe('1000');
    const kernelId = (await call('POST', `/gw/api/v1/runtime/${project}/api/kernels`, { name: 'python3' })).json().id;
    kernel = await KernelChannel.open(
      `${base.replace('http', 'ws')}/gw/api/v1/runtime/${project}/api/kernels/${kernelId}/channels?token=${encodeURIComponent(token)}`,
    );
  }, 120_000);

  afterAll(async () => {
    kernel?.close();
    await t?.close();
  });

  it('at datasets/<name> of its working folder, and cannot change it', async () => {
    const outputs = await kernel.execute(
      [
        'import csv',
        "rows = list(csv.DictReader(open('datasets/iris/iris.csv')))",
        "print(len(rows), rows[-1]['species'])",
        'for attempt in (lambda: open("datasets/iris/iris.csv", "a"), lambda: open("datasets/iris/new.csv", "w")):',
        '    try:',
        '        attempt()',
        '        print("written")',
        '    except PermissionError:',
        '        print("refused")',
      ].join('\n'),
    );
    const lines = stdoutOf(outputs).trim().split('\n');
    expect(lines[0]).toBe('3 virginica');
    // As root each project runs as its own user, to whom the copy is read-only.
    if (isRoot) expect(lines.slice(1)).toEqual(['refused', 'refused']);
  });
});
