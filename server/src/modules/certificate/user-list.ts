import { CERT_LIMITS, type Language, type TCertUserListResult } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import { whileConnected } from '../../platform/archive/worker.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { readRows, sheetRecords, sheetTemplate } from '../institution/people-import.service.js';
import { studentsByUsername } from './candidates.js';

/** A list of students as an xlsx sheet (username, real name): the template, and the dry run that reads one. */

type RowError = 'empty' | 'duplicate' | 'unknown' | 'outOfScope';

const TEXT: Record<Language, Record<RowError, string>> = {
  en: {
    empty: 'The username is empty',
    duplicate: 'This student is already in an earlier row',
    unknown: 'No account has this username',
    outOfScope: 'This account is not one of your students',
  },
  zh_CHS: {
    empty: '用户名为空',
    duplicate: '该学生已在前面的行中出现',
    unknown: '没有使用该用户名的账号',
    outOfScope: '该账号不是你可颁发证书的学生',
  },
  zh_CHT: {
    empty: '使用者名稱為空',
    duplicate: '該學生已在前面的列中出現',
    unknown: '沒有使用該使用者名稱的帳號',
    outOfScope: '該帳號不是你可頒發證書的學生',
  },
  ja: {
    empty: 'ユーザー名が空です',
    duplicate: 'この学生はすでに前の行にあります',
    unknown: 'このユーザー名のアカウントはありません',
    outOfScope: 'このアカウントは証明書を発行できる学生ではありません',
  },
};

export function userListTemplate(language: Language): Promise<Buffer> {
  return sheetTemplate(language, 'Students', { fields: ['username', 'realName'], sample: ['student31', '张小明'] });
}

/** Reads an uploaded list: each row found among the caller's students, or refused with the reason. */
export async function readUserList(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  file: { bytes: Buffer; filename: string },
  language: Language,
): Promise<TCertUserListResult> {
  const sheet = await whileConnected(request, (signal) => readRows(file.bytes, file.filename, signal));
  const records = sheetRecords(sheet, ['username']);
  if (!records) throw new AppError('CERT_LIST_INVALID', { reason: 'missingColumns' });
  if (records.length === 0 || records.length > CERT_LIMITS.listRows) {
    throw new AppError('CERT_LIST_INVALID', { rows: records.length, max: CERT_LIMITS.listRows });
  }
  const usernames = [...new Set(records.map((r) => r.username.trim()).filter(Boolean))];
  const { inScope, known } = await studentsByUsername(ctx.db, auth, usernames);
  const seen = new Set<string>();
  const text = TEXT[language];
  const rows = records.map((r) => {
    const username = r.username.trim();
    let error: RowError | null = null;
    if (!username) error = 'empty';
    else if (seen.has(username)) error = 'duplicate';
    else if (!inScope.has(username)) error = known.has(username) ? 'outOfScope' : 'unknown';
    seen.add(username);
    return {
      row: r.row,
      username,
      realName: r.realName.trim(),
      user: error ? null : inScope.get(username)!,
      error: error ? text[error] : null,
    };
  });
  const valid = rows.filter((r) => r.user).length;
  return { rows, valid, invalid: rows.length - valid };
}
