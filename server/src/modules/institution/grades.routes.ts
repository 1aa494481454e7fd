import { EDU_STAGES, STAGE_YEARS, ZSchoolStage, type Language } from '@aiedu/contracts';
import { and, asc, count, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { classes, schools } from '../../platform/db/schema/index.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';

const ZSchoolInfo = z.object({
  id: z.string(),
  customerId: z.string(),
  name: z.string(),
  eduStages: z.array(z.string()),
  enabled: z.boolean(),
});

/** The stages' names, as the web app names them. */
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

const ZGrade = z.object({ eduStage: z.string(), grade: z.number().int(), classCount: z.number().int() });

/** The grades (education stage + grade) of the caller's school or customer, fetched after an organisation admin signs in. */
export const gradeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/v1/admin_organize/grades',
    {
      config: { permission: 'class.manage' },
      schema: {
        tags: ['institution'],
        summary: 'Grades with their class counts',
        response: envelopeOf(z.array(ZGrade)),
      },
    },
    async (request) => {
      const scope = await callerScope(ctx.db, requireAuth(request));
      const rows = await ctx.db
        .select({ eduStage: classes.eduStage, grade: classes.grade, classCount: count() })
        .from(classes)
        .where(and(scopeWhere(scope, classes), inArray(classes.classStatus, ['current'])))
        .groupBy(classes.eduStage, classes.grade)
        .orderBy(classes.eduStage, classes.grade);
      return ok(rows);
    },
  );
  app.get(
    '/api/v1/admin_organize/school_info',
    {
      config: { permission: 'class.manage' },
      schema: {
        tags: ['institution'],
        summary: 'The schools the caller administers (school staff: their own), for choosing one in forms',
        response: envelopeOf(z.array(ZSchoolInfo)),
      },
    },
    async (request) => {
      const scope = await callerScope(ctx.db, requireAuth(request));
      const rows = await ctx.db
        .select({
          id: schools.id,
          customerId: schools.customerId,
          name: schools.name,
          eduStages: schools.eduStages,
          enabled: schools.enabled,
        })
        .from(schools)
        .where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }))
        .orderBy(asc(schools.name))
        .limit(500);
      return ok(rows);
    },
  );
  app.get(
    '/api/v1/school_stage',
    {
      config: { permission: 'school.edit' },
      schema: {
        tags: ['institution'],
        summary:
          'The education stages schools and classes are built on (fixed: their years drive grades and graduation), named in the request language, with the schools of the caller’s scope that teach each',
        response: envelopeOf(z.array(ZSchoolStage)),
      },
    },
    async (request) => {
      const scope = await callerScope(ctx.db, requireAuth(request));
      const stage = sql<string>`unnest(${schools.eduStages})`;
      const counted = await ctx.db
        .select({ key: stage, schools: count() })
        .from(schools)
        .where(scopeWhere(scope, { customerId: schools.customerId, schoolId: schools.id }))
        .groupBy(stage);
      const names = STAGE_NAMES[requestLanguage(request)];
      return ok(
        EDU_STAGES.map((key) => ({
          key,
          name: names[key],
          years: STAGE_YEARS[key],
          schools: counted.find((c) => c.key === key)?.schools ?? 0,
        })),
      );
    },
  );
};
