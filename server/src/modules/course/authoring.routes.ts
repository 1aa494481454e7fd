import {
  COURSE_API,
  LIMITS,
  ZAssignClassRequest,
  ZAttempt,
  ZCollaboratorSearchQuery,
  ZCourseAuthorStatus,
  ZCourseCollaborator,
  ZCourseCollaboratorsRequest,
  ZCourseInfoRequest,
  ZCourseSummary,
  ZCourseVersion,
  ZEditableCourse,
  ZGradeRequest,
  ZMoveLearnersRequest,
  ZOutlineRequest,
  ZSectionRequest,
  ZTaskOrderRequest,
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
  getAuthorStatus,
  getEditableCourse,
  listAuthoredCourses,
  setCover,
  updateCourse,
} from './authoring.service.js';
import { searchCollaborators, setCollaborators } from './collaborator.service.js';
import {
  addChapter,
  addSection,
  addTask,
  deleteChapter,
  deleteResource,
  deleteSection,
  deleteTask,
  renameChapter,
  reorderOutline,
  reorderTasks,
  updateSection,
  updateTask,
} from './content.service.js';
import {
  abandonRevision,
  assignToClass,
  closeCourse,
  listVersions,
  moveLearners,
  publishCourse,
  startRevision,
} from './lifecycle.service.js';
import { dropCentrePagesOnWrite } from './centre-cache.js';
import { readUpload } from '../../platform/uploads.js';

const B = COURSE_API.base;
const params = z.object({ id: z.uuid() });

/**
 * Writing courses: certified teachers create, collaborators edit, the owner publishes, revises and closes. Calls
 * on one course need a sign-in only: the service answers 1007 to a caller who sees the course but does not write
 * it, and 1004 to one who does not see it.
 */
export const authoringRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Its writes change what the course centre lists.
  dropCentrePagesOnWrite(app, ctx);
  const authorConfig = { permission: 'course.author' as const };
  const config = { auth: 'required' as const };
  const tags = ['course'];
  const course = envelopeOf(ZEditableCourse);

  app.post(
    B,
    {
      config: authorConfig,
      schema: {
        tags,
        summary: 'Create a course (certified teachers; a direction and a stage are required)',
        body: ZCourseInfoRequest,
        response: course,
      },
    },
    async (request) => ok(await createCourse(ctx, request, requireAuth(request), request.body)),
  );
  app.get(
    COURSE_API.mine,
    {
      config: authorConfig,
      schema: { tags, summary: 'Courses I own or edit', response: envelopeOf(z.array(ZCourseSummary)) },
    },
    async (request) => ok(await listAuthoredCourses(ctx, requireAuth(request))),
  );
  app.get(
    COURSE_API.authorStatus,
    {
      config: authorConfig,
      schema: {
        tags,
        summary: 'Whether I may create a course, and where my teacher certification stands',
        response: envelopeOf(ZCourseAuthorStatus),
      },
    },
    async (request) => ok(await getAuthorStatus(ctx, requireAuth(request))),
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
  app.get(
    `${B}/:id/collaborators/candidates`,
    {
      config,
      schema: {
        tags,
        summary: 'Teachers of the course’s institution the owner may add, by part of username or name (at most 20)',
        params,
        querystring: ZCollaboratorSearchQuery,
        response: envelopeOf(z.array(ZCourseCollaborator)),
      },
    },
    async (request) =>
      ok(await searchCollaborators(ctx, requireAuth(request), request.params.id, request.query.keyword)),
  );
  app.get(
    `${B}/:id/versions`,
    {
      config,
      schema: {
        tags,
        summary: 'Every version of the course, newest first, with its learners',
        params,
        response: envelopeOf(z.array(ZCourseVersion)),
      },
    },
    async (request) => ok(await listVersions(ctx, requireAuth(request), request.params.id)),
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
    `${B}/:id/outline`,
    {
      config,
      schema: {
        tags,
        summary: 'Put chapters and sections in a new order (every one once; sections may change chapter)',
        params,
        body: ZOutlineRequest,
        response: course,
      },
    },
    async (request) => ok(await reorderOutline(ctx, requireAuth(request), request.params.id, request.body)),
  );
  app.put(
    `${B}/chapters/:id`,
    { config, schema: { tags, summary: 'Rename a chapter', params, body: ZTitleRequest, response: course } },
    async (request) => ok(await renameChapter(ctx, requireAuth(request), request.params.id, request.body.title)),
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
    `${B}/sections/:id/tasks/order`,
    {
      config,
      schema: {
        tags,
        summary: 'Put a section’s tasks in a new order (every one once)',
        params,
        body: ZTaskOrderRequest,
        response: course,
      },
    },
    async (request) => ok(await reorderTasks(ctx, requireAuth(request), request.params.id, request.body.ids)),
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
