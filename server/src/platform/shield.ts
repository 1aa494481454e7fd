import { BlockList, isIP } from 'node:net';
import { API_PREFIXES } from '@aiedu/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RedisCluster } from './cluster.js';

export type ShieldEvent = 'loginFailure' | 'codeRequest' | 'captchaRequest';

export interface ShieldOptions {
  /** Events per address per hour that trip the shield; an event without a limit is not counted. */
  limits: Partial<Record<ShieldEvent, number>>;
  blockMs: number;
  now: () => Date;
}

const HOUR = 3_600_000;
/** How often the counts of addresses that went quiet and the blocks that ran out leave this process's memory. */
const SWEEP_MS = 10 * 60_000;

/**
 * The request shield: an address that exceeds the abuse thresholds is answered HTTP 403 with a text body for
 * `blockMs` (`SHIELD_BLOCK_MINUTES`, 15 by default). School address ranges that administrators list are never blocked, so a school behind one address is
 * never shut out as a whole. With Redis the counts are the deployment's (every process counts into the same window)
 * and a block is announced to every process, which also reads the blocks still running when it starts; without it
 * each process counts and shields for itself. Whether an address is blocked is always read from this process's
 * memory, so no request waits for Redis. IPv6 addresses are counted and blocked by their /64 (see `addressKey`).
 */
export class RequestShield {
  private readonly events = new Map<string, number[]>();
  private readonly blockedUntil = new Map<string, number>();
  private allow = new BlockList();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly options: ShieldOptions,
    private readonly cluster: RedisCluster | null = null,
  ) {
    cluster?.subscribe('shield-block', (message) => {
      const { ip, until } = (message ?? {}) as { ip?: unknown; until?: unknown };
      if (typeof ip === 'string' && typeof until === 'number') this.blockUntil(ip, until);
    });
    // Addresses that never come back would otherwise keep their entries for as long as the process runs.
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Takes over the blocks other processes set that still run (with Redis). */
  async load(): Promise<void> {
    if (!this.cluster) return;
    for (const [key, value] of await this.cluster.values('shield:block:*')) {
      this.blockUntil(key.slice('shield:block:'.length), Number(value));
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private blockUntil(key: string, until: number) {
    if (Number.isFinite(until) && until > (this.blockedUntil.get(key) ?? 0)) this.blockedUntil.set(key, until);
  }

  /** Replaces the exempt ranges, each an address or CIDR range (IPv4 or IPv6). */
  setAllowlist(ranges: string[]) {
    const list = new BlockList();
    for (const range of ranges) addRange(list, range);
    this.allow = list;
  }

  isAllowed(ip: string): boolean {
    const family = isIP(ip);
    return family !== 0 && this.allow.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** Counts one event of the address, and blocks it once its last hour holds more than the limit. */
  async record(ip: string, event: ShieldEvent): Promise<void> {
    const limit = this.options.limits[event];
    if (limit === undefined || this.isAllowed(ip)) return;
    const key = addressKey(ip);
    const now = this.options.now().getTime();
    const shared = await this.cluster?.hit(`shield:${event}:${key}`, now, HOUR).catch(() => null);
    const count = shared ?? this.countHere(`${event}\n${key}`, now);
    if (count <= limit) return;
    const until = now + this.options.blockMs;
    this.blockUntil(key, until);
    if (!this.cluster) return;
    await this.cluster.setUntil(`shield:block:${key}`, String(until), until, now).catch(() => undefined);
    await this.cluster.publish('shield-block', { ip: key, until });
  }

  /** Counts the event in this process's own window (without Redis, or while it cannot be reached). */
  private countHere(key: string, now: number): number {
    const recent = (this.events.get(key) ?? []).filter((t) => now - t < HOUR);
    recent.push(now);
    this.events.set(key, recent);
    return recent.length;
  }

  isBlocked(ip: string): boolean {
    return this.blockedForMs(ip) > 0;
  }

  /** How long the address's block still runs, in milliseconds; 0 when it is not blocked. */
  blockedForMs(ip: string): number {
    if (this.blockedUntil.size === 0) return 0;
    const key = addressKey(ip);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return 0;
    const left = until - this.options.now().getTime();
    if (left <= 0) {
      this.blockedUntil.delete(key);
      return 0;
    }
    return this.isAllowed(ip) ? 0 : left;
  }

  /** Drops the counts whose hour has passed and the blocks that ran out. */
  sweep(): void {
    const now = this.options.now().getTime();
    for (const [key, times] of this.events) {
      if (!times.some((t) => now - t < HOUR)) this.events.delete(key);
    }
    for (const [key, until] of this.blockedUntil) {
      if (until <= now) this.blockedUntil.delete(key);
    }
  }

  /** How many counts and blocks this process holds in memory. */
  get size(): number {
    return this.events.size + this.blockedUntil.size;
  }
}

/** The eight 16-bit groups of an IPv6 address (one `isIP` accepts), an embedded IPv4 tail as two of them. */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const toBigInt = (groups: number[]) => groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
/** ::ffff:0:0/96, where IPv6 carries IPv4 addresses; the shield's lists match them as the IPv4 ones. */
const MAPPED = 0xffffn << 32n;

/**
 * What the shield counts and blocks an address as: an IPv4 address as is (also when it arrives IPv4-mapped), an IPv6
 * address by its /64, the least a subscriber line or a host is given, so rotating through it dodges no threshold.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':') || isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  if (toBigInt(groups) >> 32n === MAPPED >> 32n) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

export function addRange(list: BlockList, range: string) {
  const [address, prefix] = range.trim().split('/');
  const family = isIP(address ?? '');
  if (!family) throw new Error(`not an address or range: ${range}`);
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (prefix === undefined) list.addAddress(address!, type);
  else list.addSubnet(address!, Number(prefix), type);
}

export function isValidRange(range: string): boolean {
  try {
    const [, prefix] = range.split('/');
    if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return false;
    addRange(new BlockList(), range);
    return true;
  } catch {
    return false;
  }
}

/** The widest ranges administrators may exempt from the shield (the operator's `SHIELD_ALLOW` has no such bound). */
export const WIDEST_EXEMPT_RANGE = { ipv4: 16, ipv6: 48 } as const;

/**
 * Whether a valid range is no wider than a school's network can be: IPv4 /16, IPv6 /48. Wider ones would exempt a
 * provider's customers or everyone (`0.0.0.0/0`, `::/0`) for every customer of the deployment. An IPv6 range over
 * IPv4-mapped addresses is judged by the IPv4 addresses it covers, since the shield's list matches those too.
 */
export function isExemptableRange(range: string): boolean {
  const [address = '', prefixText] = range.trim().split('/');
  const family = isIP(address);
  if (family === 4) return prefixText === undefined || Number(prefixText) >= WIDEST_EXEMPT_RANGE.ipv4;
  if (family !== 6) return false;
  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 128) return false;
  // Up to /96 the range holds every mapped address when it holds ::ffff:0:0; past /96, it lies among them or not.
  const shift = BigInt(Math.max(128 - prefix, 32));
  if (toBigInt(ipv6Groups(address)) >> shift === MAPPED >> shift) return prefix - 96 >= WIDEST_EXEMPT_RANGE.ipv4;
  return prefix >= WIDEST_EXEMPT_RANGE.ipv6;
}

/**
 * The shield's text answer, naming the whole minutes the block still runs (`SHIELD_BLOCK_MINUTES` at most): the web
 * client shows its own system notice instead.
 */
export function shieldText(blockedForMs: number): string {
  const minutes = Math.max(1, Math.ceil(blockedForMs / 60_000));
  return `Request blocked: the system detected that your requests may threaten the site and blocked them automatically. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'} or contact the site staff.`;
}

/**
 * Whether the request is an API call, judged as the router reads it: by the route it matched, or by its path with
 * the percent-escapes decoded, since `/%67w/…` reaches the same handlers as `/gw/…`.
 */
function isApiRequest(request: FastifyRequest): boolean {
  const path = request.url.split(/[?#]/, 1)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // An escape that does not decode reaches no handler either: the router answers it 400.
  }
  return [request.routeOptions.url ?? '', decoded].some((p) => API_PREFIXES.some((prefix) => p.startsWith(prefix)));
}

/**
 * Blocks API calls only: the web app's own files still load, so a blocked visitor sees the system notice that
 * explains the block instead of a bare text page.
 */
export function registerShield(app: FastifyInstance, shield: RequestShield) {
  app.addHook('onRequest', async (request, reply) => {
    const blockedFor = shield.blockedForMs(request.ip);
    if (blockedFor > 0 && isApiRequest(request)) {
      return reply.code(403).type('text/plain; charset=utf-8').send(shieldText(blockedFor));
    }
  });
  app.addHook('onClose', async () => shield.close());
}
