import {
  BATCH_PASSWORD,
  BATCH_USERNAME,
  GROUP_LIMITS,
  PHONE,
  type BatchRowReason,
  type Language,
  type TBatchRegisterResult,
  type TBatchRowError,
} from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { whileConnected } from '../../platform/archive/worker.js';
import { writeAudit } from '../../platform/audit.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { groupMembers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { readPassword } from '../../platform/password-policy.js';
import { readRows, sheetRecords, sheetTemplate } from '../institution/people-import.service.js';
import { teacherSchool } from '../institution/roster.service.js';
import { createStudentAccounts, hashInitialPasswords, takenAccounts } from '../institution/student-accounts.service.js';
import type { GroupAccess } from './group-access.js';

/** A row as sent: `row` is its number as the caller counts (its position, or the sheet's row number). */
export interface BatchRow {
  row: number;
  username: string;
  phone: string;
  password: string;
}

/** Every bad row: format, duplicates within the batch, usernames and phones the customer's accounts hold. */
async function checkRows(db: Db, customerId: string, rows: BatchRow[]) {
  const errors: TBatchRowError[] = [];
  const flag = (r: BatchRow, field: TBatchRowError['field'], reason: BatchRowReason) =>
    errors.push({ row: r.row, username: r.username, field, reason });
  const tally = (values: string[]) => {
    const seen = new Map<string, number>();
    for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
    return seen;
  };
  const names = tally(rows.map((r) => r.username));
  const phones = tally(rows.map((r) => r.phone));
  const taken = await takenAccounts(
    db,
    customerId,
    rows.filter((r) => BATCH_USERNAME.test(r.username)).map((r) => r.username),
    rows.filter((r) => PHONE.test(r.phone)).map((r) => r.phone),
  );
  const plains = new Map<number, string>();
  for (const r of rows) {
    if (!BATCH_USERNAME.test(r.username)) flag(r, 'username', 'usernameInvalid');
    else if (names.get(r.username)! > 1) flag(r, 'username', 'usernameDuplicate');
    else if (taken.usernames.has(r.username)) flag(r, 'username', 'usernameTaken');
    if (!PHONE.test(r.phone)) flag(r, 'phone', 'phoneInvalid');
    else if (phones.get(r.phone)! > 1) flag(r, 'phone', 'phoneDuplicate');
    else if (taken.phones.has(r.phone)) flag(r, 'phone', 'phoneTaken');
    const plain = readPassword(r.password);
    if (plain === null || !BATCH_PASSWORD.test(plain)) flag(r, 'password', 'passwordInvalid');
    else plains.set(r.row, plain);
  }
  return { errors, plains };
}

/**
 * Registers student accounts of the owner's customer and school and adds them to the group (spec 6). The owner
 * must be a teacher of a customer. A dry run answers every bad row; a real run with any bad row answers 6007 with
 * the same rows and creates nothing; otherwise every account is created in one transaction, within the customer's
 * student quota (5004).
 */
export async function batchRegister(
  ctx: AppContext,
  request: FastifyRequest,
  access: GroupAccess,
  input: { rows: BatchRow[]; dryRun: boolean },
): Promise<TBatchRegisterResult> {
  const school = await teacherSchool(ctx.db, access.group.ownerId);
  if (!school) throw new AppError('NO_EDIT_PERMISSION');
  if (input.rows.length > GROUP_LIMITS.batchRows) {
    throw new AppError('GROUP_BATCH_TOO_MANY', { max: GROUP_LIMITS.batchRows, rows: input.rows.length });
  }
  const rows = input.rows.map((r) => ({ ...r, username: r.username.trim(), phone: r.phone.trim() }));
  const { errors, plains } = await checkRows(ctx.db, school.customerId, rows);
  const result = { dryRun: input.dryRun, total: rows.length, created: 0, errors };
  if (input.dryRun) return result;
  if (errors.length) throw new AppError('GROUP_BATCH_ROWS_INVALID', { errors });
  const hashes = await hashInitialPasswords([...plains.values()]);
  await ctx.db.transaction(async (tx) => {
    const ids = await createStudentAccounts(
      tx as unknown as Db,
      school,
      rows.map((r) => ({ username: r.username, phone: r.phone, passwordHash: hashes.get(plains.get(r.row)!)! })),
    );
    await tx.insert(groupMembers).values(
      [...ids.values()].map((userId) => ({
        groupId: access.group.id,
        userId,
        customerId: school.customerId,
        joinedVia: 'batch' as const,
      })),
    );
    await writeAudit(tx, request, {
      module: 'group',
      operation: 'batchRegister',
      params: { id: access.group.id, usernames: rows.map((r) => r.username) },
      customerId: school.customerId,
    });
  });
  return { ...result, created: rows.length };
}

/** The rows of an xlsx file under the template's headers (in any language), numbered as the sheet numbers them. */
export async function rowsOfSheet(request: FastifyRequest, file: Buffer, fileName: string): Promise<BatchRow[]> {
  const sheet = await whileConnected(request, (signal) => readRows(file, fileName, signal));
  const records = sheetRecords(sheet, ['username', 'phone', 'password']);
  if (!records) throw new AppError('BAD_REQUEST', { reason: 'missingColumns' });
  if (records.length > GROUP_LIMITS.batchRows) {
    throw new AppError('GROUP_BATCH_TOO_MANY', { max: GROUP_LIMITS.batchRows, rows: records.length });
  }
  // The sheet holds the password as typed; the rows carry it as every payload does, base64 of its UTF-8 text.
  return records.map((r) => ({
    row: r.row,
    username: r.username,
    phone: r.phone,
    password: Buffer.from(r.password, 'utf8').toString('base64'),
  }));
}

/** The batch registration template: username, phone and password headers in the caller's language. */
export function batchTemplate(language: Language): Promise<Buffer> {
  return sheetTemplate(language, 'Members', {
    fields: ['username', 'phone', 'password'],
    sample: ['student2026', '13800000000', 'Start2026'],
  });
}
