import { EDU_STAGES, STAGE_YEARS, type Language, type TSchoolStage } from '@aiedu/contracts';
import { count, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { schools } from '../../platform/db/schema/index.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';

/** The stages' names in each language (the web app's admin texts name them alike). */
const STAGE_NAMES: Record<Language, Record<(typeof EDU_STAGES)[number], string>> = {
  en: {
    primary: 'Primary',
    junior: 'Junior secondary',
    senior: 'Senior secondary',
    vocational: 'Vocational',
    university: 'University',
  },
  zh_CHS: { primary: '小学', junior: '初中', senior: '高中', vocational: '职业学校', university: '大学' },
  zh_CHT: { primary: '小學', junior: '國中', senior: '高中', vocational: '職業學校', university: '大學' },
  ja: { primary: '小学校', junior: '中学校', senior: '高等学校', vocational: '職業学校', university: '大学' },
};

/**
 * The education stages (fixed: their years drive grades, upgrades and graduation), named in `language`, each with the
 * number of schools of the caller's scope that teach it.
 */
export async function schoolStages(ctx: AppContext, auth: AuthContext, language: Language): Promise<TSchoolStage[]> {
  const scope = await callerScope(ctx.db, auth);
  const stage = sql<string>`unnest(${schools.eduStages})`;
  const counted = await ctx.db
    .select({ key: stage, schools: count() })
    .from(schools)
    .where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }))
    .groupBy(stage);
  const names = STAGE_NAMES[language];
  return EDU_STAGES.map((key) => ({
    key,
    name: names[key],
    years: STAGE_YEARS[key],
    schools: counted.find((c) => c.key === key)?.schools ?? 0,
  }));
}
