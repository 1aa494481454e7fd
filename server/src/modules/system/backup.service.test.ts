import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGunzip, createGzip } from 'node:zlib';
import { ROLES } from '@aiedu/contracts';
import { eq, sql } from 'drizzle-orm';
import { customers } from '../../platform/db/schema/index.js';
import sharp from 'sharp';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database, type Db } from '../../platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../../platform/db/migrations.js';
import { LocalDiskStorage } from '../../platform/storage/local-storage.js';
import { S3Storage } from '../../platform/storage/s3-storage.js';
import type { FileStorage } from '../../platform/storage/storage.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { multipartFile } from '../../test/multipart.js';
import { startTestS3, type TestS3 } from '../../test/s3-server.js';
import { createEmptyDatabase } from '../../test/test-db.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ProjectFolders } from '../runtime/project-folders.js';
import { exactly, NOT_BACKED_UP, RestoreRefused, writeBackup, type BackupSource } from './backup.service.js';
import { restoreBackup, verifyBackup } from './backup-restore.js';

const SECRET = 'test-secret-test-secret-test-secret';

/** The same archive with only the entries `keep` answers true for. */
async function repack(bytes: Buffer, keep: (name: string) => boolean): Promise<Buffer> {
  const extract = tar.extract();
  Readable.from([bytes]).pipe(createGunzip()).pipe(extract);
  const pack = tar.pack();
  const out = buffer(pack.pipe(createGzip()));
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part as Buffer);
    if (keep(entry.header.name)) pack.entry({ name: entry.header.name }, Buffer.concat(parts));
  }
  pack.finalize();
  return out;
}

async function backupOf(site: BackupSource): Promise<Buffer> {
  const out = new PassThrough();
  const [bytes] = await Promise.all([buffer(out), writeBackup(site, out)]);
  return bytes;
}

/** Every row of every table a backup holds, as text, in a stable order: two databases with the same rows answer the same. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const tables = (
    (await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by 1`)) as unknown as {
      rows: { tablename: string }[];
    }
  ).rows;
  const all: Record<string, string[]> = {};
  for (const { tablename } of tables.filter((t) => !NOT_BACKED_UP.has(t.tablename))) {
    const result = (await db.execute(
      sql`select row_to_json(t)::text as "row" from ${sql.identifier(tablename)} t order by 1`,
    )) as unknown as { rows: { row: string }[] };
    all[tablename] = result.rows.map((r) => r.row);
  }
  return all;
}

function siteOf(database: Database, storage: FileStorage, dataDir: string, migrationsFolder = MIGRATIONS_FOLDER) {
  return {
    db: database.db,
    database,
    storage,
    dataDir,
    folders: new ProjectFolders(path.join(dataDir, 'runtime'), 20_000),
    migrationsFolder,
  };
}

describe('backups', () => {
  let source: TestApp;
  let site: ReturnType<typeof siteOf>;
  let s3: TestS3;
  let archive: Buffer;
  const written: string[] = [];
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-restore-'));
    dirs.push(dir);
    return dir;
  };
  let token = '';
  let custcode = '';
  let password = '';
  let projectId = '';
  let forkId = '';

  beforeAll(async () => {
    s3 = await startTestS3();
    source = await createTestApp();
    const db = source.database.db;
    const region = await buildCustomer(db, { name: 'Region' });
    const school = await buildCustomer(db, { name: 'School', parentId: region.id, containerTypes: ['BASIC'] });
    const user = await buildUser(db, { customerId: school.id, username: 'kid', roles: [ROLES.student] });
    custcode = school.code;
    password = user.password;
    token = await signIn(source.app, custcode, 'kid', password);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      source.app.inject({ method, url, payload, headers: { 'x-authorization': token } });

    projectId = (await call('POST', '/gw/api/v1/projects', { name: 'Digits' })).json().data.id;
    await call('PUT', `/gw/api/v1/projects/${projectId}/files/content`, { path: 'notes.md', content: '# 你好 hello' });
    const version = await call('POST', `/gw/api/v1/projects/${projectId}/versions`, {
      major: 1,
      minor: 0,
      revision: 0,
      description: 'first',
    });
    expect(version.statusCode).toBe(200);
    forkId = (await call('POST', `/gw/api/v1/projects/${projectId}/fork`)).json().data.id;

    const avatarPng = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const { payload, type } = multipartFile('me.png', avatarPng);
    const uploaded = await source.app.inject({
      method: 'POST',
      url: '/gw/api/v1/edu_user/avatar',
      headers: { 'x-authorization': token, 'content-type': type },
      payload,
    });
    expect(uploaded.statusCode).toBe(200);

    site = siteOf(source.database, source.storage, source.dataDir);
    archive = await backupOf({ ...site, progress: (entry) => written.push(entry.name) });
    expect(written[0]).toBe('backup.json');
    expect(written.some((name) => name.startsWith('files/avatars/'))).toBe(true);
    expect(written.some((name) => name.startsWith('project-versions/'))).toBe(true);
  });
  afterAll(async () => {
    await source.close();
    await s3.close();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('restores every row, file, version and workspace into an empty database, from the disk into S3', async () => {
    // Where the suite runs on PostgreSQL, the backup goes into the embedded database: the other kind.
    const target =
      inject('testDb').kind === 'postgres' ? await openDatabase({ dataDir: 'memory://' }) : await createEmptyDatabase();
    const storage = new S3Storage(s3.options({ prefix: 'restored/' }), SECRET);
    const dataDir = tempDir();
    try {
      const restored: string[] = [];
      const manifest = await restoreBackup(
        { ...siteOf(target, storage, dataDir), progress: (entry) => restored.push(entry.name) },
        Readable.from([archive]),
      );
      // Told of every entry after the description, in the archive's order: rows first, then files and folders.
      expect(restored).toEqual(written.slice(1));
      expect(restored.at(-1)).toMatch(/^workspaces\//);
      expect(manifest.tables.find((t) => t.name === 'projects')?.rows).toBe(2);
      expect(await everyRow(target.db)).toEqual(await everyRow(source.database.db));

      // The restored installation works: the same sign-in, project, workspace, version and avatar.
      const app = await buildApp({
        config: {
          ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
          webDist: path.join(dataDir, 'no-web'),
          runtimeWarmPool: { BASIC: 0, ADVANCED: 0, GPU: 0 },
          runtimeUidBase: 20_000,
        },
        database: target,
        storage,
        logger: false,
      });
      try {
        const restoredToken = await signIn(app, custcode, 'kid', password);
        const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
          app.inject({ method, url, payload, headers: { 'x-authorization': restoredToken } });
        const notes = await call('GET', `/gw/api/v1/projects/${projectId}/files/content?path=notes.md`);
        expect(notes.json().data.content).toBe('# 你好 hello');
        const forkNotes = await call('GET', `/gw/api/v1/projects/${forkId}/files/content?path=notes.md`);
        expect(forkNotes.json().data.content).toBe('# 你好 hello');
        expect((await call('GET', `/gw/api/v1/projects/${forkId}`)).json().data.forkedFrom).toBe(projectId);
        const versions = (await call('GET', `/gw/api/v1/projects/${projectId}/versions`)).json().data;
        expect(versions).toMatchObject([{ version: '1.0.0', description: 'first' }]);
        await call('PUT', `/gw/api/v1/projects/${projectId}/files/content`, { path: 'notes.md', content: 'changed' });
        const restored = await call('POST', `/gw/api/v1/projects/${projectId}/versions/restore`, {
          versionId: versions[0].id,
        });
        expect(restored.statusCode).toBe(200);
        expect(
          (await call('GET', `/gw/api/v1/projects/${projectId}/files/content?path=notes.md`)).json().data.content,
        ).toBe('# 你好 hello');
        const info = (await call('GET', '/gw/api/v1/edu_user/userInfo')).json().data;
        const avatar = await app.inject({ method: 'GET', url: info.avatarUrl });
        expect(avatar.statusCode).toBe(200);
        expect(await sharp(avatar.rawPayload).metadata()).toMatchObject({ format: 'png' });
        expect((await s3.keys()).some((key) => key.startsWith('restored/avatars/'))).toBe(true);
        // A new project takes the next number: the sequence moved past the restored ones.
        const created = await call('POST', '/gw/api/v1/projects', { name: 'After the restore' });
        expect(created.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      storage.close();
      await target.close();
    }
  });

  it('restores a backup of the embedded database into the suite’s database (PostgreSQL where it runs there)', async () => {
    const embedded = await openDatabase({ dataDir: 'memory://' });
    const target = await createEmptyDatabase();
    const dataDir = tempDir();
    try {
      await embedded.migrate(MIGRATIONS_FOLDER);
      const region = await buildCustomer(embedded.db, { name: 'Region' });
      const school = await buildCustomer(embedded.db, { name: 'School', parentId: region.id });
      const pupil = await buildUser(embedded.db, { customerId: school.id, username: 'pupil', realName: '小明' });
      // A customer made by a user of its own: customers and users refer to each other.
      await embedded.db.update(customers).set({ createdBy: pupil.id }).where(eq(customers.id, school.id));
      const storage = new LocalDiskStorage(path.join(dataDir, 'files'), SECRET);
      const bytes = await backupOf(siteOf(embedded, storage, dataDir));
      await restoreBackup(siteOf(target, storage, tempDir()), Readable.from([bytes]));
      expect(await everyRow(target.db)).toEqual(await everyRow(embedded.db));
    } finally {
      await embedded.close();
      await target.close();
    }
  });

  it('leaves out a file deleted after it was listed, and cuts or pads one that changed while it was read', async () => {
    const dataDir = tempDir();
    const disk = new LocalDiskStorage(path.join(dataDir, 'files'), SECRET);
    await disk.put('kept.txt', Readable.from(['kept']), { maxBytes: 10 });
    // A live server's storage: one file is listed, then deleted before the backup reads it.
    const live: FileStorage = Object.create(disk, {
      list: {
        value: async function* () {
          yield* disk.list();
          yield { key: 'gone.txt', size: 4 };
        },
      },
    });
    const names: string[] = [];
    await backupOf({ ...siteOf(source.database, live, dataDir), progress: (entry) => names.push(entry.name) });
    expect(names).toContain('files/kept.txt');
    expect(names).not.toContain('files/gone.txt');

    const grown = await buffer(Readable.from([Buffer.from('abc'), Buffer.from('def')]).pipe(exactly(4)));
    expect(grown.toString()).toBe('abcd');
    const shrunk = await buffer(Readable.from([Buffer.from('ab')]).pipe(exactly(4)));
    expect([...shrunk]).toEqual([0x61, 0x62, 0, 0]);
  });

  it('refuses a database that already holds data, and changes nothing in it', async () => {
    const before = await everyRow(source.database.db);
    const error = await restoreBackup(site, Readable.from([archive])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreRefused);
    expect((error as Error).message).toMatch(/^The database already holds data\. Restore into an empty one/);
    expect(await everyRow(source.database.db)).toEqual(before);
  });

  it('refuses a file that is not a backup, and a cut-off backup leaves no rows behind', async () => {
    const target = await createEmptyDatabase();
    const dataDir = tempDir();
    try {
      const restoreInto = (bytes: Buffer) =>
        restoreBackup(
          siteOf(target, new LocalDiskStorage(path.join(dataDir, 'files'), SECRET), dataDir),
          Readable.from([bytes]),
        );
      await expect(restoreInto(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json')))).rejects.toThrow(
        /^This file is not a backup \(incorrect header check\)\.$/,
      );
      const cut = archive.subarray(0, Math.floor(archive.length * 0.6));
      await expect(restoreInto(cut)).rejects.toThrow();
      const rows = await everyRow(target.db);
      expect(Object.values(rows).flat()).toEqual([]);
      // The same database takes the whole backup afterwards.
      await restoreInto(archive);
      expect(await everyRow(target.db)).toEqual(await everyRow(source.database.db));
    } finally {
      await target.close();
    }
  });

  it('verifies a whole backup, and finds one cut off or missing rows, which a restore refuses too', async () => {
    const whole = await verifyBackup(Readable.from([archive]));
    expect(whole.manifest.tables.find((t) => t.name === 'users')?.rows).toBeGreaterThan(0);
    expect(whole.files).toBe(written.filter((name) => !name.startsWith('database/') && name !== 'backup.json').length);
    expect(whole.bytes).toBeGreaterThan(0);

    await expect(verifyBackup(Readable.from([archive.subarray(0, archive.length - 100)]))).rejects.toThrow(
      'unexpected end of file',
    );
    // A well-formed archive that lost the users' rows.
    const lost = await repack(archive, (name) => !name.startsWith('database/users/'));
    const users = whole.manifest.tables.find((t) => t.name === 'users')!.rows;
    const damaged = `The backup is damaged: table users should hold ${users} rows, and it holds 0.`;
    await expect(verifyBackup(Readable.from([lost]))).rejects.toThrow(damaged);
    const target = await createEmptyDatabase();
    const dataDir = tempDir();
    try {
      await expect(
        restoreBackup(
          siteOf(target, new LocalDiskStorage(path.join(dataDir, 'files'), SECRET), dataDir),
          Readable.from([lost]),
        ),
      ).rejects.toThrow(damaged);
      expect(Object.values(await everyRow(target.db)).flat()).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('restores a backup of an older version and brings it up to this one', async () => {
    // An installation one migration behind this version, with a school and a pupil.
    const folder = tempDir();
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    const all = journal.entries.length;
    journal.entries = journal.entries.slice(0, -1);
    writeFileSync(journalFile, JSON.stringify(journal));
    const old = await createEmptyDatabase();
    const target = await createEmptyDatabase();
    const dataDir = tempDir();
    try {
      await old.migrate(folder);
      const school = await buildCustomer(old.db, { name: 'Old school' });
      // Written in SQL, not with the factory: the schema's tables are this version's, and the last migration may
      // have added a column of users that the older database does not have yet.
      await old.db.execute(sql`
        insert into users (id, customer_id, username, password_hash, roles)
        values (gen_random_uuid(), ${school.id}, 'pupil', 'not a hash', array[${ROLES.student}])`);
      const oldSite = siteOf(old, new LocalDiskStorage(path.join(dataDir, 'old-files'), SECRET), dataDir, folder);
      const bytes = await backupOf(oldSite);

      const manifest = await restoreBackup(
        siteOf(target, new LocalDiskStorage(path.join(dataDir, 'files'), SECRET), dataDir),
        Readable.from([bytes]),
      );
      expect(manifest.migrations).toEqual({ count: all - 1, last: journal.entries.at(-1).tag });
      const applied = (await target.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { n: number }[] };
      expect(applied.rows[0]!.n).toBe(all);
      const pupils = (await target.db.execute(
        sql`select username from users where customer_id = ${school.id}`,
      )) as unknown as { rows: { username: string }[] };
      expect(pupils.rows).toEqual([{ username: 'pupil' }]);

      // And a backup of this version does not go into that older one.
      const newer = await backupOf(siteOf(target, new LocalDiskStorage(path.join(dataDir, 'files'), SECRET), dataDir));
      const older = await createEmptyDatabase();
      try {
        await expect(
          restoreBackup(
            siteOf(older, new LocalDiskStorage(path.join(dataDir, 'x'), SECRET), dataDir, folder),
            Readable.from([newer]),
          ),
        ).rejects.toThrow(/^This backup was made by a newer version/);
      } finally {
        await older.close();
      }
    } finally {
      await old.close();
      await target.close();
    }
  });
});
