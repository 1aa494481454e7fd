import {
  ZClass,
  ZClassListQuery,
  ZClassOption,
  ZCreateClassRequest,
  ZPage,
  ZUpgradeClassesRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  createClass,
  deleteClass,
  dismissClass,
  listClasses,
  listClassOptions,
  scheduleUpgrade,
  upgradeClassesManually,
} from './class.service.js';
import { cancelUpgradeSchedule, listUpgradeSchedules, startUpgradeScheduler } from './upgrade-schedule.service.js';

const CLASSES = '/gw/admin/api/v1/school/classes';

export const classRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'class.manage' as const };
  const tags = ['institution'];
  const stop = startUpgradeScheduler(ctx.db, ctx.now, app.log);
  app.addHook('onClose', async () => stop());

  app.post(
    `${CLASSES}/upgrade-schedules`,
    {
      config,
      schema: {
        tags,
        summary: 'Upgrade the classes automatically at a time: this year only, or every year',
        body: z.object({
          runAt: z.iso.datetime({ offset: true }),
          repeat: z.enum(['once', 'yearly']),
          schoolId: z.uuid().optional(),
        }),
        response: envelopeOf(z.object({ id: z.string(), runAt: z.string(), repeat: z.enum(['once', 'yearly']) })),
      },
    },
    async (request) => ok(await scheduleUpgrade(ctx, request, requireAuth(request), request.body)),
  );

  app.get(
    `${CLASSES}/upgrade-schedules`,
    {
      config,
      schema: {
        tags,
        summary: 'Automatic upgrades still to come',
        response: envelopeOf(
          z.array(
            z.object({
              id: z.string(),
              schoolId: z.string().nullable(),
              runAt: z.string(),
              repeat: z.enum(['once', 'yearly']),
              lastRunAt: z.string().nullable(),
            }),
          ),
        ),
      },
    },
    async (request) => ok(await listUpgradeSchedules(ctx, requireAuth(request))),
  );
  app.delete(
    `${CLASSES}/upgrade-schedules/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Cancel an automatic upgrade',
        params: z.object({ id: z.uuid() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await cancelUpgradeSchedule(ctx, request, requireAuth(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    CLASSES,
    {
      config,
      schema: {
        tags,
        summary: 'Current classes, or history classes (graduated, dismissed): searched by name, sorted, one page',
        querystring: ZClassListQuery,
        response: envelopeOf(ZPage(ZClass)),
      },
    },
    async (request) => ok(await listClasses(ctx, requireAuth(request), request.query)),
  );
  app.get(
    `${CLASSES}/options`,
    {
      config,
      schema: {
        tags,
        summary: 'Every current class of the caller’s scope (or one school), for class pickers',
        querystring: z.object({ schoolId: z.uuid().optional() }),
        response: envelopeOf(z.array(ZClassOption)),
      },
    },
    async (request) => ok(await listClassOptions(ctx, requireAuth(request), request.query.schoolId)),
  );
  app.post(
    CLASSES,
    {
      config,
      schema: {
        tags,
        summary: 'Create a class; its start year follows from the grade',
        body: ZCreateClassRequest,
        response: envelopeOf(ZClass),
      },
    },
    async (request) => ok(await createClass(ctx, request, requireAuth(request), request.body)),
  );
  app.put(
    `${CLASSES}/:id/dismiss`,
    {
      config,
      schema: {
        tags,
        summary: 'Dismiss a class (irreversible)',
        params: z.object({ id: z.uuid() }),
        response: envelopeOf(ZClass),
      },
    },
    async (request) => ok(await dismissClass(ctx, request, requireAuth(request), request.params.id)),
  );
  app.delete(
    `${CLASSES}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a class without students (irreversible): it leaves every list and picker',
        params: z.object({ id: z.uuid() }),
        response: envelopeOf(ZClass),
      },
    },
    async (request) => ok(await deleteClass(ctx, request, requireAuth(request), request.params.id)),
  );
  app.post(
    `${CLASSES}/upgrade`,
    {
      config,
      schema: {
        tags,
        summary: 'Move classes up one grade (past the last grade they graduate)',
        body: ZUpgradeClassesRequest,
        response: envelopeOf(z.object({ upgraded: z.number().int(), graduated: z.number().int() })),
      },
    },
    async (request) => ok(await upgradeClassesManually(ctx, request, requireAuth(request), request.body.classIds)),
  );
};
