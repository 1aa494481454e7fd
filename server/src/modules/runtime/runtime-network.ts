import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net, { isIP } from 'node:net';

/**
 * What a runtime's processes (kernels, terminals, package installs) may reach over the network:
 * - `internet`: anything outside this machine and the private networks around it (pip from a public index);
 * - `none`: nothing but the addresses allowed by name (a package index of the school's).
 * In both, the host itself (every address of this machine: the database, Redis, the API, other runtimes' Jupyter
 * servers), the private, link-local (the cloud metadata address 169.254.169.254) and shared ranges are closed to
 * them, except the allowed addresses and, with `internet`, the DNS resolvers of `/etc/resolv.conf` on port 53.
 */
export type RuntimeNetworkMode = 'internet' | 'none';

/** An address or range a runtime may reach although it is local or private, on one port or every port. */
export interface NetworkAllowance {
  /** An IPv4 or IPv6 address, or a range in CIDR notation. */
  address: string;
  port: number | null;
}

/** Whether the runtimes of this process are cut off from the host's services, and if not, why not. */
export interface NetworkIsolation {
  isolated: boolean;
  mode: RuntimeNetworkMode;
  /** Why runtimes are not isolated (empty when they are). */
  reason: string;
}

/** Every uid a project user of this process can have: `uidBase + seq`. */
export const RUNTIME_UID_SPAN = 1_000_000_000;
const MAX_UID = 4_294_967_294;

export const NFT = '/usr/sbin/nft';
const SETPRIV = '/usr/bin/setpriv';

/** Ranges no runtime reaches unless allowed: this side of any router, and the special-purpose ones. */
export const CLOSED_IPV4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/3',
];
export const CLOSED_IPV6 = ['::/127', '::ffff:0:0/96', '64:ff9b:1::/48', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

/**
 * Parses `RUNTIME_NETWORK_ALLOW`: comma-separated `ADDRESS`, `CIDR`, `IPV4:PORT` or `[IPV6]:PORT`. Null when an
 * entry is none of these.
 */
export function parseNetworkAllowances(value: string): NetworkAllowance[] | null {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const parsed = entries.map(parseAllowance);
  return parsed.every((entry): entry is NetworkAllowance => entry !== null) ? parsed : null;
}

function parseAllowance(entry: string): NetworkAllowance | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const v4WithPort = /^([\d.]+(?:\/\d{1,2})?):(\d{1,5})$/.exec(entry);
  const [address, portText] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : v4WithPort
      ? [v4WithPort[1]!, v4WithPort[2]]
      : [entry, undefined];
  const [ip = '', prefix] = address.split('/');
  const family = isIP(ip);
  if (!family) return null;
  if (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))) return null;
  const port = portText === undefined ? null : Number(portText);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { address, port };
}

/** The allowance a package index on this machine or a private network needs: its address and port. */
export function indexAllowance(indexUrl: string | undefined): NetworkAllowance | null {
  if (!indexUrl || !/^https?:/.test(indexUrl)) return null;
  const url = new URL(indexUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return null;
  return { address: host, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

/** The resolvers runtimes ask for names (with `internet`): the machine's, from `/etc/resolv.conf`. */
export function systemResolvers(resolvConf = '/etc/resolv.conf'): string[] {
  if (!existsSync(resolvConf)) return [];
  return readFileSync(resolvConf, 'utf8')
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1]?.replace(/%.*$/, ''))
    .filter((address): address is string => !!address && isIP(address) !== 0);
}

/** The nftables table of the runtimes whose users start at `uidBase`. */
export const networkTableName = (uidBase: number) => `aiedu_runtimes_${uidBase}`;

function allowRule({ address, port }: NetworkAllowance, protocols: string[] = ['tcp', 'udp']): string[] {
  const family = isIP(address.split('/')[0]!) === 6 ? 'ip6' : 'ip';
  if (port === null) return [`${family} daddr ${address} accept`];
  return protocols.map((protocol) => `${family} daddr ${address} ${protocol} dport ${port} accept`);
}

/**
 * The nftables script that installs (or replaces, in one transaction) the rules of the runtimes whose users are
 * `uidBase` … `uidBase + RUNTIME_UID_SPAN`. They match packets by the uid owning the socket that sends them, so
 * they hold for every process of a project (kernels, terminals, pip) however it was started, and for nothing of
 * the server's. Replies on connections made to a runtime (the gateway's, as root) pass.
 */
export function networkRules(options: {
  uidBase: number;
  mode: RuntimeNetworkMode;
  allow: NetworkAllowance[];
  resolvers: string[];
}): string {
  const table = networkTableName(options.uidBase);
  const last = Math.min(options.uidBase + RUNTIME_UID_SPAN, MAX_UID);
  const resolvers =
    options.mode === 'internet'
      ? options.resolvers.flatMap((address) => allowRule({ address, port: 53 }, ['udp', 'tcp']))
      : [];
  const rejection = 'reject with icmpx admin-prohibited';
  const rules = [
    'ct state established,related accept',
    ...options.allow.flatMap((allowance) => allowRule(allowance)),
    ...resolvers,
    `fib daddr type { local, broadcast, anycast, multicast } counter ${rejection}`,
    `ip daddr { ${CLOSED_IPV4.join(', ')} } counter ${rejection}`,
    `ip6 daddr { ${CLOSED_IPV6.join(', ')} } counter ${rejection}`,
    ...(options.mode === 'none' ? [`counter ${rejection}`] : []),
  ];
  return [
    // Declared first so that the delete finds it on a machine where it was never loaded.
    `table inet ${table}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
    '  chain output {',
    '    type filter hook output priority filter; policy accept;',
    `    meta skuid ${options.uidBase}-${last} jump runtime`,
    '  }',
    '  chain runtime {',
    ...rules.map((rule) => `    ${rule}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * Installs the runtimes' network rules, run as root with nftables; answers whether runtimes are isolated, and in
 * plain words why not.
 */
export function isolateRuntimeNetwork(options: {
  uidBase: number;
  mode: RuntimeNetworkMode;
  allow: NetworkAllowance[];
  resolvers?: string[];
  nft?: string;
}): NetworkIsolation {
  const { mode } = options;
  const nft = options.nft ?? NFT;
  if (process.getuid?.() !== 0) {
    return {
      isolated: false,
      mode,
      reason:
        'the server does not run as root: runtimes run as its own user and reach everything it reaches (the database, Redis, the API)',
    };
  }
  if (!existsSync(nft)) {
    return {
      isolated: false,
      mode,
      reason: `nftables is not installed (${nft}): runtimes reach the database, Redis and the API on this machine; install the nftables package and restart`,
    };
  }
  const script = networkRules({ ...options, resolvers: options.resolvers ?? systemResolvers() });
  const loaded = spawnSync(nft, ['-f', '-'], { input: script, encoding: 'utf8', timeout: 10_000 });
  if (loaded.status !== 0) {
    const detail = (loaded.stderr || loaded.error?.message || '').trim().split('\n')[0] ?? '';
    return {
      isolated: false,
      mode,
      reason: `nftables refused the runtimes' rules (${detail}): runtimes reach the database, Redis and the API on this machine`,
    };
  }
  return { isolated: true, mode, reason: '' };
}

/**
 * Whether the rules are in force: a process of the range's last user (never a project's) tries a port of this
 * machine that accepts connections (a listener of this process's on 127.0.0.1) and must be refused. Rules can be gone without this
 * process knowing (a firewall reloaded, `nft flush ruleset`), so each runtime start asks again.
 */
export async function rulesInForce(uidBase: number): Promise<boolean> {
  const uid = Math.min(uidBase + RUNTIME_UID_SPAN, MAX_UID);
  const listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;
  try {
    const answer = await new Promise<string>((resolve) => {
      const probe = spawn(
        SETPRIV,
        [
          `--reuid=${uid}`,
          `--regid=${uid}`,
          '--clear-groups',
          '/bin/bash',
          '-c',
          `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo open || echo closed`,
        ],
        { stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 },
      );
      let out = '';
      probe.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
      probe.once('error', () => resolve(''));
      probe.once('close', () => resolve(out.trim()));
    });
    return answer === 'closed';
  } finally {
    listener.close();
  }
}
