import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  indexAllowance,
  isolateRuntimeNetwork,
  NFT,
  networkRules,
  networkTableName,
  parseNetworkAllowances,
  rulesInForce,
  systemResolvers,
} from './runtime-network.js';

describe('RUNTIME_NETWORK_ALLOW', () => {
  it.each([
    ['', []],
    ['10.0.0.5', [{ address: '10.0.0.5', port: null }]],
    ['10.0.0.5:3141', [{ address: '10.0.0.5', port: 3141 }]],
    [
      '192.168.8.0/24:80, fd00::/8',
      [
        { address: '192.168.8.0/24', port: 80 },
        { address: 'fd00::/8', port: null },
      ],
    ],
    ['[fd00::5]:3141', [{ address: 'fd00::5', port: 3141 }]],
    ['[::1]', [{ address: '::1', port: null }]],
  ])('takes %j', (value, expected) => {
    expect(parseNetworkAllowances(value)).toEqual(expected);
  });

  it.each(['pypi.internal', '10.0.0.5:0', '10.0.0.5:70000', '10.0.0.0/33', 'fd00::5:3141:x', '10.0.0.5;drop', '*'])(
    'refuses %j',
    (value) => {
      expect(parseNetworkAllowances(value)).toBeNull();
    },
  );

  it('lets a package index given by address through on its port', () => {
    expect(indexAllowance('http://10.1.2.3:3141/simple')).toEqual({ address: '10.1.2.3', port: 3141 });
    expect(indexAllowance('https://[fd00::7]/simple')).toEqual({ address: 'fd00::7', port: 443 });
    // Names are resolved by the runtime, through the resolvers; files need no network.
    expect(indexAllowance('https://pypi.example.org/simple')).toBeNull();
    expect(indexAllowance('file:///srv/wheels')).toBeNull();
  });

  it("reads the machine's resolvers", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-resolv-'));
    const file = path.join(dir, 'resolv.conf');
    writeFileSync(file, '# comment\nnameserver 10.255.255.53\nnameserver fe80::1%eth0\nsearch lan\nnameserver bogus\n');
    expect(systemResolvers(file)).toEqual(['10.255.255.53', 'fe80::1']);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the runtimes’ nftables rules', () => {
  const rules = (mode: 'internet' | 'none') =>
    networkRules({
      uidBase: 200_000,
      mode,
      allow: [{ address: '10.0.0.5', port: 3141 }],
      resolvers: ['10.255.255.53'],
    });

  it('match every project user of the process, let replies and allowed addresses through, then close the rest', () => {
    const text = rules('internet');
    expect(text).toContain('meta skuid 200000-1000200000 jump runtime');
    const order = [
      'ct state established,related accept',
      'ip daddr 10.0.0.5 tcp dport 3141 accept',
      'ip daddr 10.255.255.53 udp dport 53 accept',
      'fib daddr type { local, broadcast, anycast, multicast }',
      'ip daddr { 0.0.0.0/8, 10.0.0.0/8',
      'ip6 daddr { ::/127',
    ].map((rule) => text.indexOf(rule));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The metadata address and the private networks are among the closed ranges.
    expect(text).toMatch(/169\.254\.0\.0\/16.*172\.16\.0\.0\/12.*192\.168\.0\.0\/16/);
    expect(text).toContain('fc00::/7');
    // With internet, anything else is open.
    expect(text.trimEnd().split('\n').at(-3)).toMatch(/ip6 daddr/);
  });

  it('with none, close everything but the allowed addresses, resolvers included', () => {
    const text = rules('none');
    expect(text).not.toContain('dport 53');
    expect(text).toContain('ip daddr 10.0.0.5 tcp dport 3141 accept');
    expect(text.trimEnd().split('\n').at(-3)).toMatch(/^\s+counter reject with icmpx admin-prohibited$/);
  });
});

/** A uid range of its own, far from any the platform or its other tests use. */
const UID_BASE = 1_990_000_000;
const canLoad = process.getuid?.() === 0 && existsSync(NFT);

describe.skipIf(!canLoad)('the rules, loaded into this machine’s nftables', () => {
  let server: net.Server;
  let port: number;

  /** How a connection from a project user of the range to the listener ends. */
  const connectAs = (uid: number) => {
    const script = `import socket, errno\ntry:\n    socket.create_connection(('127.0.0.1', ${port}), timeout=3).close()\n    print('open')\nexcept OSError as e:\n    print(errno.errorcode.get(e.errno, 'timeout'))`;
    const result = spawnSync(
      '/usr/bin/setpriv',
      [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '/usr/bin/python3', '-c', script],
      { encoding: 'utf8', timeout: 20_000 },
    );
    return result.stdout.trim();
  };

  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => {
    server.close();
    spawnSync(NFT, ['delete', 'table', 'inet', networkTableName(UID_BASE)]);
  });

  it('refuse a project user the machine’s own services, and let it reach an allowed one; other users are untouched', () => {
    const closed = isolateRuntimeNetwork({ uidBase: UID_BASE, mode: 'internet', allow: [] });
    expect(closed).toEqual({ isolated: true, mode: 'internet', reason: '' });
    expect(connectAs(UID_BASE + 1)).toBe('EHOSTUNREACH');
    // A user outside the range (below it) is not the platform's to close.
    expect(connectAs(UID_BASE - 1)).toBe('open');
    // Loading again replaces the table in one transaction: the allowance takes effect, nothing is left twice.
    isolateRuntimeNetwork({ uidBase: UID_BASE, mode: 'none', allow: [{ address: '127.0.0.1', port }] });
    expect(connectAs(UID_BASE + 1)).toBe('open');
    const listed = spawnSync(NFT, ['list', 'table', 'inet', networkTableName(UID_BASE)], { encoding: 'utf8' }).stdout;
    expect(listed.match(/jump runtime/g)).toHaveLength(1);
  });

  it('tell whether they are in force, as each runtime start asks', async () => {
    isolateRuntimeNetwork({ uidBase: UID_BASE, mode: 'internet', allow: [] });
    expect(await rulesInForce(UID_BASE)).toBe(true);
    // Gone behind the platform's back (a firewall reloaded).
    spawnSync(NFT, ['delete', 'table', 'inet', networkTableName(UID_BASE)]);
    expect(await rulesInForce(UID_BASE)).toBe(false);
  });
});
