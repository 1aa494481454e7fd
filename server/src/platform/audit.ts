import type { FastifyRequest } from 'fastify';
import type { Db } from './db/client.js';
import { eq } from 'drizzle-orm';
import { operationLogs, users } from './db/schema/index.js';

const SECRET_KEY = /pass(word|wd)?|pwd|secret|token|verify_?code|captcha/i;

/** Parameters as logged: secrets replaced, long texts cut, nesting bounded. */
export function maskParams(value: unknown, depth = 0): unknown {
  if (depth > 4) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskParams(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '******' : maskParams(v, depth + 1)]),
    );
  }
  if (typeof value === 'string' && value.length > 500) return `${value.slice(0, 500)}…`;
  return value;
}

export interface AuditEntry {
  module: string;
  operation: string;
  params?: unknown;
  /** The customer the change belongs to; defaults to the operator's. */
  customerId?: string | null;
}

/** Writes one operation log with the caller's identity and address, inside the caller's transaction. */
export async function writeAudit(tx: Db, request: FastifyRequest, entry: AuditEntry) {
  const operatorId = request.auth?.userId;
  const [operator] = operatorId
    ? await tx
        .select({ username: users.username, realName: users.realName })
        .from(users)
        .where(eq(users.id, operatorId))
    : [];
  const operatorName = operator ? `${operator.realName || operator.username} (${operator.username})` : '';
  await tx.insert(operationLogs).values({
    customerId: entry.customerId !== undefined ? entry.customerId : (request.auth?.customerId ?? null),
    operatorId: request.auth?.userId ?? null,
    operatorName,
    module: entry.module,
    operation: entry.operation,
    ip: request.ip,
    params: maskParams(entry.params ?? {}) as object,
  });
}
