import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, type CourseWorld } from './course-test-world.js';

/** Name, description, cover and tags belong to a version: learners keep their version's while a revision changes them. */
describe('course information per version', () => {
  let w: CourseWorld;
  let red: Buffer;
  let blue: Buffer;
  beforeAll(async () => {
    w = await createCourseWorld();
    const image = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    [red, blue] = await Promise.all([image('#ff0000'), image('#0000ff')]);
  });
  afterAll(() => w.t.close());

  const act = (id: string, action: string) => w.call('teacher', 'POST', `/api/v1/courses/${id}/${action}`);
  /** The storage key a signed cover address names. */
  const keyOf = (url: string | null) => (url ? new URL(url, 'http://x').searchParams.get('key') : null);
  const download = async (url: string) => (await w.t.app.inject({ method: 'GET', url })).statusCode;
  const centreNames = async (query: string) =>
    (await w.call('student', 'GET', `/api/v1/courses/centre?size=100&${query}`)).body.data.list.map(
      (c: { name: string }) => c.name,
    );

  it('keeps version 1’s name, description, cover and tags for its learners while a revision changes them', async () => {
    const { id, code } = await w.buildCourse({
      name: 'Robots one',
      description: 'First words',
      tags: ['Arms'],
      publicScope: 'customer',
    });
    expect((await w.uploadCover('teacher', id, 'red.png', red)).statusCode).toBe(200);
    await act(id, 'publish');
    const v1 = (await w.call('student', 'POST', '/api/v1/courses/join', { code })).body.data;
    expect(v1).toMatchObject({ name: 'Robots one', description: 'First words', tags: ['Arms'] });
    const v1Cover = keyOf(v1.coverUrl);
    expect(v1Cover).toBeTruthy();

    // A published version's information does not change without a revision; the course's own settings do.
    const locked = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Renamed in place' });
    expect(locked.status).toBe(409);
    expect(locked.body.errorCode).toBe('4105');
    expect((await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { tags: ['Other'] })).body.errorCode).toBe('4105');
    expect((await w.uploadCover('teacher', id, 'blue.png', blue)).json().errorCode).toBe('4105');
    const scoped = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { levels: ['junior'] });
    expect(scoped.body.data).toMatchObject({ name: 'Robots one', levels: ['junior'] });

    // The revision starts with version 1's information, cover included.
    const revision = (await act(id, 'revision')).body.data;
    expect(revision).toMatchObject({ status: 'modifying', name: 'Robots one', tags: ['Arms'] });
    expect(keyOf(revision.coverUrl)).toBe(v1Cover);
    const edited = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, {
      name: 'Robots two',
      description: 'Second words',
      tags: ['Sensors'],
    });
    expect(edited.body.data).toMatchObject({ name: 'Robots two', description: 'Second words', tags: ['Sensors'] });
    const recovered = (await w.uploadCover('teacher', id, 'blue.png', blue)).json().data;
    expect(keyOf(recovered.coverUrl)).not.toBe(v1Cover);
    expect((await w.call('teacher', 'GET', '/api/v1/courses/mine')).body.data).toContainEqual(
      expect.objectContaining({ id, name: 'Robots two' }),
    );

    // Learners, the centre and "my study" still show version 1 while the revision is written.
    const during = (await w.call('student', 'GET', `/api/v1/courses/${id}`)).body.data;
    expect(during).toMatchObject({ name: 'Robots one', description: 'First words', tags: ['Arms'] });
    expect(keyOf(during.coverUrl)).toBe(v1Cover);
    expect(await download(during.coverUrl)).toBe(200);
    expect(await centreNames('keyword=Robots')).toEqual(['Robots one']);
    expect(await centreNames('tag=Sensors')).toEqual([]);
    expect(await centreNames('tag=Arms')).toEqual(['Robots one']);
    const study = (await w.call('student', 'GET', '/api/v1/courses/study')).body.data;
    expect(study.find((c: { id: string }) => c.id === id)).toMatchObject({ name: 'Robots one', tags: ['Arms'] });

    // Version 2 is what the centre and new learners get; the learner on version 1 keeps its name and cover.
    await act(id, 'publish');
    expect(await centreNames('keyword=Robots')).toEqual(['Robots two']);
    expect(await centreNames('tag=Sensors')).toEqual(['Robots two']);
    const stayed = (await w.call('student', 'GET', `/api/v1/courses/${id}`)).body.data;
    expect(stayed).toMatchObject({ name: 'Robots one', learnerVersionNumber: 1, versionNumber: 2 });
    expect(await download(stayed.coverUrl)).toBe(200);
    expect((await w.call('student', 'GET', `/api/v1/courses/${id}/record`)).body.data.courseName).toBe('Robots one');
    const newcomer = (await w.call('student2', 'POST', '/api/v1/courses/join', { code })).body.data;
    expect(newcomer).toMatchObject({ name: 'Robots two', tags: ['Sensors'], learnerVersionNumber: 2 });

    // Moved to version 2, the first learner sees its information.
    await w.call('teacher', 'POST', `/api/v1/courses/${id}/learners/move`, {});
    const moved = (await w.call('student', 'GET', `/api/v1/courses/${id}`)).body.data;
    expect(moved).toMatchObject({ name: 'Robots two', description: 'Second words', learnerVersionNumber: 2 });
    expect(keyOf(moved.coverUrl)).toBe(keyOf(recovered.coverUrl));
  });

  it('deletes a cover only the abandoned revision used, never the published one’s', async () => {
    const { id } = await w.buildCourse({ name: 'Painting' });
    const published = (await w.uploadCover('teacher', id, 'red.png', red)).json().data;
    await act(id, 'publish');
    await act(id, 'revision');
    const revised = (await w.uploadCover('teacher', id, 'blue.png', blue)).json().data;
    // Replacing the revision's cover keeps the published one.
    expect(await download(published.coverUrl)).toBe(200);
    const abandoned = (await act(id, 'abandon-revision')).body.data;
    expect(abandoned).toMatchObject({ status: 'published', name: 'Painting' });
    expect(keyOf(abandoned.coverUrl)).toBe(keyOf(published.coverUrl));
    expect(await download(abandoned.coverUrl)).toBe(200);
    expect(await w.t.storage.exists(keyOf(revised.coverUrl)!)).toBe(false);
    expect(await w.t.storage.exists(keyOf(revised.thumbUrl)!)).toBe(false);
  });

  it('changes a draft’s information in place before its first publication', async () => {
    const { id } = await w.buildCourse({ name: 'Draft name', tags: ['A'] });
    const first = (await w.uploadCover('teacher', id, 'red.png', red)).json().data;
    const second = (await w.uploadCover('teacher', id, 'blue.png', blue)).json().data;
    // The draft's earlier cover is nobody else's: it is deleted.
    expect(await w.t.storage.exists(keyOf(first.coverUrl)!)).toBe(false);
    expect(await w.t.storage.exists(keyOf(second.coverUrl)!)).toBe(true);
    const renamed = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Better name', tags: [] });
    expect(renamed.body.data).toMatchObject({ name: 'Better name', tags: [], status: 'draft' });
  });
});
