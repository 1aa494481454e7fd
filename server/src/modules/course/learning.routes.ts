import {
  COURSE_API,
  ZAttempt,
  ZAttemptRequest,
  ZCentreQuery,
  ZCourseDetail,
  ZCourseSummary,
  ZJoinRequest,
  ZLearnerSection,
  ZLearningRecord,
  ZMyStudyItem,
  ZPage,
  ZRecordRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok, sendJson } from '../../platform/envelope.js';
import { submitAttempt } from './attempt.service.js';
import { centreJson, getCourseDetail } from './centre.service.js';
import {
  getLearningRecord,
  joinByCode,
  joinCourse,
  learnSection,
  listMyStudy,
  recordSection,
} from './learning.service.js';
import { resourceUrl } from './resource.service.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/** The course centre (open to visitors), course detail, joining, learning sections, records and tasks. */
export const learningRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: 'course.learn' as const };
  const tags = ['course'];

  app.get(
    COURSE_API.centre,
    {
      schema: {
        tags,
        summary: 'Course centre and list: filters, search, sort, paging',
        querystring: ZCentreQuery,
        response: envelopeOf(ZPage(ZCourseSummary)),
      },
    },
    async (request, reply) =>
      sendJson(reply, await centreJson(ctx, request.auth, request.query, (page) => String(reply.serialize(ok(page))))),
  );
  app.get(
    `${B}/:id`,
    {
      schema: {
        tags,
        summary: 'Course detail with the catalogue and the caller’s progress',
        params,
        response: envelopeOf(ZCourseDetail),
      },
    },
    async (request) => ok(await getCourseDetail(ctx, request.auth, request.params.id)),
  );
  app.post(
    COURSE_API.join,
    {
      config,
      schema: {
        tags,
        summary: 'Join a course by its 6-character code',
        body: ZJoinRequest,
        response: envelopeOf(ZCourseDetail),
      },
    },
    async (request) => ok(await joinByCode(ctx, requireAuth(request), request.body.code)),
  );
  app.post(
    `${B}/:id/join`,
    {
      config,
      schema: {
        tags,
        summary: 'Join a course from the centre or from a class it was given to',
        params,
        response: envelopeOf(ZCourseDetail),
      },
    },
    async (request) => ok(await joinCourse(ctx, requireAuth(request), request.params.id)),
  );
  app.get(
    COURSE_API.study,
    {
      config,
      schema: { tags, summary: 'My study: joined courses with progress', response: envelopeOf(z.array(ZMyStudyItem)) },
    },
    async (request) => ok(await listMyStudy(ctx, requireAuth(request))),
  );
  app.get(
    `${B}/:id/record`,
    {
      config,
      schema: { tags, summary: 'My learning record of a course', params, response: envelopeOf(ZLearningRecord) },
    },
    async (request) => ok(await getLearningRecord(ctx, requireAuth(request), request.params.id)),
  );
  app.get(
    `${B}/sections/:id/learn`,
    {
      config,
      schema: {
        tags,
        summary: 'Open a section of my version (marks it visited)',
        params,
        response: envelopeOf(ZLearnerSection),
      },
    },
    async (request) => ok(await learnSection(ctx, requireAuth(request), request.params.id)),
  );
  app.post(
    `${B}/sections/:id/record`,
    {
      config,
      schema: {
        tags,
        summary: 'Add time spent on a section, or mark it completed',
        params,
        body: ZRecordRequest,
        response: envelopeOf(ZCourseDetail),
      },
    },
    async (request) => ok(await recordSection(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.post(
    `${B}/tasks/:id/attempts`,
    {
      config,
      schema: {
        tags,
        summary: 'Answer a task; choice questions are graded at once',
        params,
        body: ZAttemptRequest,
        response: envelopeOf(ZAttempt),
      },
    },
    async (request) => ok(await submitAttempt(ctx, requireAuth(request), request.params.id, request.body.answers)),
  );
  app.get(
    `${B}/resources/:id/url`,
    {
      config,
      schema: {
        tags,
        summary:
          'Signed addresses of a resource, to show in place and to save; `preview` is false over the preview limits',
        params,
        response: envelopeOf(
          z.object({
            url: z.string(),
            downloadUrl: z.string(),
            preview: z.boolean(),
            mime: z.string(),
            name: z.string(),
            size: z.number(),
          }),
        ),
      },
    },
    async (request) => ok(await resourceUrl(ctx, requireAuth(request), request.params.id)),
  );
};
