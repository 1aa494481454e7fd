import { CUSTOMER_CODE, EDU_STAGES, LIMITS, ROLES, USERNAME, type Language } from '@aiedu/contracts';
import { or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { whileConnected } from '../../platform/archive/worker.js';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { customerCodeIs, customers, schools, users } from '../../platform/db/schema/index.js';
import { isAdminSetPassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import { reasonText, type ImportReason } from './import.messages.js';
import {
  readRows,
  sheetRecords,
  sheetTemplate,
  type Field,
  type ImportProblem,
  type Row,
} from './people-import.service.js';
import { assertQuota } from './quota.service.js';

export const ORGANIZATION_KINDS = ['customers', 'schools'] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

/** The template's columns of each kind, in order, the required ones, and a sample row. */
const COLUMNS: Record<OrganizationKind, { fields: Field[]; required: Field[]; sample: string[] }> = {
  customers: {
    fields: ['customerCode', 'customerName', 'adminUsername', 'adminName', 'password', 'remark'],
    required: ['customerCode', 'customerName', 'adminUsername', 'adminName', 'password'],
    sample: ['district02', '第二教育局', 'admin', '李老师', 'Start2026', ''],
  },
  schools: {
    fields: ['customerCode', 'schoolName', 'eduStages', 'notes'],
    required: ['customerCode', 'schoolName', 'eduStages'],
    sample: ['district02', '第二实验小学', 'primary', ''],
  },
};

export function organizationTemplate(language: Language, kind: OrganizationKind) {
  return sheetTemplate(language, kind === 'customers' ? 'Customers' : 'Schools', COLUMNS[kind]);
}

/** Stages as a cell holds them: keys (`primary, junior`), separated by commas of either width or spaces. */
const stagesOf = (cell: string) =>
  cell
    .split(/[,，、\s]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** The customers the codes name (without regard to case), keyed by the lower-case code. */
async function customersByCode(db: Db, codes: string[]) {
  const found = new Map<string, { id: string }>();
  for (let i = 0; i < codes.length; i += 500) {
    const batch = codes.slice(i, i + 500);
    if (batch.length === 0) continue;
    const rows = await db
      .select({ id: customers.id, code: customers.code })
      .from(customers)
      .where(or(...batch.map((code) => customerCodeIs(code))));
    rows.forEach((r) => found.set(r.code.toLowerCase(), { id: r.id }));
  }
  return found;
}

/** Every bad row with its number and reason; the good rows in file order. */
async function check(db: Db, kind: OrganizationKind, language: Language, rows: Row[]) {
  const problems: ImportProblem[] = [];
  const flag = (row: number, reason: ImportReason) =>
    problems.push({ row, reason, message: reasonText(language, reason) });
  const known = await customersByCode(db, [...new Set(rows.map((r) => r.customerCode.toLowerCase()))]);
  const key = (r: Row) =>
    kind === 'customers' ? r.customerCode.toLowerCase() : `${r.customerCode.toLowerCase()}\n${r.schoolName}`;
  const seen = new Map<string, number>();
  rows.forEach((r) => seen.set(key(r), (seen.get(key(r)) ?? 0) + 1));
  const good: Row[] = [];
  for (const r of rows) {
    const before = problems.length;
    if ((seen.get(key(r)) ?? 0) > 1) flag(r.row, 'duplicateInFile');
    if (kind === 'customers') {
      if (!CUSTOMER_CODE.test(r.customerCode)) flag(r.row, 'badCustomerCode');
      else if (known.has(r.customerCode.toLowerCase())) flag(r.row, 'customerCodeTaken');
      if (!r.customerName || r.customerName.length > 50) flag(r.row, 'badName');
      if (!USERNAME.test(r.adminUsername) || r.adminUsername.length < 3 || r.adminUsername.length > 30)
        flag(r.row, 'badUsername');
      if (!r.adminName || r.adminName.length > LIMITS.realName) flag(r.row, 'badName');
      if (!isAdminSetPassword(r.password)) flag(r.row, 'badPassword');
      if (r.remark.length > LIMITS.notes) flag(r.row, 'badNotes');
    } else {
      if (!known.has(r.customerCode.toLowerCase())) flag(r.row, 'unknownCustomer');
      if (!r.schoolName || r.schoolName.length > 50) flag(r.row, 'badName');
      const stages = stagesOf(r.eduStages);
      if (stages.length === 0 || !stages.every((s) => (EDU_STAGES as readonly string[]).includes(s)))
        flag(r.row, 'badStages');
      if (r.notes.length > LIMITS.notes) flag(r.row, 'badNotes');
    }
    if (problems.length === before) good.push(r);
  }
  problems.sort((a, b) => a.row - b.row);
  return { good, problems, known };
}

/**
 * Super administrators' bulk import of customers (each with its first administrator, who must change the password)
 * or of schools (into customers named by code), from an xlsx or CSV file read in the capped worker: a dry run lists
 * every bad row; a real run imports all rows or none, schools within the quota of each customer and those above it.
 */
export async function importOrganizations(
  ctx: AppContext,
  request: FastifyRequest,
  input: { kind: OrganizationKind; dryRun: boolean; file: Buffer; fileName: string; language: Language },
) {
  const { kind, language } = input;
  const sheet = await whileConnected(request, (signal) => readRows(input.file, input.fileName, signal));
  const rows = sheetRecords(sheet, COLUMNS[kind].required);
  if (!rows) {
    return {
      total: 0,
      imported: 0,
      problems: [{ row: 1, reason: 'missingColumns', message: reasonText(language, 'missingColumns') }],
    };
  }
  const { good, problems, known } = await check(ctx.db, kind, language, rows);
  if (input.dryRun || problems.length > 0) return { total: rows.length, imported: 0, problems };
  const hashes = new Map<string, string>();
  if (kind === 'customers') {
    for (const password of new Set(good.map((r) => r.password))) hashes.set(password, await hashPassword(password));
  }
  const createdBy = requireAuth(request).userId;
  await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (kind === 'customers') {
      for (const r of good) {
        const [customer] = await tx
          .insert(customers)
          .values({ code: r.customerCode, name: r.customerName, remark: r.remark, createdBy })
          .returning({ id: customers.id });
        await tx.insert(users).values({
          customerId: customer!.id,
          username: r.adminUsername,
          realName: r.adminName,
          passwordHash: hashes.get(r.password)!,
          roles: [ROLES.customerAdmin],
          mustChangePassword: true,
        });
      }
    } else {
      const byCustomer = new Map<string, Row[]>();
      good.forEach((r) => {
        const id = known.get(r.customerCode.toLowerCase())!.id;
        byCustomer.set(id, [...(byCustomer.get(id) ?? []), r]);
      });
      for (const [customerId, list] of byCustomer) {
        await assertQuota(db, customerId, 'school', list.length);
        await tx
          .insert(schools)
          .values(
            list.map((r) => ({ customerId, name: r.schoolName, eduStages: stagesOf(r.eduStages), notes: r.notes })),
          );
      }
    }
    await writeAudit(tx, request, {
      module: kind === 'customers' ? 'customer' : 'school',
      operation: 'import',
      params: { fileName: input.fileName, rows: good.length },
    });
  });
  return { total: rows.length, imported: good.length, problems: [] };
}
