import {
  COURSE_API,
  ZCatalogueEntry,
  ZCatalogueItem,
  ZCatalogueListQuery,
  ZCategoryRequest,
  ZCourseApplyRequest,
  ZCourseFilters,
  ZCourseSummary,
  ZDifficultyRequest,
  ZPage,
  ZTagRequest,
  ZTakeDownRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  addCatalogueItem,
  applyForCourses,
  deleteCatalogueItem,
  getFilters,
  listApplications,
  listCatalogue,
  updateCatalogueItem,
} from './catalogue.service.js';
import { setTakenDown } from './lifecycle.service.js';
import { courseAdminRoutes } from './course-admin.routes.js';
import { dropCentrePagesOnWrite } from './centre-cache.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/** What super administrators keep for every customer: categories, difficulties, tags, applications, take-downs. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Its writes change what the course centre lists.
  dropCentrePagesOnWrite(app, ctx);
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
    ['categories', 'category', ZCategoryRequest],
    ['difficulties', 'difficulty', ZDifficultyRequest],
    ['tags', 'tag', ZTagRequest],
  ] as const;
  for (const [path, kind, body] of kinds) {
    app.get(
      `${B}/${path}`,
      {
        config,
        schema: {
          tags,
          summary: `Course ${kind} entries with the number of courses using each (search by name)`,
          querystring: ZCatalogueListQuery,
          response: envelopeOf(ZPage(ZCatalogueEntry)),
        },
      },
      async (request) => ok(await listCatalogue(ctx, kind, request.query)),
    );
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
    app.put(
      `${B}/${path}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Rename a course ${kind}; courses show the new name`,
          params,
          body,
          response: envelopeOf(ZCatalogueEntry),
        },
      },
      async (request) => ok(await updateCatalogueItem(ctx, request, kind, request.params.id, request.body)),
    );
    app.delete(
      `${B}/${path}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Delete a course ${kind} no course uses (else 3109)`,
          params,
          response: envelopeOf(z.null()),
        },
      },
      async (request) => {
        await deleteCatalogueItem(ctx, request, kind, request.params.id);
        return ok(null);
      },
    );
  }
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
  // The administrators' course list lives beside the catalogue they keep.
  await app.register(courseAdminRoutes, { ctx });
};
