import { fillPlaceholders, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema/index.js';
import { buildCustomer } from '../../test/factories.js';
import { createTestDatabase } from '../../test/test-db.js';
import { loginState, loginStatement } from './auth.repository.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

type Rows = { rows: Record<string, unknown>[] };

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('the sign-in lookup', () => {
  let database: Database;
  let custcode: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const customer = await buildCustomer(database.db);
    custcode = customer.code;
    // A school district's worth of accounts, so that a scan of the customer's accounts would show in the plan.
    await database.db.insert(users).values(
      Array.from({ length: 2000 }, (_, i) => ({
        customerId: customer.id,
        username: `pupil${i}`,
        phone: `139${String(i).padStart(8, '0')}`,
        email: `pupil${i}@school.cn`,
        passwordHash: 'x',
      })),
    );
    await database.db.execute(sql`analyze users`);
  });
  afterAll(() => database.close());

  it.each(['customer', 'single'] as const)(
    'finds an account by username, phone or email with probes of the unique indexes within each space (%s)',
    async (space) => {
      for (const [identifier, username] of [
        ['pupil1234', 'pupil1234'],
        ['13900001234', 'pupil1234'],
        ['pupil1234@school.cn', 'pupil1234'],
      ] as const) {
        const input = {
          space,
          custcode,
          identifier,
          typedKey: 'k\nk',
          ip: '10.0.0.1',
          now: new Date(),
          since: new Date(),
        };
        const state = await loginState(database.db, input);
        expect(state.found?.user.username).toBe(username);
        // The statement the sign-in runs, explained with the same values.
        const { sql: text, params } = loginStatement(database.db, space).getQuery();
        const values = fillPlaceholders(params, {
          ...input,
          now: input.now.toISOString(),
          since: input.since.toISOString(),
        });
        const client = (
          database.db as unknown as { $client: { query: (text: string, params: unknown[]) => Promise<Rows> } }
        ).$client;
        const { rows } = await client.query(`explain (format json) ${text}`, values);
        const plan = (rows[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
        const onUsers = nodesOf(plan).filter(
          (node) => node['Relation Name'] === 'users' || node['Index Name']?.startsWith('users_'),
        );
        expect(onUsers.map((node) => node['Node Type'])).not.toContain('Seq Scan');
        // Each probe is bounded by the space as well as by the name: none walks every phone or email.
        const bounds: Record<string, RegExp> = {
          users_scope_username: /customer_id.*username|username.*customer_id/s,
          users_scope_phone: /coalesce.*phone/is,
          users_scope_email: /coalesce.*email/is,
        };
        const probes = onUsers.filter((node) => node['Index Name']);
        expect(new Set(probes.map((node) => node['Index Name']))).toEqual(new Set(Object.keys(bounds)));
        for (const probe of probes) expect(probe['Index Cond']).toMatch(bounds[probe['Index Name']!]!);
      }
    },
  );
});
