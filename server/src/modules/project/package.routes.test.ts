import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildUser, createProjectAs, signIn } from '../../test/factories.js';
import { JUPYTER_MISSING } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** Builds a one-module wheel into a PEP 503 directory index (no network needed). */
function buildIndex(root: string) {
  const script = `
import base64, hashlib, os, sys, zipfile
root = sys.argv[1]
name, version = 'hello_aiedu', '1.0.0'
folder = os.path.join(root, 'simple', 'hello-aiedu')
os.makedirs(folder, exist_ok=True)
wheel = f'{name}-{version}-py3-none-any.whl'
files = {
  f'{name}/__init__.py': b'def greet():\\n    return "hello from the local index"\\n',
  f'{name}-{version}.dist-info/METADATA': f'Metadata-Version: 2.1\\nName: hello-aiedu\\nVersion: {version}\\n'.encode(),
  f'{name}-{version}.dist-info/WHEEL': b'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
record = []
for path, data in files.items():
  digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
  record.append(f'{path},sha256={digest},{len(data)}')
record.append(f'{name}-{version}.dist-info/RECORD,,')
with zipfile.ZipFile(os.path.join(folder, wheel), 'w') as z:
  for path, data in files.items():
    z.writestr(path, data)
  z.writestr(f'{name}-{version}.dist-info/RECORD', '\\n'.join(record) + '\\n')
with open(os.path.join(folder, 'index.html'), 'w') as f:
  f.write(f'<html><body><a href="{wheel}">{wheel}</a></body></html>')
`;
  mkdirSync(root, { recursive: true });
  const file = path.join(root, 'build.py');
  writeFileSync(file, script);
  execFileSync('/usr/bin/python3', [file, root]);
}

describe.skipIf(JUPYTER_MISSING)('package management in the project virtual environment', () => {
  let t: TestApp;
  let token: string;
  let url: string;
  const indexDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-index-'));

  const call = (method: 'GET' | 'POST', suffix: string, payload?: object) =>
    t.app.inject({ method, url: `${url}${suffix}`, payload, headers: { 'x-authorization': token } });
  const settle = async () => {
    await t.app.packages.idle(url.split('/').pop()!);
    return (await call('GET', '/packages/operations')).json().data;
  };

  beforeAll(async () => {
    buildIndex(indexDir);
    // The runtime's user must be able to read the index.
    execFileSync('chmod', ['-R', 'a+rX', indexDir]);
    t = await createTestApp({ config: { pipIndexUrl: `file://${indexDir}/simple` } });
    const customer = await buildCustomer(t.database.db);
    const kid = await buildUser(t.database.db, { customerId: customer.id, username: 'kid', roles: [ROLES.student] });
    token = await signIn(t.app, customer.code, 'kid', kid.password);
    url = `/gw/api/v1/projects/${await createProjectAs(t.app, token, 'Packages')}`;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(indexDir, { recursive: true, force: true });
  });

  it("lists the packages the project sees, Debian numpy included as the environment's", async () => {
    const list = (await call('GET', '/packages')).json().data as { name: string; provided: boolean }[];
    expect(list.find((p) => p.name.toLowerCase() === 'numpy')).toMatchObject({ provided: true });
    // pip itself lives in the project's virtual environment.
    expect(list.find((p) => p.name === 'pip')).toMatchObject({ provided: false });
  }, 60_000);

  it("fails the uninstall of a package pip removed nothing of: the environment's, or one not installed", async () => {
    const environment = (await call('POST', '/packages/uninstall', { name: 'numpy' })).json().data;
    const missing = (await call('POST', '/packages/uninstall', { name: 'hello-aiedu' })).json().data;
    const done = await settle();
    const byId = (id: string) => done.find((o: { id: string }) => o.id === id);
    // pip answers 0 for both and says it removed nothing.
    expect(byId(environment.id)).toMatchObject({
      state: 'fail',
      message: expect.stringMatching(/outside environment/),
    });
    expect(byId(missing.id)).toMatchObject({ state: 'fail', message: expect.stringMatching(/not installed/) });
    const list = (await call('GET', '/packages')).json().data as { name: string }[];
    expect(list.map((p) => p.name.toLowerCase())).toContain('numpy');
  }, 120_000);

  it('installs from the configured index, one operation at a time, and uninstalls', async () => {
    const first = (await call('POST', '/packages/install', { name: 'hello-aiedu' })).json().data;
    const second = (await call('POST', '/packages/install', { name: 'no-such-package' })).json().data;
    expect(first.state).toBe('waiting');
    expect(second.state).toBe('waiting');
    const done = await settle();
    const byId = (id: string) => done.find((o: { id: string }) => o.id === id);
    expect(byId(first.id)).toMatchObject({ state: 'success', kind: 'install' });
    expect(byId(second.id).state).toBe('fail');
    expect(byId(second.id).message).toMatch(/No matching distribution found for no-such-package/);
    const list = (await call('GET', '/packages')).json().data;
    expect(list).toContainEqual({ name: 'hello-aiedu', version: '1.0.0', provided: false });
    const removal = (await call('POST', '/packages/uninstall', { name: 'hello-aiedu' })).json().data;
    expect((await settle()).find((o: { id: string }) => o.id === removal.id).state).toBe('success');
    const after = (await call('GET', '/packages')).json().data;
    expect(after.map((p: { name: string }) => p.name)).not.toContain('hello-aiedu');
  }, 180_000);

  it('cancels an operation still waiting its turn', async () => {
    await call('POST', '/packages/install', { name: 'hello-aiedu' });
    const waiting = (await call('POST', '/packages/install', { name: 'hello-aiedu==1.0.0' })).json().data;
    const cancelled = (await call('POST', '/packages/operations/cancel', { operationId: waiting.id })).json();
    expect(cancelled.data.state).toBe('cancelled');
    expect((await settle()).find((o: { id: string }) => o.id === waiting.id).state).toBe('cancelled');
  }, 120_000);
});
