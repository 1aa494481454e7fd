import { ROLES, projectApi } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { JUPYTER_MISSING, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** More free space than any disk has: the real disk is below this floor. */
const BEYOND_ANY_DISK_MB = 1_000_000_000;

describe.skipIf(JUPYTER_MISSING)('runtimes on a disk below its floor', () => {
  let t: TestApp;
  let base: string;
  const tokens: Record<string, string> = {};
  const projects: Record<string, string> = {};
  const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const runtimeOf = async (who: string) =>
    (await call(who, 'GET', projectApi(projects[who]!).runtime)).json().data as { state: string; stopReason: string };
  const openKernel = async (who: string) => {
    const proxy = `/gw/api/v1/runtime/${projects[who]}`;
    const kernel = (await call(who, 'POST', `${proxy}/api/kernels`, { name: 'python3' })).json();
    return KernelChannel.open(
      `${base.replace('http', 'ws')}${proxy}/api/kernels/${kernel.id}/channels?token=${encodeURIComponent(tokens[who]!)}`,
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ config: { minFreeDiskMb: 0 } });
    const school = await buildCustomer(t.database.db);
    for (const who of ['writer', 'reader']) {
      const user = await buildUser(t.database.db, { customerId: school.id, username: who, roles: [ROLES.student] });
      tokens[who] = await signIn(t.app, school.code, who, user.password);
      projects[who] = (await call(who, 'POST', '/gw/api/v1/projects', { name: `${who}'s` })).json().data.id;
    }
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(() => t.close());

  it('stops the runtime that keeps writing, keeps the quiet one and its files, and refuses starts and installs', async () => {
    for (const who of ['writer', 'reader']) {
      expect((await call(who, 'POST', projectApi(projects[who]!).runtimeStart, {})).json().data.state).toBe('RUNNING');
    }
    const writer = await openKernel('writer');
    const reader = await openKernel('reader');
    expect(stdoutOf(await reader.execute('print(sum(range(10)))')).trim()).toBe('45');

    // The disk is now below the floor, and a cell writes on (1 MiB at a time, for at most a minute or 2 GiB).
    t.config.minFreeDiskMb = BEYOND_ANY_DISK_MB;
    writer.send(
      [
        'import time',
        't0 = time.time()',
        "with open('filling.bin', 'wb') as f:",
        '    for _ in range(2048):',
        "        f.write(b'0' * 2**20); f.flush()",
        '        if time.time() - t0 > 60: break',
        '        time.sleep(0.01)',
      ].join('\n'),
    );
    await waitFor(async () => (await runtimeOf('writer')).state === 'STOPPED', 60_000);
    expect(await runtimeOf('writer')).toMatchObject({ state: 'STOPPED', stopReason: 'diskFull' });
    expect((await runtimeOf('reader')).state).toBe('RUNNING');
    expect(stdoutOf(await reader.execute('print(6 * 7)')).trim()).toBe('42');

    const availability = async () => (await call('reader', 'GET', '/gw/api/v1/runtime/availability')).json().data;
    expect(await availability()).toMatchObject({ state: 'ready', diskFull: true });
    const refused = await call('writer', 'POST', projectApi(projects.writer!).runtimeStart, {});
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toMatchObject({ errorCode: '2003', data: { disk: 'server' } });
    const install = await call('reader', 'POST', `${projectApi(projects.reader!).packages}/install`, { name: 'six' });
    expect(install.json()).toMatchObject({ errorCode: '2003', data: { disk: 'server' } });

    // What the cell wrote stays in the workspace for the student to delete.
    const files = (await call('writer', 'GET', projectApi(projects.writer!).files)).json().data as {
      name: string;
      size: number;
    }[];
    expect(files.find((f) => f.name === 'filling.bin')?.size).toBeGreaterThan(0);

    t.config.minFreeDiskMb = 0;
    expect((await availability()).diskFull).toBe(false);
    expect((await call('writer', 'POST', projectApi(projects.writer!).runtimeStart, {})).json().data.state).toBe(
      'RUNNING',
    );
    writer.close();
    reader.close();
  }, 180_000);
});
