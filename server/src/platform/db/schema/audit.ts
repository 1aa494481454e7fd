import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { customers } from './institutions.js';

/**
 * Operation logs: who changed what, from where, with which parameters (secrets masked). Append-only: the
 * database itself refuses updates and deletes (see the migration's trigger).
 */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id),
    operatorId: uuid('operator_id'),
    operatorName: text('operator_name').notNull().default(''),
    module: text('module').notNull(),
    operation: text('operation').notNull(),
    ip: text('ip').notNull().default(''),
    params: jsonb('params').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('operation_logs_customer_time_idx').on(t.customerId, t.createdAt),
    index('operation_logs_operator_idx').on(t.operatorId),
  ],
);
