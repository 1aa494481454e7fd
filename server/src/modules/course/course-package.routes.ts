import {
  COURSE_API,
  ZCoursePackage,
  ZCoursePackageRequest,
  ZListQuery,
  ZPackageCustomersRequest,
  ZPage,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { assignPackage, createPackage, deletePackage, listPackages, updatePackage } from './course-package.service.js';
import { dropCentrePagesOnWrite } from './centre-cache.js';

const P = `${COURSE_API.base}/packages`;
const params = z.object({ id: z.uuid() });

/** Course packages: super administrators put courses together and give them to customers. */
export const coursePackageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Its writes change what the course centre lists.
  dropCentrePagesOnWrite(app, ctx);
  const config = { permission: 'course.catalogue' as const };
  const tags = ['course'];
  const pack = envelopeOf(ZCoursePackage);

  app.get(
    P,
    {
      config,
      schema: {
        tags,
        summary: 'Course packages, newest first, with their courses and customers',
        querystring: ZListQuery,
        response: envelopeOf(ZPage(ZCoursePackage)),
      },
    },
    async (request) => ok(await listPackages(ctx, request.query)),
  );
  app.post(
    P,
    { config, schema: { tags, summary: 'Create a course package', body: ZCoursePackageRequest, response: pack } },
    async (request) => ok(await createPackage(ctx, request, request.body)),
  );
  app.put(
    `${P}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Rename a package or change its courses',
        params,
        body: ZCoursePackageRequest,
        response: pack,
      },
    },
    async (request) => ok(await updatePackage(ctx, request, request.params.id, request.body)),
  );
  app.put(
    `${P}/:id/customers`,
    {
      config,
      schema: { tags, summary: 'Give a package to customers', params, body: ZPackageCustomersRequest, response: pack },
    },
    async (request) => ok(await assignPackage(ctx, request, request.params.id, request.body.customerIds)),
  );
  app.delete(
    `${P}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a package: its customers no longer find its courses; learners keep what they joined',
        params,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await deletePackage(ctx, request, request.params.id);
      return ok(null);
    },
  );
};
