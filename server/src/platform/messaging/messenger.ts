import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import type { Db } from '../db/client.js';
import { outbox } from '../db/schema/index.js';

export type Channel = 'sms' | 'email';

export interface Message {
  channel: Channel;
  target: string;
  subject: string;
  body: string;
  /** Text to hide in the outbox copy when a real provider delivered the message (a verification code). */
  secret?: string;
}

/** A way to deliver messages of one channel to people. */
export interface Messenger {
  readonly name: string;
  readonly channel: Channel;
  send(message: Message): Promise<void>;
}

/** Email over SMTP (any server nodemailer speaks to: a school's mail server, a relay, a transactional provider). */
export class SmtpMessenger implements Messenger {
  readonly name = 'smtp';
  readonly channel = 'email' as const;
  private readonly transport;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: Message) {
    await this.transport.sendMail({
      from: this.from,
      to: message.target,
      subject: message.subject,
      text: message.body,
    });
  }
}

/**
 * SMS through an HTTP provider: POST `{ "to": phone, "text": body }` as JSON with the configured bearer token.
 * Most SMS gateways, or a small adapter in front of one, accept this shape.
 */
export class HttpSmsMessenger implements Messenger {
  readonly name = 'sms-http';
  readonly channel = 'sms' as const;

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
  ) {}

  async send(message: Message) {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({ to: message.target, text: message.body }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}`);
  }
}

export function messengersFromConfig(config: Config): Messenger[] {
  const list: Messenger[] = [];
  if (config.smtpUrl) list.push(new SmtpMessenger(config.smtpUrl, config.smtpFrom));
  if (config.smsHttpUrl) list.push(new HttpSmsMessenger(config.smsHttpUrl, config.smsHttpToken));
  return list;
}

/**
 * Delivers a message through the configured messenger of its channel and always keeps a copy in the outbox.
 * Without a messenger the outbox is the delivery (the embedded default): super administrators read it there.
 * A real delivery keeps the secret masked in the copy. A failed delivery throws after recording the attempt.
 */
export async function deliver(db: Db, messengers: Messenger[], message: Message): Promise<void> {
  const messenger = messengers.find((m) => m.channel === message.channel);
  let error: unknown;
  if (messenger) {
    try {
      await messenger.send(message);
    } catch (e) {
      error = e;
    }
  }
  const body = messenger && message.secret ? message.body.replaceAll(message.secret, '******') : message.body;
  await db.insert(outbox).values({
    channel: message.channel,
    target: message.target,
    subject: message.subject,
    body,
    deliveredBy: messenger?.name ?? 'outbox',
    delivered: Boolean(messenger) && !error,
  });
  if (error) throw error;
}
