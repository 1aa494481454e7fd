import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withKeptStatements } from './pglite-statements.js';

/** The embedded database's statement cache; PostgreSQL servers prepare through node-postgres instead. */
describe.skipIf(process.env.TEST_DB === 'postgres')('kept statements on the embedded database', () => {
  let raw: PGlite;
  let client: PGlite;

  beforeAll(async () => {
    raw = await PGlite.create('memory://');
    client = withKeptStatements(raw);
    await raw.exec(`create table pupils (
      id int primary key, name text not null, born date, joined timestamptz, tags text[], extra jsonb, active boolean)`);
  });
  afterAll(() => raw.close());

  const kept = async () =>
    (await raw.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where name like 'kept\\_%'`))
      .rows[0]!.n;

  it('prepares a statement once and runs it with each set of parameters, types both ways', async () => {
    const insert = 'insert into pupils values ($1, $2, $3, $4, $5, $6, $7) returning id';
    const before = await kept();
    for (let i = 1; i <= 5; i++) {
      const result = await client.query(insert, [
        i,
        `pupil ${i}`,
        i % 2 ? '2014-03-0' + i : null,
        new Date(Date.UTC(2026, 8, i, 8)),
        ['maths', `group ${i}`],
        { seat: i, notes: null },
        i % 2 === 0,
      ]);
      expect(result.rows).toEqual([{ id: i }]);
      expect(result.affectedRows).toBe(1);
    }
    expect(await kept()).toBe(before + 1);

    const { rows, fields } = await client.query<Record<string, unknown>>('select * from pupils where id = $1', [3]);
    expect(fields.map((field) => field.name)).toEqual(['id', 'name', 'born', 'joined', 'tags', 'extra', 'active']);
    expect(rows).toEqual([
      {
        id: 3,
        name: 'pupil 3',
        born: new Date('2014-03-03T00:00:00.000Z'),
        joined: new Date(Date.UTC(2026, 8, 3, 8)),
        tags: ['maths', 'group 3'],
        extra: { seat: 3, notes: null },
        active: false,
      },
    ]);
    // Drizzle asks for arrays of values and its own parsers; both are honoured, the client's reading the rest, each
    // time the same options come again.
    const drizzles = { rowMode: 'array' as const, parsers: { 1184: (value: string) => `as written: ${value}` } };
    for (let again = 0; again < 2; again++) {
      const asArrays = await client.query('select id, joined, born, extra from pupils where id = $1', [3], drizzles);
      expect(asArrays.rows).toEqual([
        [3, 'as written: 2026-09-03 08:00:00+00', new Date('2014-03-03T00:00:00.000Z'), { seat: 3, notes: null }],
      ]);
    }
    // Other options bring their own; the client's parsers are never changed by them.
    const others = await client.query('select joined from pupils where id = $1', [3], {
      parsers: { 1184: (value: string) => value.length },
    });
    expect(others.rows).toEqual([{ joined: 22 }]);
    expect((await client.query('select joined from pupils where id = $1', [3])).rows).toEqual([
      { joined: new Date(Date.UTC(2026, 8, 3, 8)) },
    ]);
  });

  it('answers errors as PGlite does, and keeps nothing that failed to prepare', async () => {
    const before = await kept();
    await expect(client.query('selec 1')).rejects.toMatchObject({ code: '42601' });
    await expect(client.query('insert into pupils (id, name) values ($1, $2)', [1, 'again'])).rejects.toMatchObject({
      code: '23505',
    });
    // The statement that failed to run stays kept and usable.
    const { affectedRows } = await client.query('insert into pupils (id, name) values ($1, $2)', [9, 'nine']);
    expect(affectedRows).toBe(1);
    expect(await kept()).toBe(before + 1);
  });

  it('keeps at most 256 statements, closing the least recently used', async () => {
    for (let i = 0; i < 300; i++) await client.query(`select $1::int + ${i} as n`, [1]);
    expect(await kept()).toBe(256);
    expect((await client.query<{ n: number }>('select $1::int + 299 as n', [1])).rows).toEqual([{ n: 300 }]);
  });

  it('runs a statement afresh when its table changed shape', async () => {
    const text = 'select * from pupils where id = $1';
    expect(Object.keys((await client.query<object>(text, [9])).rows[0]!)).not.toContain('house');
    await raw.exec(`alter table pupils add column house text not null default 'oak'`);
    expect((await client.query<{ house: string }>(text, [9])).rows[0]!.house).toBe('oak');
    expect((await client.query<{ house: string }>(text, [9])).rows[0]!.house).toBe('oak');
  });

  it('waits for an open transaction instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const inserted = new Promise<void>((resolve) => (begun = resolve));
    const order: string[] = [];
    const transaction = raw.transaction(async (tx) => {
      await tx.query(`insert into pupils (id, name) values (100, 'in a transaction')`);
      begun();
      await held;
      await tx.rollback();
      order.push('rolled back');
    });
    await inserted;
    // Inside the transaction this count would be 1, and it would answer before the rollback.
    const outside = client
      .query<{ n: number }>('select count(*)::int as n from pupils where id = $1', [100])
      .then((result) => {
        order.push('outside');
        return result.rows[0]!.n;
      });
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    release();
    await transaction;
    expect(await outside).toBe(0);
    expect(order).toEqual(['rolled back', 'outside']);
  });
});
