import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { desc } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-db.js';
import type { Database } from '../db/client.js';
import { outbox } from '../db/schema/index.js';
import { deliver, HttpSmsMessenger, SmtpMessenger } from './messenger.js';

describe('delivering messages', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const newest = async () => (await database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1))[0]!;

  it('keeps the full message in the outbox when no provider is configured', async () => {
    await deliver(database.db, [], {
      channel: 'sms',
      target: '13800000000',
      subject: 's',
      body: 'code 123456',
      secret: '123456',
    });
    expect(await newest()).toMatchObject({ deliveredBy: 'outbox', delivered: false, body: 'code 123456' });
  });

  it('sends email over SMTP and masks the code in the outbox copy', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    try {
      const messenger = new SmtpMessenger(`smtp://127.0.0.1:${port}`, 'Platform <no-reply@school.test>');
      await deliver(database.db, [messenger], {
        channel: 'email',
        target: 'kid@school.cn',
        subject: 'Your verification code',
        body: 'Your code is 654321.',
        secret: '654321',
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: kid@school.cn');
      expect(received[0]).toContain('654321');
      expect(await newest()).toMatchObject({ deliveredBy: 'smtp', delivered: true, body: 'Your code is ******.' });
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('sends SMS to an HTTP provider, and records a provider failure', async () => {
    const requests: { auth: string | undefined; body: unknown }[] = [];
    let fail = false;
    const server = createServer(async (req: IncomingMessage, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      requests.push({ auth: req.headers.authorization, body: JSON.parse(text) });
      res.writeHead(fail ? 503 : 200).end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const messenger = new HttpSmsMessenger(`http://127.0.0.1:${port}/send`, 'sms-token');
      await deliver(database.db, [messenger], {
        channel: 'sms',
        target: '13800000001',
        subject: '',
        body: 'code 111222',
        secret: '111222',
      });
      expect(requests[0]).toEqual({ auth: 'Bearer sms-token', body: { to: '13800000001', text: 'code 111222' } });
      expect(await newest()).toMatchObject({ deliveredBy: 'sms-http', delivered: true, body: 'code ******' });
      fail = true;
      await expect(
        deliver(database.db, [messenger], { channel: 'sms', target: '13800000002', subject: '', body: 'code 333444' }),
      ).rejects.toThrow('HTTP 503');
      expect(await newest()).toMatchObject({ target: '13800000002', delivered: false });
    } finally {
      server.close();
    }
  });
});
