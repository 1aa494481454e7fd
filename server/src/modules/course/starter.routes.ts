import { COURSE_API, ZImportStarterRequest, ZStarterCourse } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { importStarterCourse, listStarterCourses } from './starter.service.js';

/** The starter courses shipped with the platform: institution administrators import them as their own. */
export const starterRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; driver: RuntimeDriver }> = async (
  app,
  { ctx, driver },
) => {
  const tags = ['course'];
  const config = { permission: 'course.import' } as const;

  app.get(
    COURSE_API.starter,
    {
      config,
      schema: {
        tags,
        summary: 'The starter courses, in every language, with those the caller’s customer imported',
        response: envelopeOf(z.array(ZStarterCourse)),
      },
    },
    async (request) => ok(await listStarterCourses(ctx, requireAuth(request))),
  );

  app.post(
    `${COURSE_API.starter}/import`,
    {
      config,
      schema: {
        tags,
        summary: 'Import a starter course in one language: a published course of the caller’s customer they own',
        body: ZImportStarterRequest,
        response: envelopeOf(z.object({ courseId: z.string() })),
      },
    },
    async (request) => ok(await importStarterCourse(ctx, driver, request, requireAuth(request), request.body)),
  );
};
