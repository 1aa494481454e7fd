import {
  SCHEDULE_API,
  ZAssignTaskRequest,
  ZMyScheduleItem,
  ZReopenTaskRequest,
  ZScheduleSubmission,
  ZScheduleTask,
  ZScoreRequest,
  ZTaskDueRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { checkAttemptsWith } from '../course/attempt.service.js';
import { listSubmissions, scoreSubmissions } from './scoring.service.js';
import { listMySchedules } from './study.service.js';
import {
  assignTask,
  changeDue,
  checkScheduledAttempt,
  listScheduleTasks,
  reopenTask,
  unassignTask,
} from './task.service.js';

const params = z.object({ id: z.uuid() });
const T = SCHEDULE_API.tasks;

/** A schedule's tasks with due times, its students' answers and their scores, and a student's own schedules. */
export const scheduleTaskRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const teach = { permission: 'schedule.teach' as const };
  const tags = ['schedule'];
  const tasks = envelopeOf(z.array(ZScheduleTask));
  checkAttemptsWith(checkScheduledAttempt);

  app.get(
    SCHEDULE_API.study,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My study: the schedules the caller learns in, with their courses and tasks answered',
        response: envelopeOf(z.array(ZMyScheduleItem)),
      },
    },
    async (request) => ok(await listMySchedules(ctx, requireAuth(request))),
  );
  app.get(
    `${SCHEDULE_API.base}/:id/tasks`,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'The tasks given in a schedule: counts for its teachers, their own answer for a student',
        params,
        response: tasks,
      },
    },
    async (request) => ok(await listScheduleTasks(ctx, requireAuth(request), request.params.id)),
  );
  app.post(
    `${SCHEDULE_API.base}/:id/tasks`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Give a task of a pinned course version to the schedule’s students, with an optional due time',
        params,
        body: ZAssignTaskRequest,
        response: tasks,
      },
    },
    async (request) => ok(await assignTask(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${T}/:id`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Move a given task’s due time, or take it away (null)',
        params,
        body: ZTaskDueRequest,
        response: tasks,
      },
    },
    async (request) => ok(await changeDue(ctx, request, requireAuth(request), request.params.id, request.body.dueAt)),
  );
  app.delete(
    `${T}/:id`,
    {
      config: teach,
      schema: { tags, summary: 'Take a given task back (answers stay)', params, response: tasks },
    },
    async (request) => ok(await unassignTask(ctx, request, requireAuth(request), request.params.id)),
  );
  app.post(
    `${T}/:id/reopen`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Reopen a given task for one student with a due time of their own (null: none)',
        params,
        body: ZReopenTaskRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await reopenTask(ctx, request, requireAuth(request), request.params.id, request.body);
      return ok(null);
    },
  );
  app.get(
    `${T}/:id/submissions`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Every student of the schedule with their latest answer to a given task',
        params,
        response: envelopeOf(z.array(ZScheduleSubmission)),
      },
    },
    async (request) => ok(await listSubmissions(ctx, requireAuth(request), request.params.id)),
  );
  app.put(
    `${T}/:id/scores`,
    {
      config: teach,
      schema: {
        tags,
        summary: 'Score answers to a given task, one or many at once: 0–100 with a comment',
        params,
        body: ZScoreRequest,
        response: envelopeOf(z.array(ZScheduleSubmission)),
      },
    },
    async (request) =>
      ok(await scoreSubmissions(ctx, request, requireAuth(request), request.params.id, request.body.scores)),
  );
};
