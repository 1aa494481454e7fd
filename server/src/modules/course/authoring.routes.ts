import {
  COURSE_API,
  LIMITS,
  ZAssignClassRequest,
  ZAttempt,
  ZCourseCollaboratorsRequest,
  ZCourseInfoRequest,
  ZCourseSummary,
  ZEditableCourse,
  ZGradeRequest,
  ZMoveLearnersRequest,
  ZPositionRequest,
  ZSectionRequest,
  ZTaskRequest,
  ZTitleRequest,
  ZUpdateCourseRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { gradeByTeacher, listResults } from './attempt.service.js';
import {
  coverTarget,
  createCourse,
  getEditableCourse,
  listAuthoredCourses,
  setCollaborators,
  setCover,
  updateCourse,
} from './authoring.service.js';
import {
  addChapter,
  addSection,
  addTask,
  deleteChapter,
  deleteResource,
  deleteSection,
  deleteTask,
  updateChapter,
  updateSection,
  updateTask,
} from './content.service.js';
import {
  abandonRevision,
  assignToClass,
  closeCourse,
  moveLearners,
  publishCourse,
  startRevision,
} from './lifecycle.service.js';
import { dropCentrePagesOnWrite } from './centre-cache.js';
import { readUpload } from '../../platform/uploads.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/** Writing courses: certified teachers create, collaborators edit, the owner publishes, revises and closes. */
export const authoringRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Its writes change what the course centre lists.
  dropCentrePagesOnWrite(app, ctx);
  const config = { permission: 'course.author' as const };
  const tags = ['course'];
  const course = envelopeOf(ZEditableCourse);

  app.post(
    B,
    {
      config,
      schema: { tags, summary: 'Create a course (certified teachers)', body: ZCourseInfoRequest, response: course },
    },
    async (request) => ok(await createCourse(ctx, request, requireAuth(request), request.body)),
  );
  app.get(
    COURSE_API.mine,
    { config, schema: { tags, summary: 'Courses I own or edit', response: envelopeOf(z.array(ZCourseSummary)) } },
    async (request) => ok(await listAuthoredCourses(ctx, requireAuth(request))),
  );
  app.get(
    `${B}/:id/edit`,
    { config, schema: { tags, summary: 'A course as its authors edit it', params, response: course } },
    async (request) => ok(await getEditableCourse(ctx, requireAuth(request), request.params.id)),
  );
  app.put(
    `${B}/:id`,
    {
      config,
      schema: { tags, summary: 'Change a course’s information', params, body: ZUpdateCourseRequest, response: course },
    },
    async (request) => ok(await updateCourse(ctx, request, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${B}/:id/cover`,
    {
      config,
      schema: {
        tags,
        summary: 'Upload the cover (multipart field "file": JPG/PNG/GIF/JPEG under 2 MB); a thumbnail is made',
        consumes: ['multipart/form-data'],
        params,
        response: course,
      },
    },
    async (request) => {
      await coverTarget(ctx, requireAuth(request), request.params.id);
      const file = await readUpload(request, LIMITS.coverBytes);
      return ok(await setCover(ctx, requireAuth(request), request.params.id, file.filename, file.bytes));
    },
  );
  app.put(
    `${B}/:id/collaborators`,
    {
      config,
      schema: {
        tags,
        summary: 'Set the collaborators (owner)',
        params,
        body: ZCourseCollaboratorsRequest,
        response: course,
      },
    },
    async (request) =>
      ok(await setCollaborators(ctx, request, requireAuth(request), request.params.id, request.body.usernames)),
  );

  const transitions = [
    ['publish', 'Publish the draft or the revision as a new version (owner)', publishCourse],
    ['revision', 'Start a revision: learners keep the published version (owner)', startRevision],
    ['abandon-revision', 'Abandon the revision (owner)', abandonRevision],
    ['close', 'Close the course; learners keep their records (owner)', closeCourse],
  ] as const;
  for (const [action, summary, run] of transitions) {
    app.post(`${B}/:id/${action}`, { config, schema: { tags, summary, params, response: course } }, async (request) =>
      ok(await run(ctx, request, requireAuth(request), request.params.id)),
    );
  }
  app.post(
    `${B}/:id/learners/move`,
    {
      config,
      schema: {
        tags,
        summary: 'Move learners (all, or the ones named) to the published version (owner)',
        params,
        body: ZMoveLearnersRequest,
        response: envelopeOf(z.object({ moved: z.number().int() })),
      },
    },
    async (request) =>
      ok(await moveLearners(ctx, request, requireAuth(request), request.params.id, request.body.userIds)),
  );
  app.post(
    `${B}/:id/classes`,
    {
      config,
      schema: {
        tags,
        summary: 'Give the course to a class: its students join it',
        params,
        body: ZAssignClassRequest,
        response: envelopeOf(z.object({ joined: z.number().int() })),
      },
    },
    async (request) =>
      ok(await assignToClass(ctx, request, requireAuth(request), request.params.id, request.body.classId)),
  );
  app.get(
    `${B}/:id/results`,
    {
      config,
      schema: { tags, summary: 'Every learner’s attempts and scores', params, response: envelopeOf(z.array(ZAttempt)) },
    },
    async (request) => ok(await listResults(ctx, requireAuth(request), request.params.id)),
  );
  app.put(
    `${B}/attempts/:id/grade`,
    {
      config,
      schema: {
        tags,
        summary: 'Score a short answer or experiment (0–100, comment)',
        params,
        body: ZGradeRequest,
        response: envelopeOf(ZAttempt),
      },
    },
    async (request) => ok(await gradeByTeacher(ctx, request, requireAuth(request), request.params.id, request.body)),
  );

  // Content of the draft: chapters, sections, tasks, resources.
  app.post(
    `${B}/:id/chapters`,
    { config, schema: { tags, summary: 'Add a chapter', params, body: ZTitleRequest, response: course } },
    async (request) => ok(await addChapter(ctx, requireAuth(request), request.params.id, request.body.title)),
  );
  app.put(
    `${B}/chapters/:id`,
    { config, schema: { tags, summary: 'Rename or move a chapter', params, body: ZPositionRequest, response: course } },
    async (request) => ok(await updateChapter(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${B}/chapters/:id`,
    { config, schema: { tags, summary: 'Delete a chapter and its sections', params, response: course } },
    async (request) => ok(await deleteChapter(ctx, requireAuth(request), request.params.id)),
  );
  app.post(
    `${B}/chapters/:id/sections`,
    {
      config,
      schema: {
        tags,
        summary: 'Add a section (at most 100 per course)',
        params,
        body: ZTitleRequest,
        response: envelopeOf(z.object({ sectionId: z.string(), course: ZEditableCourse })),
      },
    },
    async (request) => ok(await addSection(ctx, requireAuth(request), request.params.id, request.body.title)),
  );
  app.put(
    `${B}/sections/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Change a section’s title, Markdown content or AI links',
        params,
        body: ZSectionRequest,
        response: course,
      },
    },
    async (request) => ok(await updateSection(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${B}/sections/:id`,
    { config, schema: { tags, summary: 'Delete a section', params, response: course } },
    async (request) => ok(await deleteSection(ctx, requireAuth(request), request.params.id)),
  );
  app.post(
    `${B}/sections/:id/tasks`,
    {
      config,
      schema: { tags, summary: 'Add a task (at most 10 per section)', params, body: ZTaskRequest, response: course },
    },
    async (request) => ok(await addTask(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${B}/tasks/:id`,
    { config, schema: { tags, summary: 'Change a task', params, body: ZTaskRequest, response: course } },
    async (request) => ok(await updateTask(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.delete(
    `${B}/tasks/:id`,
    { config, schema: { tags, summary: 'Delete a task', params, response: course } },
    async (request) => ok(await deleteTask(ctx, requireAuth(request), request.params.id)),
  );
  app.delete(
    `${B}/resources/:id`,
    { config, schema: { tags, summary: 'Delete a resource', params, response: course } },
    async (request) => ok(await deleteResource(ctx, requireAuth(request), request.params.id)),
  );
};
