import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bridge } from './runtime-proxy.js';

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

  it('lives 3 s after Jupyter answered its upgrade even when its token expired meanwhile', async () => {
    const closes: { code: number; at: number }[] = [];
    let upgradedAt: number | null = null;
    const forget = t.app.runtimeSockets.add({
      projectId: 'project',
      auth: { userId: 'kid', customerId: null, roles: [], sessionId: 'session', mustChangePassword: false },
      // Expired while Jupyter held the upgrade (a busy kernel answers it only when its cell ends).
      expiresAt: Date.now() - 1000,
      upgradedAt: () => upgradedAt,
      close: (code) => closes.push({ code, at: Date.now() }),
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(closes).toEqual([]);
      upgradedAt = Date.now();
      await waitFor(() => closes.length > 0, 10_000);
      expect(closes[0]!.code).toBe(4401);
      expect(closes[0]!.at - upgradedAt).toBeGreaterThanOrEqual(2_900);
    } finally {
      forget();
    }
  }, 15_000);
});
