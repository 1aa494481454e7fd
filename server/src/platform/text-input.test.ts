import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomer, buildSchool, buildUser, signIn } from '../test/factories.js';
import { textInputs, type RouteInput } from '../test/route-inputs.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { findUnsafeText } from './text-input.js';

const REFUSED_BEFORE_INPUT = new Set(['1107', '1006', '1118']);

interface Answer {
  status: number;
  code: string;
  /** The field the validation error names. */
  issue?: string;
}

describe('text that no column can hold', () => {
  it.each([
    ['a\u0000b', 'NUL'],
    ['\ud800', 'a lone high surrogate'],
    ['x\udc00', 'a lone low surrogate'],
  ])('finds %j (%s) in a value, a nested item or a key', (text) => {
    expect(findUnsafeText(text, 'body')).toBe('body');
    expect(findUnsafeText({ list: [{ name: 'ok' }, { name: text }] }, 'body')).toBe('body.list.1.name');
    expect(findUnsafeText({ [text]: 1 }, 'querystring')).toBe('querystring');
  });

  it('leaves text with paired surrogates and other control characters alone', () => {
    expect(findUnsafeText({ name: '学校 🏫', note: 'tab\there', n: 3, none: null }, 'body')).toBeNull();
  });

  it('reads parsed data only: a body left as a stream of a real connection, and values that refer to each other', async () => {
    // The notebook gateway forwards its bodies unread: the stream's socket, server and parser refer to one another,
    // and walking them never ended (the process ran out of memory on the first notebook opened).
    const server = http.createServer((request, response) => {
      expect(findUnsafeText(request, 'body')).toBeNull();
      response.end('read');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' })).text()).toBe('read');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const looped: Record<string, unknown> = { name: 'a\u0000' };
    looped.self = looped;
    looped.list = [looped];
    expect(findUnsafeText(looped, 'body')).toBe('body.name');
  });
});

describe('NUL and unpaired surrogates on every route', () => {
  let t: TestApp;
  const logs: string[] = [];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ logStream: { write: (line) => void logs.push(line) } });
    const customer = await buildCustomer(t.database.db);
    const school = await buildSchool(t.database.db, customer.id);
    const people = {
      admin: [ROLES.customerAdmin],
      head: [ROLES.schoolAdmin],
      teach: [ROLES.teacher],
      kid: [ROLES.student],
    } as const;
    for (const [username, roles] of Object.entries(people)) {
      const user = await buildUser(t.database.db, {
        customerId: customer.id,
        schoolId: username === 'admin' ? null : school.id,
        username,
        roles: [...roles],
      });
      tokens[username] = await signIn(t.app, customer.code, username, user.password);
    }
    const root = await buildUser(t.database.db, { username: 'root', roles: [ROLES.super] });
    tokens.root = await signIn(t.app, '', 'root', root.password);
  });
  afterAll(() => t.close());

  const send = (input: RouteInput, token?: string) =>
    t.app.inject({
      method: input.route.method as 'GET',
      url: input.url,
      payload: input.payload as object,
      headers: { language: 'en', ...(token ? { 'x-authorization': token } : {}) },
    });

  /** The answers of the callers the route lets through to its input (anonymous, then each role). */
  async function answers(input: RouteInput): Promise<Answer[]> {
    const out: Answer[] = [];
    for (const token of [undefined, ...Object.values(tokens)]) {
      const res = await send(input, token);
      const body = res.json();
      if (res.statusCode >= 500) return [{ status: res.statusCode, code: body.errorCode }];
      if (REFUSED_BEFORE_INPUT.has(body.errorCode)) continue;
      out.push({ status: res.statusCode, code: body.errorCode, issue: body.data?.issues?.[0]?.path });
    }
    return out;
  }

  it.each([
    ['NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('refuses %s in every text field of every route with 1001, naming the field', async (_name, text) => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/gw/') || r.url.startsWith('/api/'));
    const inputs = textInputs(routes, text);
    expect(inputs.length).toBeGreaterThan(150);
    const wrong = [];
    for (const input of inputs) {
      const got = await answers(input);
      const refused = got.length > 0 && got.every((a) => a.status === 400 && a.code === '1001' && a.issue);
      if (!refused) wrong.push({ route: `${input.route.method} ${input.route.url}`, field: input.field, got });
    }
    expect(wrong).toEqual([]);
    expect(logs.filter((line) => /invalid byte sequence|"query"|\\u0000/.test(line))).toEqual([]);
  });

  it('refuses NUL on the routes where it reached the database', async () => {
    const nul = encodeURIComponent('a\u0000b');
    const cases: { method: 'GET' | 'POST'; url: string; payload?: object; token?: string }[] = [
      { method: 'GET', url: `/gw/api/v1/auth/verifycode/enabled?custcode=${nul}&username=x` },
      { method: 'POST', url: '/api/v1/auth/captcha/check', payload: { captchaId: 'a\u0000b', checkedData: { x: 1 } } },
      { method: 'GET', url: `/gw/api/v1/school/home?custcode=${nul}` },
      { method: 'GET', url: `/gw/api/v1/user/fuzzySearchSchool?partName=${nul}`, token: tokens.kid },
      { method: 'POST', url: '/api/v1/courses/join', payload: { code: 'A\u0000B' }, token: tokens.kid },
    ];
    for (const { method, url, token, payload } of cases) {
      const res = await t.app.inject({
        method,
        url,
        payload,
        headers: { language: 'en', ...(token ? { 'x-authorization': token } : {}) },
      });
      expect({ url, status: res.statusCode, code: res.json().errorCode }).toEqual({ url, status: 400, code: '1001' });
    }
  });

  it('answers an empty body on every route without a 500', async () => {
    const routes = t.app.routeTable.filter(
      (r) => (r.url.startsWith('/gw/') || r.url.startsWith('/api/')) && (r.schema as { body?: unknown })?.body,
    );
    const failed = [];
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, '0192f7a0-0000-7000-8000-000000000000');
      for (const token of Object.values(tokens)) {
        const res = await t.app.inject({
          method: route.method as 'PUT',
          url,
          payload: {},
          headers: { 'x-authorization': token },
        });
        if (res.statusCode >= 500) failed.push(`${route.method} ${route.url}: ${res.statusCode}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
