import { COURSE_CODE, LIMITS } from '@aiedu/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourseWorld, QUIZ, type CourseWorld } from './course-test-world.js';

describe('course authoring: who creates, limits, tags, content, collaborators, cover', () => {
  let w: CourseWorld;
  beforeAll(async () => {
    w = await createCourseWorld();
  });
  afterAll(() => w.t.close());

  it('lets only certified teachers create courses', async () => {
    const mine = { name: 'Mine', ...w.category };
    const refused = await w.call('uncertified', 'POST', '/api/v1/courses', mine);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('4101');
    for (const who of ['student', 'admin', 'super'] as const) {
      expect((await w.call(who, 'POST', '/api/v1/courses', mine)).body.errorCode).toBe('1006');
    }
    const created = await w.call('teacher', 'POST', '/api/v1/courses', { ...mine, tags: ['AI'] });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Mine', status: 'draft', isOwner: true, tags: ['AI'] });
    expect(created.body.data.code).toMatch(COURSE_CODE);
  });

  it('says whether the caller may create a course and where their certification stands', async () => {
    const status = async (who: 'teacher' | 'uncertified') =>
      (await w.call(who, 'GET', '/api/v1/courses/author-status')).body.data;
    expect(await status('teacher')).toEqual({ canCreate: true, certification: null });
    expect(await status('uncertified')).toEqual({ canCreate: false, certification: null });
    const request = { region: 'other', schoolName: 'School A', documentType: 'passport', documentNumber: 'E1234567' };
    expect(
      (await w.call('uncertified', 'POST', '/gw/api/v1/user/teacher', { ...request, contact: 'me@a.cn' })).status,
    ).toBe(200);
    expect(await status('uncertified')).toEqual({ canCreate: false, certification: { status: 'pending', reason: '' } });
    expect((await w.call('student', 'GET', '/api/v1/courses/author-status')).body.errorCode).toBe('1006');
  });

  it('requires a direction and a stage (spec 5: the category is required)', async () => {
    const post = (body: object) => w.call('teacher', 'POST', '/api/v1/courses', { name: 'Sorted', ...body });
    const noDirection = await post({ stageId: w.category.stageId });
    expect(noDirection.status).toBe(400);
    expect(noDirection.body.errorCode).toBe('1001');
    expect(noDirection.body.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.directionId']);
    const noStage = await post({ directionId: w.category.directionId, stageId: null });
    expect(noStage.body.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.stageId']);
    expect((await post({})).body.errorCode).toBe('1001');
    const created = await post(w.category);
    expect(created.body.data).toMatchObject({ ...w.category, difficultyId: null });
    const id: string = created.body.data.id;
    const cleared = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { directionId: null });
    expect(cleared.body.errorCode).toBe('1001');
    expect((await w.call('teacher', 'GET', `/api/v1/courses/${id}/edit`)).body.data).toMatchObject(w.category);
  });

  it('refuses names over 100, descriptions over 300, more than 10 tags and a tag twice', async () => {
    const post = (body: object) => w.call('teacher', 'POST', '/api/v1/courses', { name: 'Ok', ...w.category, ...body });
    expect((await post({ name: 'x'.repeat(LIMITS.courseTitle + 1) })).body.errorCode).toBe('1001');
    expect((await post({ name: 'x'.repeat(LIMITS.courseTitle) })).status).toBe(200);
    expect((await post({ description: 'd'.repeat(LIMITS.description + 1) })).body.errorCode).toBe('1001');
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect((await post({ tags: eleven })).body.errorCode).toBe('1001');
    expect((await post({ tags: eleven.slice(0, 10) })).status).toBe(200);
    const dup = await post({ tags: ['Python', 'python'] });
    expect(dup.status).toBe(409);
    expect(dup.body.errorCode).toBe('3015');
    expect(dup.body.errorMsg).toBe('标签已存在！');
    const { id } = await w.buildCourse();
    expect((await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { tags: ['A', 'A'] })).body.errorCode).toBe('3015');
  });

  it('changes only the information sent', async () => {
    const { id } = await w.buildCourse({ tags: ['AI'], description: 'About AI', levels: ['grade4_6'] });
    const res = await w.call('teacher', 'PUT', `/api/v1/courses/${id}`, { name: 'Renamed' });
    expect(res.body.data).toMatchObject({
      name: 'Renamed',
      tags: ['AI'],
      description: 'About AI',
      levels: ['grade4_6'],
    });
  });

  it('refuses a direction that is not a direction', async () => {
    const stage = await w.call('super', 'POST', '/api/v1/courses/categories', { name: 'Primary', kind: 'stage' });
    const post = (body: object) => w.call('teacher', 'POST', '/api/v1/courses', { name: 'X', ...w.category, ...body });
    expect((await post({ directionId: stage.body.data.id })).body.errorCode).toBe('1001');
    expect((await post({ stageId: w.category.directionId })).body.errorCode).toBe('1001');
    expect((await post({ stageId: stage.body.data.id })).status).toBe(200);
  });

  it('allows at most 100 sections per course', async () => {
    const { id } = await w.buildCourse({}, [{ title: 'C', sections: [] }]);
    const course = await w.call('teacher', 'GET', `/api/v1/courses/${id}/edit`);
    const chapterId = course.body.data.chapters[0].id;
    for (let i = 0; i < LIMITS.sectionsPerCourse; i++) {
      const res = await w.call('teacher', 'POST', `/api/v1/courses/chapters/${chapterId}/sections`, { title: `S${i}` });
      expect(res.status).toBe(200);
    }
    const full = await w.call('teacher', 'POST', `/api/v1/courses/chapters/${chapterId}/sections`, {
      title: 'One more',
    });
    expect(full.status).toBe(409);
    expect(full.body.errorCode).toBe('4102');
  });

  it('allows at most 10 tasks per section and checks the questions', async () => {
    const { id, sectionIds } = await w.buildCourse();
    const url = `/api/v1/courses/sections/${sectionIds[0]}/tasks`;
    for (let i = 0; i < LIMITS.tasksPerSection; i++)
      expect((await w.call('teacher', 'POST', url, QUIZ)).status).toBe(200);
    const full = await w.call('teacher', 'POST', url, QUIZ);
    expect(full.body.errorCode).toBe('4103');
    const course = await w.call('teacher', 'GET', `/api/v1/courses/${id}/edit`);
    expect(course.body.data.chapters[0].sections[0].tasks).toHaveLength(10);
    const { sectionIds: other } = await w.buildCourse();
    const bad = (questions: object[]) =>
      w.call('teacher', 'POST', `/api/v1/courses/sections/${other[0]}/tasks`, { title: 'Q', questions });
    const single = { id: 'a', type: 'single', prompt: 'p', options: ['x', 'y'] };
    expect((await bad([{ ...single, answer: [2] }])).body.errorCode).toBe('1001');
    expect((await bad([{ ...single, answer: [0, 1] }])).body.errorCode).toBe('1001');
    expect(
      (
        await bad([
          { ...single, answer: [0] },
          { ...single, answer: [1] },
        ])
      ).body.errorCode,
    ).toBe('1001');
    expect((await bad([{ id: 'e', type: 'experiment', prompt: 'Build it', projectId: null }])).status).toBe(200);
    expect((await bad([{ id: 'e', type: 'experiment', prompt: 'Build it', projectId: 'robot' }])).status).toBe(400);
  });

  it('keeps chapters, sections with Markdown and AI links, tasks in order; deletes them', async () => {
    const { id, sectionIds } = await w.buildCourse({}, [
      { title: 'One', sections: ['1.1', '1.2'] },
      { title: 'Two', sections: ['2.1'] },
    ]);
    const md = '# Title\n\n```python\nprint(1)\n```\n\n$E=mc^2$';
    const links = [{ title: 'Chat', url: 'https://example.com/ai' }];
    await w.call('teacher', 'PUT', `/api/v1/courses/sections/${sectionIds[1]}`, { content: md, aiLinks: links });
    const course = (await w.call('teacher', 'GET', `/api/v1/courses/${id}/edit`)).body.data;
    expect(course.chapters.map((c: { title: string }) => c.title)).toEqual(['One', 'Two']);
    expect(course.chapters[0].sections[1]).toMatchObject({ title: '1.2', content: md, aiLinks: links });
    const afterDelete = await w.call('teacher', 'DELETE', `/api/v1/courses/chapters/${course.chapters[0].id}`);
    expect(afterDelete.body.data.chapters.map((c: { title: string }) => c.title)).toEqual(['Two']);
  });

  it('lets collaborators edit but only the owner publish and choose collaborators', async () => {
    const { id, sectionIds } = await w.buildCourse();
    expect((await w.call('editor', 'GET', `/api/v1/courses/${id}/edit`)).status).toBe(404);
    const set = await w.call('teacher', 'PUT', `/api/v1/courses/${id}/collaborators`, { usernames: ['editor'] });
    expect(set.body.data.collaborators.map((c: { username: string }) => c.username)).toEqual(['editor']);
    const edit = await w.call('editor', 'PUT', `/api/v1/courses/sections/${sectionIds[0]}`, { title: 'Edited' });
    expect(edit.status).toBe(200);
    expect(edit.body.data.isOwner).toBe(false);
    expect((await w.call('editor', 'POST', `/api/v1/courses/${id}/publish`)).body.errorCode).toBe('1007');
    expect((await w.call('editor', 'POST', `/api/v1/courses/${id}/close`)).body.errorCode).toBe('1007');
    expect(
      (await w.call('editor', 'PUT', `/api/v1/courses/${id}/collaborators`, { usernames: [] })).body.errorCode,
    ).toBe('1007');
    expect(
      (await w.call('editor', 'GET', '/api/v1/courses/mine')).body.data.map((c: { id: string }) => c.id),
    ).toContain(id);
    // A student, or a teacher of another customer, is never a collaborator.
    for (const name of ['student', 'kid', 'nobody']) {
      expect(
        (await w.call('teacher', 'PUT', `/api/v1/courses/${id}/collaborators`, { usernames: [name] })).body.errorCode,
      ).toBe('1004');
    }
    expect((await w.call('otherTeacher', 'GET', `/api/v1/courses/${id}/edit`)).status).toBe(404);
  });

  it('takes a JPG/PNG/GIF cover under 2 MB by its bytes and makes a thumbnail', async () => {
    const { id } = await w.buildCourse();
    const upload = (name: string, bytes: Buffer) => w.uploadCover('teacher', id, name, bytes);
    const gif = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366ff' } })
      .gif()
      .toBuffer();
    const ok = await upload('cover.gif', gif);
    expect(ok.statusCode).toBe(200);
    const { coverUrl, thumbUrl } = ok.json().data;
    const thumb = await w.t.app.inject({ method: 'GET', url: thumbUrl.replace(/^https?:\/\/[^/]+/, '') });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 320, height: 180, format: 'png' });
    expect(coverUrl).not.toBe(thumbUrl);
    // A text file named .png, and a real image over 2 MB, are refused.
    expect((await upload('fake.png', Buffer.from('not an image at all, just text'))).json().errorCode).toBe('1001');
    const big = Buffer.concat([gif, Buffer.alloc(LIMITS.coverBytes)]);
    expect((await upload('big.gif', big)).statusCode).toBe(413);
    expect((await upload('cover.bmp', gif)).json().errorCode).toBe('1001');
  });
});
