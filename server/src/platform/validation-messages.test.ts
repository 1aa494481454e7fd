import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { ok } from './envelope.js';

describe('validation messages in the caller’s language', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.app.post(
      '/gw/api/v1/test/echo',
      {
        schema: {
          body: z.object({
            name: z.string().min(2),
            count: z.number(),
            code: z.string().regex(/^\d{6}$/, 'six digits'),
          }),
        },
      },
      async (request) => ok(request.body),
    );
    await t.app.ready();
  });
  afterAll(() => t.close());

  const issues = async (language: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/test/echo',
      headers: { language },
      payload: { name: 'A', code: 'x' },
    });
    expect(res.json().errorCode).toBe('1001');
    return Object.fromEntries(
      (res.json().data.issues as { path: string; message: string }[]).map((i) => [i.path, i.message]),
    );
  };

  it('says zod’s own messages and the schemas’ own in each of the four languages', async () => {
    expect(await issues('en')).toEqual({
      'body.name': 'Too small: expected string to have >=2 characters',
      'body.count': 'Invalid input: expected number, received undefined',
      'body.code': 'six digits',
    });
    const zh = await issues('zh_CHS');
    expect(zh['body.name']).toMatch(/[\u4e00-\u9fff]/);
    expect(zh['body.count']).toMatch(/[\u4e00-\u9fff]/);
    expect(zh['body.code']).toBe('6 位数字');
    const zht = await issues('zh_CHT');
    expect(zht['body.code']).toBe('6 位數字');
    expect(zht['body.name']).not.toBe(zh['body.name']);
    const ja = await issues('ja');
    expect(ja['body.name']).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect(ja['body.code']).toBe('6 桁の数字');
  });

  it('says the refusals the server shapes like them (unsafe text) in the caller’s language too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/test/echo',
      headers: { language: 'ja' },
      payload: { name: 'A\u0000b', count: 1, code: '123456' },
    });
    expect(res.json().data.issues[0].message).toBe('テキストに NUL や対になっていないサロゲートは使えません');
  });
});
