import {
  CATEGORY_KINDS,
  COURSE_API,
  ZCatalogueItem,
  ZCourseApplyRequest,
  ZCourseFilters,
  ZCourseSummary,
  ZPackageCustomersRequest,
  ZCoursePackageRequest,
  ZTakeDownRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  addCatalogueItem,
  applyForCourses,
  assignPackage,
  createPackage,
  deleteCatalogueItem,
  getFilters,
  listApplications,
  listPackages,
} from './catalogue.service.js';
import { setTakenDown } from './lifecycle.service.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });
const ZPackage = z.object({
  id: z.string(),
  name: z.string(),
  courseIds: z.array(z.string()),
  customerIds: z.array(z.string()),
});

/** What super administrators keep for every customer: categories, difficulties, tags, packages, applications. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'course.catalogue' as const };
  const tags = ['course'];

  app.get(
    COURSE_API.filters,
    {
      schema: {
        tags,
        summary: 'Directions, stages, difficulties and tags of the course centre',
        response: envelopeOf(ZCourseFilters),
      },
    },
    async () => ok(await getFilters(ctx)),
  );
  const kinds = [
    ['categories', 'category', z.object({ name: z.string().trim().min(1).max(30), kind: z.enum(CATEGORY_KINDS) })],
    ['difficulties', 'difficulty', z.object({ name: z.string().trim().min(1).max(30) })],
    ['tags', 'tag', z.object({ name: z.string().trim().min(1).max(20) })],
  ] as const;
  for (const [path, kind, body] of kinds) {
    app.post(
      `${B}/${path}`,
      {
        config,
        schema: {
          tags,
          summary: `Add a course ${kind}; a name already there is refused`,
          body,
          response: envelopeOf(ZCatalogueItem),
        },
      },
      async (request) => ok(await addCatalogueItem(ctx, request, kind, request.body)),
    );
    app.delete(
      `${B}/${path}/:id`,
      { config, schema: { tags, summary: `Delete a course ${kind}`, params, response: envelopeOf(z.null()) } },
      async (request) => {
        await deleteCatalogueItem(ctx, request, kind, request.params.id);
        return ok(null);
      },
    );
  }
  app.get(
    `${B}/packages`,
    { config, schema: { tags, summary: 'Course packages', response: envelopeOf(z.array(ZPackage)) } },
    async () => ok(await listPackages(ctx)),
  );
  app.post(
    `${B}/packages`,
    {
      config,
      schema: { tags, summary: 'Create a course package', body: ZCoursePackageRequest, response: envelopeOf(ZPackage) },
    },
    async (request) => ok(await createPackage(ctx, request, request.body)),
  );
  app.put(
    `${B}/packages/:id/customers`,
    {
      config,
      schema: {
        tags,
        summary: 'Assign a package to customers',
        params,
        body: ZPackageCustomersRequest,
        response: envelopeOf(ZPackage),
      },
    },
    async (request) => ok(await assignPackage(ctx, request, request.params.id, request.body.customerIds)),
  );
  app.put(
    `${B}/:id/taken-down`,
    {
      config,
      schema: {
        tags,
        summary: 'Take a course down, or put it back',
        params,
        body: ZTakeDownRequest,
        response: envelopeOf(ZCourseSummary),
      },
    },
    async (request) => ok(await setTakenDown(ctx, request, request.params.id, request.body.takenDown)),
  );
  app.post(
    COURSE_API.apply,
    {
      schema: {
        tags,
        summary: 'Apply for courses (name, phone, email); administrators follow up within 3 working days',
        body: ZCourseApplyRequest,
        response: envelopeOf(z.object({ id: z.string(), followUpWorkingDays: z.number().int() })),
      },
    },
    async (request) => ok(await applyForCourses(ctx, request.auth, request.body)),
  );
  app.get(
    COURSE_API.apply,
    {
      config,
      schema: {
        tags,
        summary: 'Course applications',
        response: envelopeOf(
          z.array(
            z.object({
              id: z.string(),
              name: z.string(),
              phone: z.string(),
              email: z.string(),
              remark: z.string(),
              createdAt: z.string(),
            }),
          ),
        ),
      },
    },
    async () => ok(await listApplications(ctx)),
  );
};
