import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';

/** Enough for every filter, sort and page in active use; each entry is one page of summaries (a few kilobytes). */
const MAX_ENTRIES = 1_000;

interface Entry<T> {
  until: number;
  page: Promise<T>;
}

/** One cache per database, so test apps on their own databases never share pages. */
const caches = new WeakMap<Db, Map<string, Entry<unknown>>>();

/**
 * A page of the course centre, kept `seconds` per viewer scope and query: the centre is what every learner opens
 * first and what changes least. Concurrent requests for a page not yet kept share one query. A write through the
 * course API drops every kept page of this process at once (`dropCentrePagesOnWrite`), and of every other process
 * sharing a Redis; without one, another process shows it within `seconds`. With `seconds` 0 nothing is kept.
 */
export function centrePage<T>(db: Db, key: string, seconds: number, load: () => Promise<T>): Promise<T> {
  if (seconds <= 0) return load();
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const now = Date.now();
  const hit = cache.get(key) as Entry<T> | undefined;
  if (hit && hit.until > now) return hit.page;
  if (cache.size >= MAX_ENTRIES) {
    for (const [k, entry] of cache) if (entry.until <= now) cache.delete(k);
    // Still full of live pages: the oldest inserted goes.
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  const page = load();
  const entry = { until: now + seconds * 1000, page };
  cache.set(key, entry);
  // A failed query is not kept.
  page.catch(() => cache.get(key) === entry && cache.delete(key));
  return page;
}

/** Forgets every kept centre page of this database. */
export function forgetCentrePages(db: Db) {
  caches.get(db)?.clear();
}

/** The other processes sharing a Redis drop their kept pages when one of them announces a write. */
export function followCentreWrites(ctx: AppContext): void {
  ctx.cluster?.subscribe('course-centre-changed', () => forgetCentrePages(ctx.db));
}

/**
 * In a course route plugin: any write it answers without an error (publishing, closing, taking down, editing
 * information, packages, catalogue names, joining) drops the kept centre pages before the answer leaves, so the
 * writer's next look at the centre shows the change; the other processes sharing a Redis are told to drop theirs.
 */
export function dropCentrePagesOnWrite(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      forgetCentrePages(ctx.db);
      await ctx.cluster?.publish('course-centre-changed', null);
    }
    return payload;
  });
}
