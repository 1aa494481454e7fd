import { DATASET_API, datasetApi, groupApi } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip, deflatedPart } from '../../test/zip-builder.js';
import { createDatasetWorld, type DatasetWorld, type Who } from './dataset.test-kit.js';

describe('datasets: the form, its rules and who sees what', () => {
  let w: DatasetWorld;

  beforeAll(async () => {
    w = await createDatasetWorld();
  });
  afterAll(() => w.t.close());

  const ready = async (id: string) => {
    const reply = await w.upload('owner', id, buildZip([deflatedPart('a.csv', 'x,y\n1,2\n')]));
    return w.settled('owner', id, reply.headers['x-version-id'] as string);
  };
  const codeOf = async (who: Who, method: string, url: string, payload?: object) =>
    (await w.call(who, method, url, payload)).body.errorCode as string;

  it('creates a dataset with its fields, trimmed, and refuses blank or overlong ones', async () => {
    const created = await w.createDataset('owner', {
      name: '  Iris  ',
      description: 'Petals',
      explanation: 'Columns: sepal, petal',
      tags: ['plants', 'csv'],
      courseTag: 'AI 101',
      annotationCategories: ['setosa'],
    });
    expect(created).toMatchObject({
      name: 'Iris',
      access: 'private',
      tags: ['plants', 'csv'],
      isOwner: true,
      canEdit: true,
      published: false,
      currentVersion: null,
      versions: [],
      ownerName: 'owner',
    });
    for (const bad of [
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'ok', description: 'x'.repeat(1001) },
      { name: 'ok', explanation: 'x'.repeat(1001) },
      { name: 'ok', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { name: 'ok', tags: ['x'.repeat(21)] },
      { name: 'ok', tags: ['same', 'same'] },
      { name: 'ok', annotationCategories: Array.from({ length: 51 }, (_, i) => `c${i}`) },
      { name: 'ok', access: 'group' },
    ]) {
      expect(await codeOf('owner', 'POST', DATASET_API.base, bad)).toBe('1001');
    }
  });

  it('publishing needs ready data and is final: no edit, no deletion', async () => {
    const dataset = await w.createDataset('owner');
    const api = datasetApi(dataset.id);
    expect(await codeOf('owner', 'POST', api.publish)).toBe('3204');
    await ready(dataset.id);
    const published = (await w.call('owner', 'POST', api.publish)).body.data;
    expect(published).toMatchObject({ published: true, canEdit: false, currentVersion: { number: 1 } });
    expect(await codeOf('owner', 'PUT', api.base, { name: 'Renamed' })).toBe('3201');
    expect(await codeOf('owner', 'DELETE', api.base)).toBe('3201');
    expect((await w.call('owner', 'GET', api.base)).body.data.name).toBe('Flowers');
  });

  it('a public dataset is never deleted and stays public; one with a group is never made private', async () => {
    const open = await w.createDataset('owner', { access: 'public' });
    expect(await codeOf('owner', 'DELETE', datasetApi(open.id).base)).toBe('3202');
    expect(await codeOf('owner', 'PUT', datasetApi(open.id).base, { access: 'private' })).toBe('3206');

    const groupId = await w.groupWith('owner', []);
    const shared = await w.createDataset('owner', { access: 'group', groupId });
    const api = datasetApi(shared.id);
    expect(await codeOf('owner', 'PUT', api.base, { access: 'private' })).toBe('3203');
    expect(await codeOf('owner', 'PUT', api.base, { groupId: null })).toBe('3203');
    expect((await w.call('owner', 'PUT', api.base, { access: 'public' })).body.data).toMatchObject({
      access: 'public',
      groupId,
    });

    // A group the owner does not belong to is refused like a bad field.
    const foreign = await w.groupWith('stranger', []);
    expect(await codeOf('owner', 'POST', DATASET_API.base, { name: 'x', access: 'group', groupId: foreign })).toBe(
      '1001',
    );
  });

  it('deletes a private, unpublished dataset with its versions and stored files', async () => {
    const dataset = await w.createDataset('owner');
    await ready(dataset.id);
    expect(w.leftovers(dataset.id)).not.toEqual([]);
    expect(await codeOf('owner', 'DELETE', datasetApi(dataset.id).base)).toBe('1000');
    expect((await w.call('owner', 'GET', datasetApi(dataset.id).base)).status).toBe(404);
    expect(w.leftovers(dataset.id)).toEqual([]);
  });

  it('the owner does everything; the school sees public ones; group members see group ones; others get 404', async () => {
    const priv = await w.createDataset('owner', { name: 'Private one' });
    const pub = await w.createDataset('owner', { name: 'Public one', access: 'public' });
    const groupId = await w.groupWith('owner', ['learner']);
    const grouped = await w.createDataset('owner', { name: 'Club one', access: 'group', groupId });
    const status = async (who: Who, id: string) => (await w.call(who, 'GET', datasetApi(id).base)).status;

    expect(await Promise.all([priv, pub, grouped].map((d) => status('owner', d.id)))).toEqual([200, 200, 200]);
    expect(await Promise.all([priv, pub, grouped].map((d) => status('classmate', d.id)))).toEqual([404, 200, 404]);
    expect(await Promise.all([priv, pub, grouped].map((d) => status('stranger', d.id)))).toEqual([404, 404, 404]);
    // The learner has no school: a member of the group sees its dataset across tenants, nothing else.
    expect(await Promise.all([priv, pub, grouped].map((d) => status('learner', d.id)))).toEqual([404, 404, 200]);

    const seen = (await w.call('classmate', 'GET', datasetApi(pub.id).base)).body.data;
    expect(seen).toMatchObject({ isOwner: false, canEdit: false });
    expect(await codeOf('classmate', 'PUT', datasetApi(pub.id).base, { name: 'Mine now' })).toBe('1007');
    expect(await codeOf('classmate', 'DELETE', datasetApi(pub.id).base)).toBe('1007');
    expect(await codeOf('learner', 'POST', datasetApi(grouped.id).publish)).toBe('1007');
    expect(await codeOf('stranger', 'PUT', datasetApi(priv.id).base, { name: 'x' })).toBe('1004');
    expect(await codeOf('stranger', 'GET', `${datasetApi(pub.id).files}`)).toBe('1004');
  });

  it('lists what the caller may see, with keyword, tag, access, scope, sort and pages', async () => {
    const names = async (who: Who, query: string) =>
      ((await w.call(who, 'GET', `${DATASET_API.base}?size=100&${query}`)).body.data.list as { name: string }[]).map(
        (d) => d.name,
      );
    await w.createDataset('owner', { name: 'Zebra photos', access: 'public', tags: ['images'] });
    await w.createDataset('owner', { name: 'Apple sales', access: 'public', tags: ['tables'], description: 'fruit' });
    await w.createDataset('owner', { name: 'Secret marks' });

    const all = await names('classmate', 'sort=name,asc');
    expect(all).toEqual([...all].sort((a, b) => a.localeCompare(b)));
    expect(all).toContain('Zebra photos');
    expect(all).not.toContain('Secret marks');
    expect(await names('owner', 'scope=mine')).toContain('Secret marks');
    expect(await names('classmate', 'scope=mine')).toEqual([]);
    expect(await names('classmate', 'keyword=FRUIT')).toEqual(['Apple sales']);
    expect(await names('classmate', 'tag=images')).toEqual(['Zebra photos']);
    expect(await names('owner', 'access=private&keyword=secret')).toEqual(['Secret marks']);
    expect(await names('stranger', '')).toEqual([]);
    expect(await names('learner', '')).toEqual(['Club one']);

    const page = (await w.call('owner', 'GET', `${DATASET_API.base}?scope=mine&size=2&page=2`)).body.data;
    expect(page.list).toHaveLength(2);
    expect(page.total).toBeGreaterThan(4);
    expect(await codeOf('owner', 'GET', `${DATASET_API.base}?sort=owner,asc`)).toBe('1001');
  });

  it('a dataset leaves the group with its owner: quitting, removal and dismissal take it back, nothing is deleted', async () => {
    const status = async (who: Who, id: string) => (await w.call(who, 'GET', datasetApi(id).base)).status;
    const listed = async (who: Who, id: string) =>
      ((await w.call(who, 'GET', `${DATASET_API.base}?size=100`)).body.data.list as { id: string }[]).some(
        (d) => d.id === id,
      );
    const share = async (groupId: string, name: string) => {
      const dataset = await w.createDataset('owner', { name, access: 'group', groupId });
      expect([await status('stranger', dataset.id), await listed('stranger', dataset.id)]).toEqual([200, true]);
      return dataset.id;
    };
    const privateAgain = async (id: string) => {
      expect([await status('stranger', id), await listed('stranger', id)]).toEqual([404, false]);
      expect(await status('learner', id)).toBe(404);
      expect((await w.call('owner', 'GET', datasetApi(id).base)).body.data).toMatchObject({
        access: 'private',
        groupId: null,
      });
    };

    // The owner quits a group someone else runs.
    const quitGroup = await w.groupWith('learner', ['owner', 'stranger']);
    const quitting = await share(quitGroup, 'Quit club data');
    expect((await w.call('owner', 'POST', groupApi(quitGroup).quit)).status).toBe(200);
    await privateAgain(quitting);

    // The group's owner removes them.
    const removeGroup = await w.groupWith('learner', ['owner', 'stranger']);
    const removed = await share(removeGroup, 'Removed club data');
    const members = (await w.call('learner', 'GET', `${groupApi(removeGroup).members}?size=100`)).body.data.list as {
      userId: string;
      username: string;
    }[];
    const ownerId = members.find((m) => m.username === 'owner')!.userId;
    expect((await w.call('learner', 'DELETE', groupApi(removeGroup).member(ownerId))).status).toBe(200);
    await privateAgain(removed);

    // The group is dismissed: a public dataset stays public, without the group.
    const dismissGroup = await w.groupWith('learner', ['owner', 'stranger']);
    const dismissed = await share(dismissGroup, 'Dismissed club data');
    const open = await w.createDataset('owner', { name: 'Open club data', access: 'public', groupId: dismissGroup });
    expect((await w.call('learner', 'DELETE', groupApi(dismissGroup).base)).status).toBe(200);
    await privateAgain(dismissed);
    expect((await w.call('owner', 'GET', datasetApi(open.id).base)).body.data).toMatchObject({
      access: 'public',
      groupId: null,
    });
  });

  it('lists the datasets of one group for its members, and the group counts them', async () => {
    const groupId = await w.groupWith('owner', ['learner']);
    const shared = await w.createDataset('owner', { name: 'Club photos', access: 'group', groupId });
    const open = await w.createDataset('owner', { name: 'Club tables', access: 'public', groupId });
    await w.createDataset('owner', { name: 'Not the club', access: 'public' });
    const ofGroup = async (who: Who) =>
      (
        (await w.call(who, 'GET', `${DATASET_API.base}?groupId=${groupId}&sort=name,asc`)).body.data.list as {
          id: string;
        }[]
      ).map((d) => d.id);
    expect(await ofGroup('owner')).toEqual([shared.id, open.id]);
    // The learner (no school) sees the group's own dataset, not the school's public one.
    expect(await ofGroup('learner')).toEqual([shared.id]);
    expect(await ofGroup('stranger')).toEqual([]);
    expect((await w.call('learner', 'GET', groupApi(groupId).base)).body.data.datasetCount).toBe(2);
    expect((await w.call('owner', 'GET', `${DATASET_API.base}?groupId=nope`)).body.errorCode).toBe('1001');
  });
});
