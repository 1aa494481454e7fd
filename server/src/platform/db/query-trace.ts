import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** One statement a request sent: its text and parameters, and when it started and ended (ms since the request began). */
export interface TracedStatement {
  text: string;
  params: unknown[];
  startMs: number;
  endMs: number;
}

/** A request's statements, one JSON line each in the trace file. */
export interface TracedRequest {
  requestId: string;
  method: string;
  url: string;
  statusCode: number;
  statements: TracedStatement[];
}

interface Store {
  began: number;
  statements: TracedStatement[];
}

const requests = new AsyncLocalStorage<Store>();

/** The text and parameters of a `query` call, in node-postgres's forms (text, values) or ({ text, values }) and PGlite's. */
function statementOf(args: unknown[]): { text: string; params: unknown[] } | null {
  const [first, second] = args;
  if (typeof first === 'string') return { text: first, params: Array.isArray(second) ? second : [] };
  if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
    const config = first as { text: string; values?: unknown[] };
    return { text: config.text, params: Array.isArray(second) ? second : (config.values ?? []) };
  }
  return null;
}

/**
 * A database client whose `query` records each statement under the request that sent it (`SQL_TRACE_FILE`): the
 * benchmark replays a route's statements on a bare route. Statements outside a request (start-up, background work)
 * and inside transactions (sent through a client of their own) are not recorded.
 */
export function traceQueries<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'query' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const store = requests.getStore();
        const statement = store ? statementOf(args) : null;
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!store || !statement || !(result instanceof Promise)) return result;
        const startMs = performance.now() - store.began;
        const traced = { ...statement, startMs, endMs: startMs };
        store.statements.push(traced);
        return result.finally(() => {
          traced.endMs = performance.now() - store.began;
        });
      };
    },
  });
}

/** Writes every request's traced statements to `file` as it ends. */
export function registerQueryTrace(app: FastifyInstance, file: string) {
  const stores = new WeakMap<object, Store>();
  app.addHook('onRequest', (request, _reply, done) => {
    const store: Store = { began: performance.now(), statements: [] };
    stores.set(request, store);
    requests.run(store, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const store = stores.get(request);
    if (store) {
      const line: TracedRequest = {
        requestId: String(request.id),
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        statements: store.statements,
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    done();
  });
}
