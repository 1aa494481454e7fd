import type { TCertNumberRule } from '@aiedu/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { certificateCounters } from '../../platform/db/schema/index.js';

/**
 * Certificate numbers: the rule's letters (0–10), the issue date as yyyyMMdd, then a sequence of at least `digits`
 * digits, per stem (letters and date) starting at 1 each day: `AB20261128` `0001`. Letters and the eight date digits
 * make a stem unambiguous, and one counter per stem hands each sequence out once, so numbers are unique across rules
 * of any width.
 */

/** Today's date (yyyy-MM-dd) in a time zone. */
export function todayIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The stem of a rule's numbers on a date (yyyy-MM-dd). */
export const numberStem = (rule: Pick<TCertNumberRule, 'prefix'>, issueDate: string) =>
  `${rule.prefix.toUpperCase()}${issueDate.replaceAll('-', '')}`;

export const formatNumber = (stem: string, sequence: number, digits: number) =>
  `${stem}${String(sequence).padStart(digits, '0')}`;

/**
 * Hands out `count` consecutive numbers of a rule for a date. Call inside the transaction that stores them: the
 * counter row stays locked until it commits, so concurrent issuances queue on it and a rollback gives the numbers
 * back (no gap).
 */
export async function allocateNumbers(
  tx: Db,
  rule: Pick<TCertNumberRule, 'prefix' | 'digits'>,
  issueDate: string,
  count: number,
): Promise<string[]> {
  if (count <= 0) return [];
  const stem = numberStem(rule, issueDate);
  const [row] = await tx
    .insert(certificateCounters)
    .values({ stem, last: count })
    .onConflictDoUpdate({
      target: certificateCounters.stem,
      set: { last: sql`${certificateCounters.last} + ${count}` },
    })
    .returning({ last: certificateCounters.last });
  const first = row!.last - count + 1;
  return Array.from({ length: count }, (_, i) => formatNumber(stem, first + i, rule.digits));
}

/** The number the next certificate of a rule would get on a date, without handing it out. */
export async function peekNextNumber(
  db: Db,
  rule: Pick<TCertNumberRule, 'prefix' | 'digits'>,
  issueDate: string,
): Promise<string> {
  const stem = numberStem(rule, issueDate);
  const [row] = await db
    .select({ last: certificateCounters.last })
    .from(certificateCounters)
    .where(eq(certificateCounters.stem, stem));
  return formatNumber(stem, (row?.last ?? 0) + 1, rule.digits);
}
