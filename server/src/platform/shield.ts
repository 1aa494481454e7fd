import { BlockList, isIP } from 'node:net';
import { API_PREFIXES } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import type { RedisCluster } from './cluster.js';

export type ShieldEvent = 'loginFailure' | 'codeRequest';

export interface ShieldOptions {
  /** Events per address per hour that trip the shield. */
  limits: Record<ShieldEvent, number>;
  blockMs: number;
  now: () => Date;
}

const HOUR = 3_600_000;

/**
 * The request shield: an address that exceeds the abuse thresholds is answered HTTP 403 with a text body for
 * 15 minutes. School address ranges that administrators list are never blocked, so a school behind one address is
 * never shut out as a whole. With Redis the counts are the deployment's (every process counts into the same window)
 * and a block is announced to every process, which also reads the blocks still running when it starts; without it
 * each process counts and shields for itself. Whether an address is blocked is always read from this process's
 * memory, so no request waits for Redis.
 */
export class RequestShield {
  private readonly events = new Map<string, number[]>();
  private readonly blockedUntil = new Map<string, number>();
  private allow = new BlockList();

  constructor(
    private readonly options: ShieldOptions,
    private readonly cluster: RedisCluster | null = null,
  ) {
    cluster?.subscribe('shield-block', (message) => {
      const { ip, until } = (message ?? {}) as { ip?: unknown; until?: unknown };
      if (typeof ip === 'string' && typeof until === 'number') this.blockUntil(ip, until);
    });
  }

  /** Takes over the blocks other processes set that still run (with Redis). */
  async load(): Promise<void> {
    if (!this.cluster) return;
    for (const [key, value] of await this.cluster.values('shield:block:*')) {
      this.blockUntil(key.slice('shield:block:'.length), Number(value));
    }
  }

  private blockUntil(ip: string, until: number) {
    if (Number.isFinite(until) && until > (this.blockedUntil.get(ip) ?? 0)) this.blockedUntil.set(ip, until);
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
    if (this.isAllowed(ip)) return;
    const now = this.options.now().getTime();
    const shared = await this.cluster?.hit(`shield:${event}:${ip}`, now, HOUR).catch(() => null);
    const count = shared ?? this.countHere(`${event}\n${ip}`, now);
    if (count <= this.options.limits[event]) return;
    const until = now + this.options.blockMs;
    this.blockUntil(ip, until);
    if (!this.cluster) return;
    await this.cluster.setUntil(`shield:block:${ip}`, String(until), until, now).catch(() => undefined);
    await this.cluster.publish('shield-block', { ip, until });
  }

  /** Counts the event in this process's own window (without Redis, or while it cannot be reached). */
  private countHere(key: string, now: number): number {
    const recent = (this.events.get(key) ?? []).filter((t) => now - t < HOUR);
    recent.push(now);
    this.events.set(key, recent);
    return recent.length;
  }

  isBlocked(ip: string): boolean {
    const until = this.blockedUntil.get(ip);
    if (until === undefined) return false;
    if (until > this.options.now().getTime() && !this.isAllowed(ip)) return true;
    this.blockedUntil.delete(ip);
    return false;
  }
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

/** The shield's text answer: the web client shows it as the blocking system notice. */
export const SHIELD_TEXT =
  'Request blocked: the system detected that your requests may threaten the site and blocked them automatically. Please try again in 15 minutes or contact the site staff.';

/**
 * Blocks API calls only: the web app's own files still load, so a blocked visitor sees the system notice that
 * explains the block instead of a bare text page.
 */
export function registerShield(app: FastifyInstance, shield: RequestShield) {
  app.addHook('onRequest', async (request, reply) => {
    if (API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) && shield.isBlocked(request.ip)) {
      return reply.code(403).type('text/plain; charset=utf-8').send(SHIELD_TEXT);
    }
  });
}
