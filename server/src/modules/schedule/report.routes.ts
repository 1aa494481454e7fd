import { SCHEDULE_API, ZScheduleStatistics, ZScheduleStudent, type TScheduleStudent } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { sendXlsx, type SheetColumn } from '../../platform/xlsx.js';
import { EXPORT_TEXTS } from './export.messages.js';
import { readReport, readStatistics } from './report.service.js';

const params = z.object({ id: z.uuid() });
const B = SCHEDULE_API.base;

/** A schedule's students for its teachers (progress, time, last activity, task results), as a list or xlsx, and class statistics. */
export const scheduleReportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'schedule.teach' as const };
  const tags = ['schedule'];

  app.get(
    `${B}/:id/students`,
    {
      config,
      schema: {
        tags,
        summary: 'The schedule’s students: progress per section, time spent, last activity and task results',
        params,
        response: envelopeOf(z.array(ZScheduleStudent)),
      },
    },
    async (request) => ok((await readReport(ctx, requireAuth(request), request.params.id)).students),
  );
  app.get(
    `${B}/:id/students/export`,
    { config, schema: { tags, summary: 'The schedule’s students as xlsx, in the request language', params } },
    async (request, reply) => {
      const { students, tasks } = await readReport(ctx, requireAuth(request), request.params.id);
      const texts = EXPORT_TEXTS[requestLanguage(request)];
      const columns: SheetColumn<TScheduleStudent>[] = [
        { header: texts.username, value: (r) => r.username },
        { header: texts.name, value: (r) => r.name },
        { header: texts.className, value: (r) => r.className },
        { header: texts.schoolNumber, value: (r) => r.schoolNumber },
        { header: texts.progress, value: (r) => r.progress },
        { header: texts.completedSections, value: (r) => r.completedSections },
        { header: texts.minutes, value: (r) => Math.round(r.secondsSpent / 60) },
        { header: texts.lastActive, width: 24, value: (r) => r.lastActiveAt },
        ...tasks.map((t, i) => ({
          header: t.title,
          value: (r: TScheduleStudent) => {
            const result = r.tasks[i]!;
            return result.status === 'todo' ? texts.todo : (result.score ?? texts.pending);
          },
        })),
      ];
      return sendXlsx(reply, 'schedule-students.xlsx', texts.sheet, columns, [students]);
    },
  );
  app.get(
    `${B}/:id/statistics`,
    {
      config,
      schema: {
        tags,
        summary: 'Class statistics: completion per task, score distribution, progress per student',
        params,
        response: envelopeOf(ZScheduleStatistics),
      },
    },
    async (request) => ok(await readStatistics(ctx, requireAuth(request), request.params.id)),
  );
};
