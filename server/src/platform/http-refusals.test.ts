import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ERROR_MESSAGES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Writes raw HTTP to the app and answers everything the server sends until it closes the connection. */
function rawExchange(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => {});
  return { write: (text: string) => socket.write(text), closed };
}

/** The status and JSON body of each response in `raw` (every one of them has a Content-Length). */
function responses(raw: string) {
  const out: { status: number; body: unknown }[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const head = rest.slice(0, rest.indexOf('\r\n\r\n'));
    const length = Number(/content-length: (\d+)/i.exec(head)![1]);
    const start = head.length + 4;
    out.push({ status: Number(head.split(' ')[1]), body: JSON.parse(rest.slice(start, start + length)) });
    rest = rest.slice(start + length);
  }
  return out;
}

const envelope = (errorCode: string, errorMsg: string) => ({ errorCode, errorMsg, data: null });

describe('refusals answered before any route', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers a path parameter over 100 characters with 414 and the envelope, without the URL', async () => {
    const id = 'x'.repeat(150);
    for (const [language, message] of [
      ['en', 'Request parameter error'],
      [undefined, '请求参数错误'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/courses/${id}`,
        headers: language ? { language } : {},
      });
      expect(res.statusCode).toBe(414);
      expect(res.json()).toEqual(envelope('1001', message));
      expect(res.body).not.toContain(id);
    }
  });

  it('answers a query over the header limit with 431 and the envelope in the caller’s language', async () => {
    const keyword = 'y'.repeat(20_000);
    for (const [language, message] of [
      ['ja', ERROR_MESSAGES.ja.badRequest],
      [undefined, '请求参数错误'],
    ] as const) {
      const exchange = rawExchange(port);
      exchange.write(
        `GET /api/v1/courses/centre?keyword=${keyword} HTTP/1.1\r\nHost: test\r\n` +
          (language ? `language: ${language}\r\n` : '') +
          '\r\n',
      );
      const raw = await exchange.closed;
      expect(responses(raw)).toEqual([{ status: 431, body: envelope('1001', message) }]);
      expect(raw).not.toContain(keyword);
    }
  });
});

describe('a request that arrives while the server shuts down', () => {
  it('answers 503 with the envelope and closes its connection, after the request in flight finishes', async () => {
    const t = await createTestApp();
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const secondAnswered = new Promise<void>((resolve) => (answered = resolve));
    t.app.addHook('onSend', async (request) => {
      if (request.url.endsWith('/langList')) answered();
    });
    t.app.get('/gw/api/v1/test/slow', async () => {
      entered();
      await released;
      return { errorCode: '1000', errorMsg: '', data: 'slow' };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const exchange = rawExchange((t.app.server.address() as AddressInfo).port);
    exchange.write('GET /gw/api/v1/test/slow HTTP/1.1\r\nHost: test\r\n\r\n');
    await inFlight;

    const closing = t.app.close();
    while (t.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    // The same kept-alive connection asks again once the server has begun to close.
    exchange.write('GET /gw/api/v1/langList HTTP/1.1\r\nHost: test\r\nlanguage: en\r\n\r\n');
    // Node writes it after the answer in flight.
    await secondAnswered;
    release();

    const raw = await exchange.closed;
    await closing;
    await t.close();
    expect(responses(raw)).toEqual([
      { status: 200, body: { errorCode: '1000', errorMsg: '', data: 'slow' } },
      { status: 503, body: envelope('1011', 'The server is restarting, please try again in a moment') },
    ]);
  });
});
