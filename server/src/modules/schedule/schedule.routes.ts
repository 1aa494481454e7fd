import {
  SCHEDULE_API,
  ZCreateScheduleRequest,
  ZKeywordQuery,
  ZPage,
  ZScheduleDetail,
  ZScheduleListQuery,
  ZScheduleOptions,
  ZScheduleStudentOption,
  ZScheduleSummary,
  ZTeachableCourse,
  ZUpdateScheduleRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { deleteSchedule, finishSchedule, startSchedule } from './lifecycle.service.js';
import {
  getScheduleDetail,
  getScheduleOptions,
  listCourseOptions,
  listStudentOptions,
  listTeaching,
} from './schedule.service.js';
import { createSchedule, updateSchedule } from './schedule-write.service.js';

const B = SCHEDULE_API.base;
const params = z.object({ id: z.uuid() });

/** Teaching schedules: the teachers' list, form options, detail, changes and the moves between states. */
export const scheduleRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const teach = { permission: 'schedule.teach' as const };
  const tags = ['schedule'];

  app.get(
    B,
    {
      config: teach,
      schema: {
        tags,
        summary: 'The schedules the caller teaches: search by name, filter by state, one page',
        querystring: ZScheduleListQuery,
        response: envelopeOf(ZPage(ZScheduleSummary)),
      },
    },
    async (request) => ok(await listTeaching(ctx, requireAuth(request), request.query)),
  );
  app.post(
    B,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Create a schedule in the caller’s school; its students join the pinned course versions',
        body: ZCreateScheduleRequest,
        response: envelopeOf(ZScheduleDetail),
      },
    },
    async (request) => ok(await createSchedule(ctx, request, requireAuth(request), request.body)),
  );
  app.get(
    SCHEDULE_API.options,
    {
      config: teach,
      schema: {
        tags,
        summary: 'The teachers and current classes of the caller’s school',
        response: envelopeOf(ZScheduleOptions),
      },
    },
    async (request) => ok(await getScheduleOptions(ctx, requireAuth(request))),
  );
  app.get(
    SCHEDULE_API.courseOptions,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Up to 50 published courses the caller may teach, with their published versions',
        querystring: ZKeywordQuery,
        response: envelopeOf(z.array(ZTeachableCourse)),
      },
    },
    async (request) => ok(await listCourseOptions(ctx, requireAuth(request), request.query.keyword)),
  );
  app.get(
    SCHEDULE_API.studentOptions,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Up to 50 students of the caller’s school, to pick one by one',
        querystring: ZKeywordQuery,
        response: envelopeOf(z.array(ZScheduleStudentOption)),
      },
    },
    async (request) => ok(await listStudentOptions(ctx, requireAuth(request), request.query.keyword)),
  );
  app.get(
    `${B}/:id`,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'A schedule, for its teachers and its students (who join its course versions on opening it)',
        params,
        response: envelopeOf(ZScheduleDetail),
      },
    },
    async (request) => ok(await getScheduleDetail(ctx, requireAuth(request), request.params.id)),
  );
  app.put(
    `${B}/:id`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Change a schedule that is not finished (only the fields sent)',
        params,
        body: ZUpdateScheduleRequest,
        response: envelopeOf(ZScheduleDetail),
      },
    },
    async (request) => ok(await updateSchedule(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.post(
    `${B}/:id/start`,
    {
      config: teach,
      schema: { tags, summary: 'Start a schedule that has not started', params, response: envelopeOf(ZScheduleDetail) },
    },
    async (request) => ok(await startSchedule(ctx, request, requireAuth(request), request.params.id)),
  );
  app.post(
    `${B}/:id/finish`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Finish a schedule in progress: read-only for everyone from then on',
        params,
        response: envelopeOf(ZScheduleDetail),
      },
    },
    async (request) => ok(await finishSchedule(ctx, request, requireAuth(request), request.params.id)),
  );
  app.delete(
    `${B}/:id`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Delete a schedule: gone from every list; its students keep their records and answers',
        params,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deleteSchedule(ctx, request, requireAuth(request), request.params.id);
      return ok(null);
    },
  );
};
