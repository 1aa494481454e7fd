import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { datasetApi, DATASET_API } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { datasetVersions } from '../../platform/db/schema/index.js';
import { buildZip, deflatedPart, repeatedPart, type ZipPart } from '../../test/zip-builder.js';
import { failStaleVersions, STALE_PROCESSING_MS } from './dataset-extract.js';
import { createDatasetWorld, type DatasetWorld } from './dataset.test-kit.js';

const MiB = 1024 * 1024;

describe('dataset zips: checked before extraction, extracted into versions', () => {
  let w: DatasetWorld;
  let png: Buffer;

  beforeAll(async () => {
    w = await createDatasetWorld({
      datasets: { maxZipBytes: 8 * MiB, maxEntries: 20, maxUnpackedBytes: 16 * MiB },
      userStorageQuotaBytes: 6 * MiB,
    });
    png = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
  });
  afterAll(() => w.t.close());

  const refusedWith = async (bytes: Buffer, code: string, filename = 'data.zip') => {
    const dataset = await w.createDataset('owner');
    const reply = await w.upload('owner', dataset.id, bytes, filename);
    const body = JSON.parse(reply.body.toString() || '{}');
    expect({ status: reply.status >= 400, code: body.errorCode }).toEqual({ status: true, code });
    const detail = (await w.call('owner', 'GET', datasetApi(dataset.id).base)).body.data;
    expect(detail.versions).toEqual([]);
    expect(detail.currentVersion).toBeNull();
    expect(w.leftovers(dataset.id)).toEqual([]);
  };

  const one = (name: string, content = 'x') => buildZip([deflatedPart(name, content)]);

  it.each<[string, () => Buffer, string]>([
    ['a bomb by ratio', () => buildZip([deflatedPart('zeros.bin', Buffer.alloc(4 * MiB))]), '3017'],
    ['a bomb by size', () => buildZip([repeatedPart('big.csv', '', 'A'.repeat(MiB), 20, '')]), '3016'],
    ['a climb out with ..', () => one('data/../../evil.sh'), '3018'],
    ['an absolute path', () => one('/etc/cron.d/evil'), '3018'],
    ['a backslash path', () => one('data\\..\\evil.sh'), '3018'],
    ['a symbolic link', () => buildZip([{ ...deflatedPart('data/link', '/etc/passwd'), unixMode: 0o120777 }]), '3018'],
    ['an encrypted entry', () => buildZip([{ ...deflatedPart('secret.csv', 'a,b'), flags: 0x1 }]), '3019'],
    [
      'more entries than allowed',
      () => buildZip(Array.from({ length: 21 }, (_, i) => deflatedPart(`f${i}`, 'x'))),
      '3014',
    ],
    ['a text file named .zip', () => Buffer.from('name,score\nada,90\n'), '3020'],
    [
      'nothing but folders and archiver litter',
      () => buildZip([deflatedPart('a/', ''), deflatedPart('__MACOSX/._a', 'x')]),
      '3021',
    ],
  ])('refuses %s with its code and leaves nothing', async (_name, zip, code) => {
    await refusedWith(zip(), code);
  });

  it('refuses a 0-byte file before a byte is stored, and a zip over the size allowed', async () => {
    const dataset = await w.createDataset('owner');
    const empty = await w.upload('owner', dataset.id, Buffer.alloc(0));
    expect([empty.status, JSON.parse(empty.body.toString()).errorCode]).toEqual([400, '3021']);
    const big = await w.upload('owner', dataset.id, randomBytes(9 * MiB));
    expect(JSON.parse(big.body.toString()).errorCode).toBe('2006');
    expect(w.leftovers(dataset.id)).toEqual([]);
  });

  it("refuses a zip that does not fit in the owner's storage", async () => {
    const dataset = await w.createDataset('owner');
    const stored: ZipPart = { name: 'noise.bin', data: randomBytes(7 * MiB), size: 7 * MiB, crc: 0, stored: true };
    const reply = await w.upload('owner', dataset.id, buildZip([stored]));
    expect(JSON.parse(reply.body.toString()).errorCode).toBe('2003');
    expect(w.leftovers(dataset.id)).toEqual([]);
  });

  it('only the owner uploads; another school does not learn the dataset exists', async () => {
    const dataset = await w.createDataset('owner', { access: 'public' });
    const bytes = one('a.txt');
    expect(JSON.parse((await w.upload('classmate', dataset.id, bytes)).body.toString()).errorCode).toBe('1007');
    expect(JSON.parse((await w.upload('stranger', dataset.id, bytes)).body.toString()).errorCode).toBe('1004');
  });

  it('extracts a zip into a version: the file tree, previews, raw bytes and thumbnails', async () => {
    const csv = ['sepal,petal,species', ...Array.from({ length: 80 }, (_, i) => `${i},"1,5",setosa`)].join('\n');
    const zip = buildZip([
      deflatedPart('flowers/', ''),
      deflatedPart('flowers/images/rose.png', png),
      deflatedPart('flowers/iris.csv', csv),
      deflatedPart('flowers/README.txt', 'Flowers of the school garden'),
      deflatedPart('flowers/model.bin', randomBytes(1000)),
      deflatedPart('flowers/标签/说明.txt', '花'),
      deflatedPart('__MACOSX/flowers/._iris.csv', 'litter'),
      deflatedPart('flowers/.DS_Store', 'litter'),
    ]);
    const dataset = await w.createDataset('owner');
    const reply = await w.upload('owner', dataset.id, zip, 'flowers.zip');
    expect(reply.status).toBe(204);
    const versionId = reply.headers['x-version-id'] as string;
    const version = await w.settled('owner', dataset.id, versionId);
    expect(version).toMatchObject({ number: 1, state: 'ready', failure: null, fileCount: 5, zipName: 'flowers.zip' });

    const api = datasetApi(dataset.id);
    const listed = await w.call('owner', 'GET', `${api.files}`);
    expect(listed.body.errorCode).toBe('1000');
    const top = listed.body.data;
    expect(top.entries).toEqual([
      { name: 'flowers', path: 'flowers', kind: 'dir', size: version.totalBytes, childCount: 5 },
    ]);
    const inner = (await w.call('owner', 'GET', `${api.files}?dir=flowers`)).body.data.entries;
    expect(inner.map((e: { name: string; kind: string }) => `${e.kind}:${e.name}`)).toEqual([
      'dir:images',
      'dir:标签',
      'file:iris.csv',
      'file:model.bin',
      'file:README.txt',
    ]);
    expect((await w.call('owner', 'GET', `${api.files}?dir=nowhere`)).status).toBe(404);

    const preview = async (path: string) =>
      (await w.call('owner', 'GET', `${api.preview}?path=${encodeURIComponent(path)}`)).body.data;
    const table = await preview('flowers/iris.csv');
    expect(table).toMatchObject({ kind: 'table', header: ['sepal', 'petal', 'species'], truncated: true });
    expect(table.rows).toHaveLength(50);
    expect(table.rows[0]).toEqual(['0', '1,5', 'setosa']);
    expect(await preview('flowers/README.txt')).toMatchObject({ kind: 'text', text: 'Flowers of the school garden' });
    expect(await preview('flowers/标签/说明.txt')).toMatchObject({ kind: 'text', text: '花' });
    expect(await preview('flowers/model.bin')).toEqual({ kind: 'other', path: 'flowers/model.bin', size: 1000 });
    const image = await preview('flowers/images/rose.png');
    expect(image.kind).toBe('image');

    const raw = await w.t.app.inject({ url: image.rawUrl, headers: { 'x-authorization': w.tokens.owner } });
    expect(Buffer.compare(raw.rawPayload, png)).toBe(0);
    const thumb = await w.t.app.inject({ url: image.thumbnailUrl, headers: { 'x-authorization': w.tokens.owner } });
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 320, height: 160 });

    // The dataset's files count in its owner's storage.
    const usage = (await w.call('owner', 'GET', '/api/v1/account/storage')).body.data.usedBytes;
    expect(usage).toBeGreaterThanOrEqual(version.totalBytes);
  });

  it('new data is a new version; the current one moves to the newest ready; a published dataset still takes versions', async () => {
    const dataset = await w.createDataset('owner');
    const first = await w.upload('owner', dataset.id, one('v1.txt', 'one'));
    await w.settled('owner', dataset.id, first.headers['x-version-id'] as string);
    const second = await w.upload('owner', dataset.id, one('v2.txt', 'two'));
    const v2 = await w.settled('owner', dataset.id, second.headers['x-version-id'] as string);
    const api = datasetApi(dataset.id);
    let detail = (await w.call('owner', 'GET', api.base)).body.data;
    expect(detail.versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(detail.currentVersion).toMatchObject({ id: v2.id, number: 2, fileCount: 1 });
    const files = (await w.call('owner', 'GET', `${api.files}?versionId=${first.headers['x-version-id']}`)).body.data;
    expect(files.entries.map((e: { name: string }) => e.name)).toEqual(['v1.txt']);

    expect((await w.call('owner', 'POST', api.publish)).body.errorCode).toBe('1000');
    const third = await w.upload('owner', dataset.id, one('v3.txt', 'three'));
    await w.settled('owner', dataset.id, third.headers['x-version-id'] as string);
    detail = (await w.call('owner', 'GET', api.base)).body.data;
    expect(detail.currentVersion.number).toBe(3);
  });

  it('fails a version whose entry inflates past what it declared, and deletes what was written', async () => {
    const lying = { ...repeatedPart('big.txt', '', 'A'.repeat(64 * 1024), 4, ''), size: 1000 };
    const dataset = await w.createDataset('owner');
    const reply = await w.upload('owner', dataset.id, buildZip([deflatedPart('a.txt', 'fine'), lying]));
    const version = await w.settled('owner', dataset.id, reply.headers['x-version-id'] as string);
    expect(version).toMatchObject({ state: 'failed', fileCount: 0, failure: { errorCode: '3016' } });
    expect(w.leftovers(dataset.id)).toEqual([]);
    const files = await w.call('owner', 'GET', `${datasetApi(dataset.id).files}?versionId=${version.id}`);
    expect(files.body.errorCode).toBe('3204');
  });

  it('takes a COCO annotation, checks it, and answers one image’s boxes', async () => {
    const dataset = await w.createDataset('owner');
    const reply = await w.upload('owner', dataset.id, buildZip([deflatedPart('images/cat.png', png)]));
    await w.settled('owner', dataset.id, reply.headers['x-version-id'] as string);
    const api = datasetApi(dataset.id);
    const put = (json: unknown) => {
      const boundary = 'coco-boundary';
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="coco.json"\r\n` +
          `Content-Type: application/json\r\n\r\n${typeof json === 'string' ? json : JSON.stringify(json)}\r\n--${boundary}--\r\n`,
      );
      return w.t.app.inject({
        method: 'PUT',
        url: api.annotation,
        payload,
        headers: { 'x-authorization': w.tokens.owner, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    };
    const coco = {
      images: [{ id: 1, file_name: 'cat.png', width: 800, height: 400 }],
      annotations: [
        { image_id: 1, category_id: 7, bbox: [10, 20, 100, 50] },
        { image_id: 1, category_id: 8, bbox: [300, 40, 60, 60] },
      ],
      categories: [
        { id: 7, name: 'cat' },
        { id: 8, name: 'ball' },
      ],
    };
    const saved = await put(coco);
    expect(saved.json()).toMatchObject({
      errorCode: '1000',
      data: { images: 1, annotations: 2, categories: ['cat', 'ball'] },
    });
    const boxes = (await w.call('owner', 'GET', `${api.annotation}?path=images/cat.png`)).body.data;
    expect(boxes).toEqual({
      path: 'images/cat.png',
      width: 800,
      height: 400,
      boxes: [
        { x: 10, y: 20, w: 100, h: 50, category: 'cat' },
        { x: 300, y: 40, w: 60, h: 60, category: 'ball' },
      ],
    });
    expect((await w.call('owner', 'GET', `${api.annotation}?path=__proto__`)).body.data.boxes).toEqual([]);

    for (const bad of [
      'not json',
      { images: [], annotations: [] },
      { ...coco, annotations: [{ image_id: 2, category_id: 7, bbox: [0, 0, 1, 1] }] },
      { ...coco, annotations: [{ image_id: 1, category_id: 9, bbox: [0, 0, 1, 1] }] },
      { ...coco, annotations: [{ image_id: 1, category_id: 7, bbox: [0, 0, -1] }] },
      { ...coco, categories: Array.from({ length: 51 }, (_, i) => ({ id: i, name: `c${i}` })) },
    ]) {
      expect((await put(bad)).json().errorCode).toBe('1001');
    }
    // A refused file leaves the annotation as it was.
    expect((await w.call('owner', 'GET', `${api.annotation}?path=images/cat.png`)).body.data.boxes).toHaveLength(2);

    expect((await w.call('owner', 'POST', api.publish)).body.errorCode).toBe('1000');
    expect((await put(coco)).json().errorCode).toBe('3201');
  });

  it('fails a version whose extraction stopped with its process, and only such a one', async () => {
    const dataset = await w.createDataset('owner');
    const version = (stale: boolean, number: number) => ({
      datasetId: dataset.id,
      number,
      zipName: 'lost.zip',
      storagePrefix: `datasets/${dataset.id}/v${number}/`,
      createdBy: dataset.ownerId,
      createdAt: new Date(Date.now() - (stale ? STALE_PROCESSING_MS + 60_000 : 60_000)),
    });
    const [lost, running] = await w.t.database.db
      .insert(datasetVersions)
      .values([version(true, 1), version(false, 2)])
      .returning();
    const zips = path.join(w.t.dataDir, 'uploads', 'dataset-zips');
    mkdirSync(zips, { recursive: true });
    writeFileSync(path.join(zips, 'lost.zip'), 'PK');
    writeFileSync(path.join(zips, 'waiting.zip'), 'PK');
    const old = new Date(Date.now() - STALE_PROCESSING_MS - 60_000);
    utimesSync(path.join(zips, 'lost.zip'), old, old);
    const ctx = { config: w.t.config, db: w.t.database.db, storage: w.t.storage, now: () => new Date() };
    expect(await failStaleVersions(ctx as unknown as AppContext)).toBe(1);
    expect(readdirSync(zips)).toEqual(['waiting.zip']);
    rmSync(path.join(zips, 'waiting.zip'));
    expect(await w.settled('owner', dataset.id, lost!.id)).toMatchObject({
      state: 'failed',
      failure: { errorCode: '1010' },
    });
    const still = (await w.call('owner', 'GET', datasetApi(dataset.id).version(running!.id))).body.data;
    expect(still.state).toBe('processing');
  });

  it('answers 404 for the tus endpoint of an unknown upload', async () => {
    const reply = await w.t.app.inject({
      method: 'HEAD',
      url: `${DATASET_API.uploads}/nothing-here`,
      headers: { 'x-authorization': w.tokens.owner, 'tus-resumable': '1.0.0' },
    });
    expect(reply.statusCode).toBe(404);
  });
});
