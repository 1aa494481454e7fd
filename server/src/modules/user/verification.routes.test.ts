import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.js';
import { outbox, verificationCodes } from '../../platform/db/schema/index.js';
import type { AppError } from '../../platform/errors.js';
import type { Message, Messenger } from '../../platform/messaging/messenger.js';
import { testClock } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { sendCode } from './verification.service.js';

/** Holds every caller until `n` have arrived, then lets them all go on at once. */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === n) open();
    await opened;
  };
}

const errorCodes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((result) => (result.status === 'fulfilled' ? '1000' : (result.reason as AppError).code));

describe('code requests sent in parallel', () => {
  let t: TestApp;
  const clock = testClock();

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { trustProxy: true, codesPerAddressPerHour: 3 } });
  });
  afterAll(() => t.close());

  const send = (target: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/user/verifyCode/send',
      payload: { scene: 'REGISTER', target },
      headers: { language: 'en', 'x-forwarded-for': ip },
    });
  const answers = async (requests: [string, string][]) =>
    (await Promise.all(requests.map(([target, ip]) => send(target, ip)))).map((res) => res.json().errorCode as string);
  const messagesTo = async (target: string) =>
    (await t.database.db.select().from(outbox).where(eq(outbox.target, target))).length;
  const codesFor = async (target: string) =>
    (
      await t.database.db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.target, target), ne(verificationCodes.codeHash, 'refused')))
    ).length;

  /** The service itself, with the request shield replaced and the messages kept here. */
  function service(shieldRecord: () => Promise<void> = async () => undefined) {
    const sent: Message[] = [];
    const messenger: Messenger = {
      name: 'test',
      channel: 'sms',
      send: async (message) => void sent.push(message),
    };
    const ctx = {
      db: t.database.db,
      now: clock.now,
      config: t.config,
      shield: { record: shieldRecord },
    } as unknown as AppContext;
    const request = (target: string, ip: string, assertTarget?: () => Promise<void>) =>
      sendCode(ctx, [messenger], { scene: 'REGISTER', target, ip, language: 'en' }, assertTarget);
    return { request, sent, messenger, ctx };
  }

  it('send one code to a target however many ask for it at once', async () => {
    const codes = await answers(Array.from({ length: 5 }, (_, i) => ['13600000001', `10.9.0.${i + 1}`]));
    expect(codes.filter((code) => code === '1000')).toHaveLength(1);
    expect(codes.filter((code) => code === '1109')).toHaveLength(4);
    expect(await codesFor('13600000001')).toBe(1);
    expect(await messagesTo('13600000001')).toBe(1);

    // Five that reach the target's limit together: nothing spaces them out.
    const { request, sent } = service();
    const allChecked = barrier(5);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => request('13600000002', `10.9.0.${i + 11}`, allChecked)),
    );
    expect(errorCodes(results).sort()).toEqual(['1000', '1109', '1109', '1109', '1109']);
    expect(sent.map((message) => message.target)).toEqual(['13600000002']);
    expect(await codesFor('13600000002')).toBe(1);
  });

  it("stay within the address's hourly limit however many arrive at once", async () => {
    const targets = Array.from({ length: 6 }, (_, i) => `1360000010${i}`);
    const codes = await answers(targets.map((target) => [target, '10.9.1.1']));
    expect(codes.filter((code) => code === '1000')).toHaveLength(3);
    expect(codes.filter((code) => code === '1109')).toHaveLength(3);
    let sent = 0;
    for (const target of targets) sent += await messagesTo(target);
    expect(sent).toBe(3);

    // Six that reach the address's limit together.
    const service6 = service(barrier(6));
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => service6.request(`1360000011${i}`, '10.9.1.2')),
    );
    expect(errorCodes(results).sort()).toEqual(['1000', '1000', '1000', '1109', '1109', '1109']);
    expect(service6.sent).toHaveLength(3);
  });

  it("leave requests held back for their target out of the address's count", async () => {
    expect(await answers([['13600000201', '10.9.2.1']])).toEqual(['1000']);
    const heldBack = await answers([
      ['13600000201', '10.9.2.1'],
      ['13600000201', '10.9.2.1'],
    ]);
    expect(heldBack).toEqual(['1109', '1109']);
    expect(
      await answers([
        ['13600000202', '10.9.2.1'],
        ['13600000203', '10.9.2.1'],
      ]),
    ).toEqual(['1000', '1000']);
    expect(await answers([['13600000204', '10.9.2.1']])).toEqual(['1109']);
  });

  it('hold no lock while the message is on its way', async () => {
    const { request, messenger, sent } = service();
    let other: Promise<void> | undefined;
    // The first message waits for a whole request of another target and address to finish.
    const keep = messenger.send;
    messenger.send = async (message) => {
      if (message.target === '13600000301') await (other ??= request('13600000302', '10.9.3.2'));
      await keep(message);
    };
    await request('13600000301', '10.9.3.1');
    expect(sent.map((message) => message.target)).toEqual(['13600000302', '13600000301']);
  });
});
