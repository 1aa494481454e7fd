import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { customers } from './db/schema/index.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { AppError } from './errors.js';
import { ok } from './envelope.js';

describe('the envelope on every JSON answer', () => {
  let t: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ config: { bodyLimitBytes: 2048 }, logStream: { write: (line) => logs.push(line) } });
    t.app.post('/gw/api/v1/test/echo', { schema: { body: z.object({ name: z.string().min(2) }) } }, async (request) =>
      ok(request.body),
    );
    t.app.get('/gw/api/v1/test/crash', async () => {
      throw new Error('select secret_column from users -- boom');
    });
    t.app.get('/gw/api/v1/test/refuse', async () => {
      throw new AppError('CONTAINER_FULL', { running: 3 });
    });
    t.app.post('/gw/api/v1/test/customer', async () => {
      await t.database.db.insert(customers).values({ code: 'dupe2026', name: 'Duplicate' });
      return ok(null);
    });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('wraps success with errorCode "1000" as a string', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/gw/api/v1/test/echo', payload: { name: 'Ada' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ errorCode: '1000', errorMsg: '', data: { name: 'Ada' } });
  });

  it('answers a validation error with 400 and the request parameter error, naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/test/echo',
      headers: { language: 'en' },
      payload: { name: 'A' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ errorCode: '1001', errorMsg: 'Request parameter error' });
    expect(body.data.issues[0].path).toBe('body.name');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('1001');
  });

  it('answers an unknown route with 404 in the request language (default zh_CHS)', async () => {
    const zh = await t.app.inject({ method: 'GET', url: '/gw/api/v1/no/such/route' });
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toEqual({ errorCode: '1004', errorMsg: '页面或资源不存在', data: null });
    const ja = await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing', headers: { language: 'ja' } });
    expect(ja.json().errorMsg).toBe('ページまたはリソースが見つかりません');
    const unknownLanguage = await t.app.inject({ method: 'GET', url: '/gw/x', headers: { language: 'fr' } });
    expect(unknownLanguage.json().errorMsg).toBe('页面或资源不存在');
  });

  it('answers a body over the limit with 413 and file too large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/test/echo',
      headers: { language: 'en' },
      payload: { name: 'x'.repeat(4096) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errorCode: '2006', errorMsg: 'File too large', data: null });
  });

  it('answers an unexpected error with 500, no stack or SQL in the body, logged with the request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/gw/api/v1/test/crash',
      headers: { language: 'zh_CHT', 'x-request-id': 'req-crash-1' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ errorCode: '1002', errorMsg: '未知錯誤', data: null });
    expect(res.body).not.toContain('secret_column');
    expect(res.headers['x-request-id']).toBe('req-crash-1');
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.reqId === 'req-crash-1' && l.level === 50);
    expect(line?.err?.message).toContain('secret_column');
  });

  it('answers an AppError with its catalogue status, code, message and details', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gw/api/v1/test/refuse', headers: { language: 'en' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      errorCode: '3004',
      errorMsg: 'Containers are full: close a project to start a new one',
      data: { running: 3 },
    });
  });

  it('answers a database constraint violation as a refusal, not a crash', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/gw/api/v1/test/customer' });
    expect(first.statusCode).toBe(200);
    const duplicate = await t.app.inject({ method: 'POST', url: '/gw/api/v1/test/customer' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errorCode).toBe('1009');
  });
});
