import { z } from 'zod';
import { isValidRange } from './platform/shield.js';

/** The parsers of configuration values that are more than a zod type: booleans, addresses, proxies, warm pools. */

export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

/** An http:// or https:// address, without the trailing slash (paths are appended to it). */
export const httpAddress = (message: string) =>
  z
    .url({ message })
    .refine((url) => /^https?:\/\//.test(url), message)
    .transform((url) => url.replace(/\/+$/, ''));

export const RUNTIME_TYPES = ['BASIC', 'ADVANCED', 'GPU'] as const;

/** The ranges `proxy-addr` knows by name (127.0.0.0/8 and ::1, link-local, private). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `false`: no proxy; `true`: one (the usual reverse proxy, load balancer or ingress); a number: that many hops
 * nearest the server; else the proxies' addresses or CIDR ranges, comma-separated. Null when it is none of these.
 */
export function parseTrustProxy(value: string | undefined): { trust: boolean; proxies: number | string[] } | null {
  const text = value?.trim() ?? 'false';
  if (text === 'false') return { trust: false, proxies: 1 };
  if (text === 'true') return { trust: true, proxies: 1 };
  if (/^\d{1,2}$/.test(text)) return { trust: Number(text) > 0, proxies: Math.max(1, Number(text)) };
  const proxies = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const known = proxies.every((p) => PROXY_RANGE_NAMES.includes(p) || isValidRange(p));
  return known && proxies.length > 0 ? { trust: true, proxies } : null;
}

/** `2` keeps two servers of every runtime type; `BASIC=2,GPU=0` names types (unnamed ones get none). */
export function parseWarmPool(value: string): Record<(typeof RUNTIME_TYPES)[number], number> | null {
  const count = (text: string) => (/^\d{1,2}$/.test(text.trim()) ? Number(text.trim()) : null);
  const all = count(value);
  if (all !== null) return { BASIC: all, ADVANCED: all, GPU: all };
  const sizes = { BASIC: 0, ADVANCED: 0, GPU: 0 };
  for (const part of value.split(',')) {
    const [type, n] = part.split('=');
    const key = type?.trim().toUpperCase() as (typeof RUNTIME_TYPES)[number];
    const parsed = count(n ?? '');
    if (!RUNTIME_TYPES.includes(key) || parsed === null) return null;
    sizes[key] = parsed;
  }
  return sizes;
}
