import { LANGUAGES, LIMITS, PHONE, ROLES, USERNAME, type Language } from '@aiedu/contracts';
import { and, count, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { readSheetRows, type SheetLimits, type SheetRow } from '../../platform/archive/sheet.js';
import { whileConnected } from '../../platform/archive/worker.js';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { classes, customers, schools, students, teachers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { isAdminSetPassword } from '../../platform/password-policy.js';
import { hashPassword } from '../../platform/passwords.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { HEADERS, reasonText, type ImportReason } from './import.messages.js';
import { assertQuota } from './quota.service.js';

export type Field = keyof (typeof HEADERS)['en'];
export type PersonKind = 'teacher' | 'student';
export type Row = Record<Field, string> & { row: number };

/** The template's columns of each kind, in order; the first three of a kind are required. */
const COLUMNS: Record<PersonKind, { fields: Field[]; required: Field[]; sample: string[] }> = {
  student: {
    fields: ['username', 'realName', 'className', 'schoolNumber', 'password'],
    required: ['username', 'realName', 'className'],
    sample: ['student31', '张小明', 'Grade 4 Class 1', '2023031', 'Start2026'],
  },
  teacher: {
    fields: ['username', 'realName', 'phone', 'remark', 'password'],
    required: ['username', 'realName'],
    sample: ['teacher2', '王老师', '13800000000', 'Mathematics', 'Start2026'],
  },
};
export interface ImportProblem {
  row: number;
  reason: ImportReason;
  message: string;
}

/** The template's header names in every language, so a file in any of them is understood. */
const HEADER_FIELDS = new Map<string, Field>(
  LANGUAGES.flatMap((lang) =>
    Object.entries(HEADERS[lang]).map(([field, name]) => [name.toLowerCase(), field as Field]),
  ),
);

export async function buildTemplate(language: Language, kind: PersonKind = 'student'): Promise<Buffer> {
  return sheetTemplate(language, kind === 'student' ? 'Students' : 'Teachers', COLUMNS[kind]);
}

/** An import template: the columns' headers in the language and one sample row. */
export async function sheetTemplate(
  language: Language,
  name: string,
  columns: { fields: Field[]; sample: string[] },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(name);
  const h = HEADERS[language];
  sheet.columns = columns.fields.map((field) => ({ header: h[field], width: 20 }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(columns.sample);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The most people one file may import (a header row and this many rows): a large school's roll. */
export const IMPORT_MAX_ROWS = 10_000;

const MiB = 1024 * 1024;

/**
 * What an import file may take to read. A 10,000-row sheet inflates to a few MB (exceljs writes 2.2 MB of sheet and
 * 0.7 MB of shared strings, each about 10 times its compressed size) and is read within a 24 MiB heap; the limits
 * leave room for formatting and pictures, and refuse a bomb from its central directory, before it is inflated.
 */
const IMPORT_SHEET: Omit<SheetLimits, 'signal'> = {
  maxRows: IMPORT_MAX_ROWS + 1,
  zip: { maxEntries: 500, maxEntryBytes: 64 * MiB, maxTotalBytes: 128 * MiB, maxRatio: 200 },
  heapMb: 128,
  timeoutMs: 30_000,
};

/** The rows of an import file (xlsx or CSV by its name), read in the capped worker. */
export function readRows(file: Buffer, fileName: string, signal: AbortSignal): Promise<SheetRow[]> {
  const format = fileName.toLowerCase().endsWith('.csv') ? 'csv' : 'xlsx';
  return readSheetRows(file, format, { ...IMPORT_SHEET, signal });
}

function parseRows(sheet: SheetRow[], kind: PersonKind): Row[] | null {
  return sheetRecords(sheet, COLUMNS[kind].required);
}

/** The rows under the header by field (headers in any language), or null when a required column is missing. */
export function sheetRecords(sheet: SheetRow[], required: Field[]): Row[] | null {
  const header = sheet.find((line) => line.number === 1)?.cells ?? [];
  const index = new Map<Field, number>();
  header.forEach((name, i) => {
    const field = HEADER_FIELDS.get(name.toLowerCase());
    if (field) index.set(field, i);
  });
  if (!required.every((field) => index.has(field))) return null;
  const get = (line: string[], field: Field) => (index.has(field) ? (line[index.get(field)!] ?? '') : '');
  return sheet
    .filter((line) => line.number > 1 && line.cells.some((c) => c !== ''))
    .map((line) => {
      const row = { row: line.number } as Row;
      for (const field of Object.keys(HEADERS.en) as Field[]) row[field] = get(line.cells, field);
      return row;
    });
}

interface Checked {
  rows: (Row & { classId: string | null })[];
  problems: ImportProblem[];
  school: { id: string; customerId: string };
}

/** Every bad row with its row number and reason: format, duplicates, taken usernames, unknown classes, quota. */
async function check(
  db: Db,
  kind: PersonKind,
  language: Language,
  scopeSchool: { id: string; customerId: string },
  rows: Row[],
): Promise<Checked> {
  const problems: ImportProblem[] = [];
  const flag = (row: number, reason: ImportReason) =>
    problems.push({ row, reason, message: reasonText(language, reason) });
  const classRows = await db
    .select({ id: classes.id, className: classes.className })
    .from(classes)
    .where(and(eq(classes.schoolId, scopeSchool.id), eq(classes.classStatus, 'current')));
  const classByName = new Map(classRows.map((c) => [c.className, c.id]));
  const taken = new Set<string>();
  const names = [...new Set(rows.map((r) => r.username))];
  for (let i = 0; i < names.length; i += 1000) {
    const found = await db
      .select({ username: users.username })
      .from(users)
      .where(and(eq(users.customerId, scopeSchool.customerId), inArray(users.username, names.slice(i, i + 1000))));
    found.forEach((u) => taken.add(u.username));
  }
  const seen = new Map<string, number>();
  rows.forEach((r) => seen.set(r.username, (seen.get(r.username) ?? 0) + 1));
  const good: Checked['rows'] = [];
  for (const r of rows) {
    const before = problems.length;
    if (!USERNAME.test(r.username) || r.username.length < 3 || r.username.length > 30) flag(r.row, 'badUsername');
    else if ((seen.get(r.username) ?? 0) > 1) flag(r.row, 'duplicateInFile');
    else if (taken.has(r.username)) flag(r.row, 'usernameTaken');
    if (!r.realName || r.realName.length > 20) flag(r.row, 'badName');
    if (kind === 'student' && !classByName.has(r.className)) flag(r.row, 'unknownClass');
    if (kind === 'teacher' && r.phone && !PHONE.test(r.phone)) flag(r.row, 'badPhone');
    if (kind === 'teacher' && r.remark.length > LIMITS.remark) flag(r.row, 'badRemark');
    if (!isAdminSetPassword(r.password)) flag(r.row, 'badPassword');
    if (r.schoolNumber && r.schoolNumber.length > 30) flag(r.row, 'badName');
    if (problems.length === before) good.push({ ...r, classId: classByName.get(r.className) ?? null });
  }
  const [customer] = await db.select().from(customers).where(eq(customers.id, scopeSchool.customerId));
  const quota = kind === 'student' ? customer?.studentQuota : customer?.teacherQuota;
  if (customer && quota !== null && quota !== undefined) {
    const table = kind === 'student' ? students : teachers;
    const [{ n: used } = { n: 0 }] = await db
      .select({ n: count() })
      .from(table)
      .where(eq(table.customerId, customer.id));
    const room = Math.max(0, quota - used);
    good.slice(room).forEach((r) => flag(r.row, 'quotaExceeded'));
  }
  problems.sort((a, b) => a.row - b.row);
  return { rows: good, problems, school: scopeSchool };
}

/**
 * Imports teachers or students from an xlsx or CSV file into one school: a dry run reports every bad row; a real run imports
 * all rows or none. Identical initial passwords share one hash: they are administrator-chosen, known to the
 * administrator, and replaced at the first sign-in (mustChangePassword), and hashing each of 10,000 rows alone
 * would take minutes on a small server.
 */
export async function importPeople(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: { kind: PersonKind; schoolId: string; dryRun: boolean; file: Buffer; fileName: string; language: Language },
) {
  const { kind } = input;
  const scope = await callerScope(ctx.db, auth);
  const [school] = await ctx.db
    .select({ id: schools.id, customerId: schools.customerId })
    .from(schools)
    .where(
      and(eq(schools.id, input.schoolId), scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id })),
    );
  if (!school) throw new AppError('NOT_FOUND');
  const sheet = await whileConnected(request, (signal) => readRows(input.file, input.fileName, signal));
  const rows = parseRows(sheet, kind);
  if (!rows) {
    const problem = {
      row: 1,
      reason: 'missingColumns' as const,
      message: reasonText(input.language, 'missingColumns'),
    };
    return { total: 0, imported: 0, problems: [problem] };
  }
  const checked = await check(ctx.db, kind, input.language, school, rows);
  if (input.dryRun || checked.problems.length > 0) {
    return { total: rows.length, imported: 0, problems: checked.problems };
  }
  const hashes = new Map<string, string>();
  for (const password of new Set(checked.rows.map((r) => r.password)))
    hashes.set(password, await hashPassword(password));
  await ctx.db.transaction(async (tx) => {
    await assertQuota(tx as unknown as Db, school.customerId, kind, checked.rows.length);
    for (let i = 0; i < checked.rows.length; i += 500) {
      const batch = checked.rows.slice(i, i + 500);
      const created = await tx
        .insert(users)
        .values(
          batch.map((r) => ({
            customerId: school.customerId,
            schoolId: school.id,
            username: r.username,
            realName: r.realName,
            phone: kind === 'teacher' && r.phone ? r.phone : null,
            passwordHash: hashes.get(r.password)!,
            roles: [kind === 'student' ? ROLES.student : ROLES.teacher],
            mustChangePassword: true,
          })),
        )
        .returning({ id: users.id, username: users.username });
      const byName = new Map(batch.map((r) => [r.username, r]));
      const base = (u: { id: string }) => ({ userId: u.id, customerId: school.customerId, schoolId: school.id });
      if (kind === 'student') {
        await tx.insert(students).values(
          created.map((u) => ({
            ...base(u),
            classId: byName.get(u.username)!.classId,
            schoolNumber: byName.get(u.username)!.schoolNumber || null,
          })),
        );
      } else {
        await tx
          .insert(teachers)
          .values(created.map((u) => ({ ...base(u), remark: byName.get(u.username)!.remark, createdBy: auth.userId })));
      }
    }
    await writeAudit(tx, request, {
      module: kind,
      operation: 'import',
      params: { schoolId: school.id, fileName: input.fileName, rows: checked.rows.length },
      customerId: school.customerId,
    });
  });
  return { total: rows.length, imported: checked.rows.length, problems: [] };
}
