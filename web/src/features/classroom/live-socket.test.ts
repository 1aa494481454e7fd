import { CLASSROOM_SOCKET_CLOSE, type TServerMessage } from '@aiedu/contracts';
import { describe, expect, it, vi } from 'vitest';
import { FakeSocket, SESSION } from './classroom-fixtures';
import { LiveSocket, reconnectDelay, type LiveStatus } from './live-socket';

/** A LiveSocket over fake sockets, a token store and timers a test runs by hand. */
function setup(renew: (sent: string | null) => Promise<boolean> = async () => true) {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const store = { token: 'token-1' };
  const renewToken = vi.fn(renew);
  const live = new LiveSocket({
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    token: () => store.token,
    language: () => 'ja',
    origin: () => 'ws://school.test',
    renewToken,
    beforeConnect: () => null,
    setTimeout: (run, ms) => timers.push({ run, ms }),
    clearTimeout: () => undefined,
    random: () => 1,
  });
  const statuses: LiveStatus[] = [];
  live.onStatus((s) => statuses.push(s));
  /** Runs the timer due next. */
  const tick = () => timers.shift()!.run();
  return { live, sockets, timers, store, renewToken, statuses, tick };
}

const session = (scheduleId: string): TServerMessage => ({ type: 'session', scheduleId, session: SESSION });

describe('the live classroom socket', () => {
  it('opens with the token and language, joins every classroom shown, and hands each its own messages', () => {
    const { live, sockets, statuses } = setup();
    const first: TServerMessage[] = [];
    const second: TServerMessage[] = [];
    const leaveFirst = live.join('s-1', (m) => first.push(m));
    live.join('s-2', (m) => second.push(m));
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://school.test/api/v1/schedules/live?token=token-1&language=ja');
    sockets[0]!.open();
    expect(statuses).toEqual(['live']);
    expect(sockets[0]!.sentOf('join')).toEqual([
      { type: 'join', scheduleId: 's-1' },
      { type: 'join', scheduleId: 's-2' },
    ]);
    sockets[0]!.receive(session('s-2'));
    expect(first).toEqual([]);
    expect(second).toEqual([session('s-2')]);
    // A refusal of no classroom in particular reaches every one.
    sockets[0]!.receive({ type: 'refused', scheduleId: null, errorCode: '1001', errorMsg: 'Bad' });
    expect(first).toHaveLength(1);
    leaveFirst();
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'leave', scheduleId: 's-1' });
    expect(sockets[0]!.readyState).toBe(1);
  });

  it('closes with the last classroom and does not come back', () => {
    const { live, sockets, timers } = setup();
    const leave = live.join('s-1', () => undefined);
    sockets[0]!.open();
    leave();
    expect(sockets[0]!.readyState).toBe(3);
    sockets[0]!.drop(1000);
    expect(timers).toEqual([]);
    expect(live.status).toBe('connecting');
  });

  it('answers renew-token with a token renewed through the API client', async () => {
    const setupResult = setup(async () => {
      setupResult.store.token = 'token-2';
      return true;
    });
    const { live, sockets, renewToken } = setupResult;
    live.join('s-1', () => undefined);
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'renew-token' });
    await vi.waitFor(() => expect(sockets[0]!.sentOf('token')).toEqual([{ type: 'token', token: 'token-2' }]));
    expect(renewToken).toHaveBeenCalledWith('token-1');
    // The next renewal names the token the socket holds now.
    sockets[0]!.receive({ type: 'renew-token' });
    await vi.waitFor(() => expect(renewToken).toHaveBeenLastCalledWith('token-2'));
  });

  it('renews the token and reconnects at once when the server closes for it (4401), and joins again', async () => {
    const setupResult = setup(async () => {
      setupResult.store.token = 'token-2';
      return true;
    });
    const { live, sockets, statuses, timers } = setupResult;
    live.join('s-1', () => undefined);
    sockets[0]!.open();
    sockets[0]!.drop(CLASSROOM_SOCKET_CLOSE.renewToken);
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(timers).toEqual([]);
    expect(sockets[1]!.url).toContain('token=token-2');
    sockets[1]!.open();
    expect(sockets[1]!.sentOf('join')).toEqual([{ type: 'join', scheduleId: 's-1' }]);
    expect(statuses).toEqual(['live', 'retrying', 'live']);
  });

  it('stays closed when the sign-in has ended (the renewal is refused)', async () => {
    const { live, sockets, timers, renewToken } = setup(async () => false);
    live.join('s-1', () => undefined);
    sockets[0]!.open();
    sockets[0]!.drop(CLASSROOM_SOCKET_CLOSE.renewToken);
    await vi.waitFor(() => expect(renewToken).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(sockets).toHaveLength(1);
    expect(timers).toEqual([]);
    expect(live.status).toBe('retrying');
  });

  it('reconnects a refused or dropped socket after a delay that doubles up to 30 s, and resets once it opens', () => {
    const { live, sockets, timers, statuses, tick } = setup();
    live.join('s-1', () => undefined);
    // Refused before it opened (a proxy, a server restarting).
    sockets[0]!.drop(1006);
    expect(statuses).toEqual(['retrying']);
    expect(timers.map((t) => t.ms)).toEqual([1_000]);
    tick();
    sockets[1]!.drop(1006);
    tick();
    sockets[2]!.drop(1006);
    expect(timers.map((t) => t.ms)).toEqual([4_000]);
    tick();
    sockets[3]!.open();
    expect(statuses).toEqual(['retrying', 'live']);
    sockets[3]!.drop(1001);
    expect(timers.map((t) => t.ms)).toEqual([1_000]);
    expect(reconnectDelay(10, 1)).toBe(30_000);
    expect(reconnectDelay(0, 0)).toBe(500);
  });
});
