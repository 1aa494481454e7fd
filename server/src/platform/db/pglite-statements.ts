import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Statements kept prepared at once; the least recently used is closed beyond this. */
const KEPT = 256;

/** PostgreSQL's "cached plan must not change result type": a table a kept statement reads has changed shape. */
const PLAN_CHANGED = '0A000';

interface Kept {
  name: string;
  /** The type of each parameter, as PostgreSQL inferred it when it prepared the statement. */
  paramTypes: number[];
}

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

const concat = (parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
};

/**
 * The embedded database with its statements prepared once: PGlite's own `query` parses, plans and describes every
 * statement each time it runs, in five calls into its WebAssembly build of PostgreSQL on the server's main thread.
 * Here a statement outside a transaction is prepared under a name the first time its text is seen; later runs
 * bind, describe and execute it in one call, so PostgreSQL's plan cache applies as it does for the named
 * statements node-postgres uses on a PostgreSQL server. Queries inside transactions go through PGlite unchanged.
 */
export function withKeptStatements(client: PGlite): PGlite {
  const kept = new Map<string, Kept>();
  let next = 0;
  const original: Query = client.query.bind(client);

  const exchange = (parts: Uint8Array[]) => client.execProtocolStream(concat(parts), { syncToFs: false });

  async function prepare(text: string): Promise<Kept> {
    const name = `kept_${(next++).toString(36)}`;
    const replies = await exchange([
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ]);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(replies) };
    kept.set(text, statement);
    if (kept.size > KEPT) await forget(kept.keys().next().value!);
    return statement;
  }

  async function forget(text: string) {
    const statement = kept.get(text);
    if (!statement) return;
    kept.delete(text);
    await exchange([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]);
  }

  async function run<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    let statement = kept.get(text);
    if (statement) {
      kept.delete(text);
      kept.set(text, statement);
    } else statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const replies = await exchange([
        protocol.serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]);
      return parse.parseResults(replies, ...parsing(options))[0] as Results<T>;
    } catch (error) {
      if ((error as { code?: string }).code === PLAN_CHANGED) await forget(text);
      throw error;
    }
  }

  /**
   * The parsers a query's results are read with: the client's, with the query's own over them. PGlite copies the
   * client's 318 parsers into a new object for every query that brings its own (each of Drizzle's does), about
   * 60 µs; here the query's few are laid over the client's as a prototype, once per query's options.
   */
  const layered = new WeakMap<object, Record<number, unknown>>();
  function parsing(options: QueryOptions | undefined): [typeof client.parsers, QueryOptions | undefined] {
    const own = options?.parsers;
    if (!own) return [client.parsers, options];
    let parsers = layered.get(own);
    if (!parsers) layered.set(own, (parsers = Object.assign(Object.create(client.parsers) as object, own)));
    return [parsers as typeof client.parsers, { ...options, parsers: undefined }];
  }

  const query: Query = async (text, params = [], options) => {
    // Large objects and COPY go through PGlite, which handles their blobs.
    if (options?.blob || options?.paramTypes) return original(text, params, options);
    await client._checkReady();
    try {
      const result = await client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(() => run<never>(text, params, options)),
      );
      await client.syncToFs();
      return result;
    } catch (error) {
      // A table changed shape under a kept statement (a migration at run time): run it afresh, kept anew next time.
      if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
      return original(text, params, options);
    }
  };

  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
