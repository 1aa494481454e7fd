import { COURSE_API, ZAdminCourse, ZAdminCourseQuery, ZPage } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { listCoursesForAdmin } from './course-admin.service.js';

/** The administrators' list of courses in every state (spec 7's `/api/v1/admin_super/courses`). */
export const courseAdminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    COURSE_API.admin,
    {
      config: { permission: 'courseList.view' },
      schema: {
        tags: ['course'],
        summary: 'Courses in every state: all of them (super administrators) or those of my customer and below',
        querystring: ZAdminCourseQuery,
        response: envelopeOf(ZPage(ZAdminCourse)),
      },
    },
    async (request) => ok(await listCoursesForAdmin(ctx, requireAuth(request), request.query)),
  );
};
