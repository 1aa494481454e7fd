import net from 'node:net';
import { readRuntimeSocketNotice, ROLES, runtimeSocketNotice } from '@aiedu/contracts';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../platform/auth/tokens.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { AppContext } from '../../platform/context.js';
import { GatewaySockets, type GatewaySocket } from './gateway-sockets.js';
import { bridge } from './runtime-proxy.js';
import { textFrame } from './ws-frames.js';

/** A masked text frame, as a browser sends it. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

/** Two connected loopback sockets: [the gateway's end, the other end]. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const ours = await accepted;
  server.close();
  return [ours, client];
}

describe('the gateway bridge keeps what the browser sent when a socket ends', () => {
  const open: net.Socket[] = [];
  afterEach(() => {
    for (const s of open.splice(0)) s.destroy();
  });

  const setUp = async (replay: Buffer | null) => {
    const [browserSide, browser] = await socketPair();
    const [jupyterSide, jupyter] = await socketPair();
    open.push(browserSide, browser, jupyterSide, jupyter);
    const parked: Buffer[] = [];
    const link = bridge(browserSide, jupyterSide, {
      onBrowserData: () => undefined,
      replay,
      park: (frames) => parked.push(frames),
    });
    const toJupyter: Buffer[] = [];
    jupyter.on('data', (chunk: Buffer) => toJupyter.push(chunk));
    return { link, browser, jupyter, parked, toJupyter, browserSide };
  };

  it('parks the previous socket’s frames again when this one ends before Jupyter answered its upgrade', async () => {
    const earlier = clientFrame('{"msg":"run cell 2"}');
    const { browser, parked, toJupyter, browserSide } = await setUp(earlier);
    // Jupyter never answers the upgrade; the browser gives up.
    browser.destroy();
    await waitFor(() => browserSide.destroyed && parked.length > 0);
    expect(Buffer.concat(parked).equals(earlier)).toBe(true);
    expect(Buffer.concat(toJupyter).length).toBe(0);
  });

  it('sends the previous socket’s frames to Jupyter first, once it answered the upgrade, and parks nothing', async () => {
    const earlier = clientFrame('{"msg":"run cell 2"}');
    const { browser, jupyter, parked, toJupyter, browserSide } = await setUp(earlier);
    jupyter.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    await waitFor(() => Buffer.concat(toJupyter).equals(earlier));
    browser.destroy();
    await waitFor(() => browserSide.destroyed);
    expect(Buffer.concat(parked).length).toBe(0);
  });

  it('parks what the browser sent after Jupyter was asked to close', async () => {
    const { link, browser, jupyter, parked, toJupyter, browserSide } = await setUp(null);
    jupyter.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    const before = clientFrame('{"msg":"before"}');
    browser.write(before);
    await waitFor(() => Buffer.concat(toJupyter).equals(before));
    link.close(4401, 'token expired');
    // The gateway's close frame went to Jupyter after the browser's frame.
    await waitFor(() => Buffer.concat(toJupyter).length > before.length);
    const after = clientFrame('{"msg":"after"}');
    browser.write(after);
    await waitFor(() => browserSide.bytesRead >= before.length + after.length);
    browser.destroy();
    await waitFor(() => browserSide.destroyed && parked.length > 0);
    expect(Buffer.concat(parked).equals(after)).toBe(true);
  });
});

describe('the next socket of a kernel session or terminal', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('waits for the one the gateway is closing, so it gets the frames that one parks as it ends', async () => {
    const sockets = t.app.runtimeSockets;
    let ended!: () => void;
    const closed = new Promise<void>((resolve) => (ended = resolve));
    sockets.closing('kid:project:/terminals/websocket/1:', closed);
    const taken = sockets.takeParked('kid:project:/terminals/websocket/1:');
    // The browser reconnected first; the old socket's end (and its parking) comes after.
    sockets.park('kid:project:/terminals/websocket/1:', Buffer.from('ls\r'));
    ended();
    expect((await taken)?.toString()).toBe('ls\r');
    expect(await sockets.takeParked('kid:project:/terminals/websocket/1:')).toBeNull();
  });

  const socket = (
    expiresAt: number,
    upgradedAt: () => number | null,
    owner: { projectId: string; auth: AuthContext } = {
      projectId: 'project',
      auth: { userId: 'kid', customerId: null, roles: [], sessionId: 'session', mustChangePassword: false },
    },
  ) => {
    const events: { kind: 'notice' | 'close'; detail: string | number; at: number }[] = [];
    const tracked: GatewaySocket = {
      ...owner,
      expiresAt,
      upgradedAt,
      notify: (text) => events.push({ kind: 'notice', detail: text, at: Date.now() }),
      close: (code) => events.push({ kind: 'close', detail: code, at: Date.now() }),
    };
    /** What happened, with each notice read as the gateway's. */
    const seen = () =>
      events.map((e) => [e.kind, typeof e.detail === 'string' ? readRuntimeSocketNotice(e.detail)?.gateway : e.detail]);
    return { tracked, events, seen };
  };

  /** The gateway's sockets with a real clock, no database and a 300 ms window to renew. */
  const socketsWithoutDatabase = () =>
    new GatewaySockets(
      { now: () => new Date(), sessions: { onEnded: () => () => undefined } } as unknown as AppContext,
      300,
    );

  it('is told its token expired no sooner than 3 s after Jupyter answered its upgrade', async () => {
    let upgradedAt: number | null = null;
    // Expired while Jupyter held the upgrade (a busy kernel answers it only when its cell ends).
    const { tracked, events } = socket(Date.now() - 1000, () => upgradedAt);
    const forget = t.app.runtimeSockets.add(tracked);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(events).toEqual([]);
      upgradedAt = Date.now();
      await waitFor(() => events.length > 0, 10_000);
      expect(events[0]!.kind).toBe('notice');
      expect(readRuntimeSocketNotice(String(events[0]!.detail))).toMatchObject({ gateway: 'renew-token' });
      expect(events[0]!.at - upgradedAt).toBeGreaterThanOrEqual(2_900);
    } finally {
      forget();
    }
  }, 15_000);

  it('is told when its token expires even if the timer fires before the token clock says so', async () => {
    // A clock at half speed: the timer set for 400 ms on it fires when it reads 200 ms.
    const start = Date.now();
    const slow = () => new Date(start + (Date.now() - start) / 2);
    const sockets = new GatewaySockets(
      { now: slow, sessions: { onEnded: () => () => undefined } } as unknown as AppContext,
      60_000,
    );
    const { tracked, events } = socket(start + 400, () => Date.now() - 5000);
    const forget = sockets.add(tracked);
    try {
      // Well before the next round of checks (10 s), which would otherwise be the first to see it.
      await waitFor(() => events.length > 0, 5_000);
      expect(events[0]!.kind).toBe('notice');
      expect(slow().getTime()).toBeGreaterThanOrEqual(start + 400);
    } finally {
      forget();
      sockets.close();
    }
  });

  it('closes with 4401 a socket still open when its time to renew has passed', async () => {
    const sockets = socketsWithoutDatabase();
    const { tracked, events, seen } = socket(Date.now() - 1000, () => Date.now() - 5000);
    const forget = sockets.add(tracked);
    try {
      await waitFor(() => events.some((e) => e.kind === 'close'), 5_000);
      expect(seen()).toEqual([
        ['notice', 'renew-token'],
        ['close', 4401],
      ]);
      expect(events[1]!.at - events[0]!.at).toBeGreaterThanOrEqual(290);
    } finally {
      forget();
      sockets.close();
    }
  });

  it('is told once, however many rounds of checks pass before it closes', async () => {
    // Each round of checks stops after its expiry pass (there is no database), which is the part under test.
    const sockets = socketsWithoutDatabase();
    const { tracked, events, seen } = socket(Date.now() - 1000, () => Date.now() - 5000);
    const forget = sockets.add(tracked);
    try {
      await waitFor(() => events.length > 0, 5_000);
      await sockets.check().catch(() => undefined);
      await sockets.check().catch(() => undefined);
      await waitFor(() => events.some((e) => e.kind === 'close'), 5_000);
      expect(seen()).toEqual([
        ['notice', 'renew-token'],
        ['close', 4401],
      ]);
    } finally {
      forget();
      sockets.close();
    }
  });
});

describe('a socket’s token renewal', () => {
  let t: TestApp;
  let projectId: string;
  const tokens: Record<string, string> = {};
  const authOf = (token: string): AuthContext => {
    const claims = decodeJwt(token);
    return {
      userId: String(claims.sub),
      customerId: String(claims.cid),
      roles: claims.roles as string[],
      sessionId: String(claims.sid),
      mustChangePassword: false,
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const school = await buildCustomer(t.database.db);
    for (const name of ['kid', 'classmate']) {
      const user = await buildUser(t.database.db, { customerId: school.id, username: name, roles: [ROLES.student] });
      tokens[name] = await signIn(t.app, school.code, name, user.password);
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/gw/api/v1/projects',
      payload: { name: 'Renewals' },
      headers: { 'x-authorization': tokens.kid! },
    });
    projectId = created.json().data.id;
  });
  afterAll(() => t.close());

  /** The gateway's sockets on the app's database, with a real clock and a 2 s window to renew. */
  const socketsWithDatabase = () =>
    new GatewaySockets(
      {
        db: t.database.db,
        now: () => new Date(),
        sessions: { onEnded: () => () => undefined },
      } as unknown as AppContext,
      2000,
    );

  const ownSocket = (expiresAt: number) => {
    const events: { kind: 'notice' | 'close'; detail: string | number }[] = [];
    const tracked: GatewaySocket = {
      projectId,
      auth: authOf(tokens.kid!),
      expiresAt,
      upgradedAt: () => Date.now() - 5000,
      notify: (text) => events.push({ kind: 'notice', detail: text }),
      close: (code) => events.push({ kind: 'close', detail: code }),
    };
    return { tracked, events };
  };

  /** Runs `check` on the kid's socket whose token has expired, once the gateway's notice named it. */
  const withNoticedSocket = async (
    check: (socket: ReturnType<typeof ownSocket> & { sockets: GatewaySockets; id: string }) => Promise<void>,
  ) => {
    const sockets = socketsWithDatabase();
    const own = ownSocket(Date.now() - 1000);
    const forget = sockets.add(own.tracked);
    try {
      await waitFor(() => own.events.length > 0, 5_000);
      await check({ ...own, sockets, id: readRuntimeSocketNotice(String(own.events[0]!.detail))!.socket });
    } finally {
      forget();
      sockets.close();
    }
  };

  it('keeps a socket open on the fresh token it is handed, until that one expires', () =>
    withNoticedSocket(async ({ sockets, tracked, events, id }) => {
      // Without a renewal this socket would close 2 s after the notice; the fresh token lasts 2.5 s from now.
      const fresh = authOf(tokens.kid!);
      await sockets.renew(id, fresh, Date.now() + 2500);
      expect(tracked.auth).toBe(fresh);
      await waitFor(() => events.length > 1, 5_000);
      expect(events[1]!.kind).toBe('notice');
      expect(readRuntimeSocketNotice(String(events[1]!.detail))!.socket).toBe(id);
      // That token is not renewed: the socket closes when its time to renew has passed.
      await waitFor(() => events.length > 2, 5_000);
      expect(events.map((e) => e.kind)).toEqual(['notice', 'notice', 'close']);
      expect(events[2]!.detail).toBe(4401);
      await expect(sockets.renew(id, fresh, Date.now() + 60_000)).rejects.toMatchObject({ message: 'NOT_FOUND' });
    }));

  it('refuses another user’s token and a socket it does not know', () =>
    withNoticedSocket(async ({ sockets, tracked, events, id }) => {
      const kid = tracked.auth;
      await expect(sockets.renew(id, authOf(tokens.classmate!), Date.now() + 60_000)).rejects.toMatchObject({
        message: 'NOT_FOUND',
      });
      const unknown = '00000000-0000-4000-8000-000000000000';
      await expect(sockets.renew(unknown, kid, Date.now() + 60_000)).rejects.toMatchObject({ message: 'NOT_FOUND' });
      expect(tracked.auth).toBe(kid);
      // Still waiting for its own user's token: it closes when the time to renew has passed.
      await waitFor(() => events.length > 1, 5_000);
      expect(events.map((e) => e.kind)).toEqual(['notice', 'close']);
    }));

  it('is a route of the API: the caller’s token, the socket named in the notice', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const put = (token: string | undefined, socket = `${t.app.runtimes.instance.id}.${unknown}`) =>
      t.app.inject({
        method: 'PUT',
        url: `/gw/api/v1/runtime/sockets/${socket}/token`,
        headers: token ? { 'x-authorization': token } : {},
      });
    expect((await put(tokens.kid)).json()).toMatchObject({ errorCode: '1004' });
    expect((await put(undefined)).json()).toMatchObject({ errorCode: '1107' });
    // A socket of a process that is not (or no longer) serving: nothing to renew.
    expect((await put(tokens.kid, `${unknown}.${unknown}`)).json()).toMatchObject({ errorCode: '1004' });
    // Not a socket's name at all.
    expect((await put(tokens.kid, unknown)).statusCode).toBe(400);
  });
});

describe('the gateway’s notice to the browser', () => {
  it('goes between two of Jupyter’s frames, never inside one', async () => {
    const [browserSide, browser] = await socketPair();
    const [jupyterSide, jupyter] = await socketPair();
    try {
      const link = bridge(browserSide, jupyterSide, {
        onBrowserData: () => undefined,
        replay: null,
        park: () => undefined,
      });
      const received: Buffer[] = [];
      browser.on('data', (chunk: Buffer) => received.push(chunk));
      const head = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      const output = textFrame('{"channel":"iopub","content":{"text":"0\\n"}}');
      // Jupyter's frame arrives in two pieces; the notice is asked for in between.
      jupyter.write(Buffer.concat([head, output.subarray(0, 10)]));
      await waitFor(() => Buffer.concat(received).length === head.length + 10);
      link.notify(runtimeSocketNotice('socket-1'));
      jupyter.write(output.subarray(10));
      const notice = textFrame(runtimeSocketNotice('socket-1'));
      const expected = Buffer.concat([head, output, notice]);
      await waitFor(() => Buffer.concat(received).length === expected.length);
      expect(Buffer.concat(received).equals(expected)).toBe(true);
      // Between frames it goes at once.
      link.notify('second');
      await waitFor(() => Buffer.concat(received).length === expected.length + textFrame('second').length);
      expect(Buffer.concat(received).subarray(expected.length).equals(textFrame('second'))).toBe(true);
    } finally {
      for (const s of [browserSide, browser, jupyterSide, jupyter]) s.destroy();
    }
  });
});
