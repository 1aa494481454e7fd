import { ZSchoolStage } from '@aiedu/contracts';
import { and, asc, count, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { classes, schools } from '../../platform/db/schema/index.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { callerScope, scopeWhere } from '../../platform/tenancy.js';
import { schoolStages } from './school-stage.service.js';

const ZSchoolInfo = z.object({
  id: z.string(),
  customerId: z.string(),
  name: z.string(),
  eduStages: z.array(z.string()),
  enabled: z.boolean(),
});

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
      return ok(await schoolStages(ctx, requireAuth(request), requestLanguage(request)));
    },
  );
};
