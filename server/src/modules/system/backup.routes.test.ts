import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ROLES } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, users } from '../../platform/db/schema/index.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** The names of the entries of a .tar.gz, and the text of `backup.json`. */
async function entriesOf(bytes: Buffer): Promise<{ names: string[]; manifest: string }> {
  const extract = tar.extract();
  Readable.from([bytes]).pipe(createGunzip()).pipe(extract);
  const names: string[] = [];
  let manifest = '';
  for await (const entry of extract) {
    names.push(entry.header.name);
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part as Buffer);
    if (entry.header.name === 'backup.json') manifest = Buffer.concat(parts).toString('utf8');
  }
  return { names, manifest };
}

describe('downloading a backup from the running server', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let rootId = '';

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const customer = await buildCustomer(db);
    const root = await buildUser(db, { username: 'root', roles: [ROLES.super] });
    rootId = root.id;
    const admin = await buildUser(db, { customerId: customer.id, username: 'admin', roles: [ROLES.customerAdmin] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
    tokens.admin = await signIn(t.app, customer.code, 'admin', admin.password);
  });
  afterAll(() => t.close());

  const link = (who: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin_super/backup/link',
      headers: { 'x-authorization': tokens[who]!, language: 'en' },
    });

  it('gives a super administrator a link that downloads the whole installation, and logs it', async () => {
    const res = await link('root');
    expect(res.json()).toMatchObject({ errorCode: '1000' });
    expect(res.statusCode).toBe(200);
    const { url } = res.json().data as { url: string };
    expect(url).toMatch(/^\/api\/v1\/admin_super\/backup\?ticket=/);

    // The browser follows the link with no header at all.
    const download = await t.app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="aiedu-backup-\d{8}-\d{4}\.tar\.gz"$/,
    );
    const { names, manifest } = await entriesOf(download.rawPayload);
    expect(names[0]).toBe('backup.json');
    expect(JSON.parse(manifest)).toMatchObject({ format: 'aiedu-backup', version: 1 });
    expect(names.some((name) => name.startsWith('database/users/'))).toBe(true);

    const logged = await t.database.db.select().from(operationLogs).where(eq(operationLogs.operation, 'backup'));
    expect(logged).toMatchObject([{ module: 'system', customerId: null }]);
  });

  it('refuses the link to anyone but a super administrator', async () => {
    const res = await link('admin');
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCode).toBe('1006');
  });

  it('says that daily backups are off without BACKUP_DIR', async () => {
    const schedule = (who: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/admin_super/backup/schedule',
        headers: { 'x-authorization': tokens[who]! },
      });
    expect((await schedule('root')).json().data).toEqual({
      enabled: false,
      dir: null,
      at: null,
      keep: null,
      files: [],
      last: null,
    });
    expect((await schedule('admin')).statusCode).toBe(403);
  });

  it('refuses a download without a valid ticket, with an access token for one, or once its holder is disabled', async () => {
    for (const ticket of ['nonsense', tokens.root!]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin_super/backup?ticket=${ticket}` });
      expect(res.statusCode).toBe(401);
    }
    const { url } = (await link('root')).json().data as { url: string };
    // A ticket is no access token either.
    const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
    const asToken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin_super/backup/link',
      headers: { 'x-authorization': ticket },
    });
    expect(asToken.statusCode).toBe(401);

    await t.database.db.update(users).set({ enabled: false }).where(eq(users.id, rootId));
    try {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(403);
    } finally {
      await t.database.db.update(users).set({ enabled: true }).where(eq(users.id, rootId));
    }
  });
});
