import type { Db } from './client.js';

let named = 0;

/**
 * A statement of a hot read built once per database instead of on every request: Drizzle turns a query into SQL
 * each time it runs it, which costs a read of a wide table as much as the database's own work on a small one.
 * `build` is given the database and a statement name unique in this process (node-postgres then keeps it prepared
 * on each connection, as PGlite's kept statements do) and answers `db.select()….prepare(name)` with
 * `sql.placeholder`s for what changes.
 */
export function preparedStatement<T>(build: (db: Db, name: string) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  const name = `hot_${(named++).toString(36)}`;
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) built.set(db, (statement = build(db, name)));
    return statement;
  };
}

/**
 * Statements of one read whose shape varies (which filters are given, the sort): one built per shape (`key`) and
 * database, each with a name of its own, the values given as placeholders when it runs.
 */
export function preparedStatements<T>(build: (db: Db, name: string, key: string) => T): (db: Db, key: string) => T {
  const built = new WeakMap<Db, Map<string, T>>();
  const prefix = `hot_${(named++).toString(36)}_`;
  let shapes = 0;
  return (db, key) => {
    let byKey = built.get(db);
    if (!byKey) built.set(db, (byKey = new Map()));
    let statement = byKey.get(key);
    if (statement === undefined) byKey.set(key, (statement = build(db, `${prefix}${(shapes++).toString(36)}`, key)));
    return statement;
  };
}
