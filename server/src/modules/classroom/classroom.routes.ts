import { randomUUID } from 'node:crypto';
import {
  CLASSROOM_API,
  ZClassroom,
  ZClassroomModeRequest,
  ZClassroomRoster,
  ZClassroomSession,
  ZLearnerSection,
  ZLessonNote,
  ZPresenceRequest,
  ZPutLessonNoteRequest,
  ZResourceLink,
  ZResourceQuery,
  ZSectionQuery,
  ZSessionsTaught,
  ZSessionsTaughtQuery,
  ZShowSectionRequest,
} from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { classroomOf, registerClassroomGuard } from './classroom-access.js';
import { ClassroomHub } from './classroom-hub.js';
import {
  getRoster,
  listNotes,
  reportPresence,
  resourceForTeacher,
  saveNote,
  sectionForTeacher,
  sessionsTaught,
} from './classroom.service.js';
import { registerLiveRoute } from './live.routes.js';
import { LiveSockets } from './live-sockets.js';
import {
  assertInProgress,
  finishSession,
  getClassroom,
  openSession,
  setMode,
  showSection,
  startSession,
} from './session.service.js';

const CLASSROOM = '/api/v1/schedules/:id/classroom';
const SESSION = `${CLASSROOM_API.sessions}/:id`;
const params = z.object({ id: z.uuid() });
const tags = ['classroom'];
/** Routes of a schedule's classroom for its teachers and students, and those for its teachers only. */
const member = { auth: 'required', classroom: { by: 'schedule' } } as const;
const teacher = { permission: 'schedule.teach', classroom: { by: 'schedule', role: 'teacher' } } as const;
const sessionTeacher = { permission: 'schedule.teach', classroom: { by: 'session', role: 'teacher' } } as const;

const httpRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; hub: ClassroomHub }> = async (app, { ctx, hub }) => {
  registerClassroomGuard(app, ctx);
  const nullableSession = envelopeOf(ZClassroomSession.nullable());

  app.get(
    CLASSROOM,
    {
      config: member,
      schema: { tags, summary: 'The live classroom of a schedule', params, response: envelopeOf(ZClassroom) },
    },
    async (request) => ok(await getClassroom(ctx, classroomOf(request))),
  );
  app.post(
    `${CLASSROOM}/sessions`,
    {
      config: teacher,
      schema: { tags, summary: 'Open a lesson (not started)', params, response: envelopeOf(ZClassroomSession) },
    },
    async (request) => ok(await openSession(ctx, hub, requireAuth(request), classroomOf(request))),
  );
  app.get(
    `${CLASSROOM}/roster`,
    {
      config: teacher,
      schema: {
        tags,
        summary: 'Who is online, where, and who answered',
        params,
        response: envelopeOf(ZClassroomRoster),
      },
    },
    async (request) => ok(await getRoster(ctx, hub, classroomOf(request))),
  );
  app.post(
    `${CLASSROOM}/presence`,
    {
      config: member,
      schema: {
        tags,
        summary: 'Without a socket: say where one is (students) and get the session',
        params,
        body: ZPresenceRequest,
        response: nullableSession,
      },
    },
    async (request) =>
      ok(await reportPresence(ctx, hub, classroomOf(request), requireAuth(request), request.body.sectionId)),
  );
  app.get(
    `${CLASSROOM}/notes`,
    {
      config: teacher,
      schema: { tags, summary: 'The lesson notes of the schedule', params, response: envelopeOf(z.array(ZLessonNote)) },
    },
    async (request) => ok(await listNotes(ctx, classroomOf(request))),
  );
  app.put(
    `${CLASSROOM}/notes`,
    {
      config: teacher,
      schema: {
        tags,
        summary: 'Write the lesson notes of a section',
        params,
        body: ZPutLessonNoteRequest,
        response: envelopeOf(ZLessonNote),
      },
    },
    async (request) => ok(await saveNote(ctx, classroomOf(request), requireAuth(request), request.body)),
  );
  app.get(
    `${CLASSROOM}/section`,
    {
      config: teacher,
      schema: {
        tags,
        summary: 'A section of the schedule’s courses, as its students see it',
        params,
        querystring: ZSectionQuery,
        response: envelopeOf(ZLearnerSection),
      },
    },
    async (request) => ok(await sectionForTeacher(ctx, classroomOf(request), request.query.sectionId)),
  );
  app.get(
    `${CLASSROOM}/resource`,
    {
      config: teacher,
      schema: {
        tags,
        summary: 'Signed addresses of a resource of the schedule’s courses',
        params,
        querystring: ZResourceQuery,
        response: envelopeOf(ZResourceLink),
      },
    },
    async (request) => ok(await resourceForTeacher(ctx, classroomOf(request), request.query.resourceId)),
  );

  const sessionSchema = (summary: string) => ({ tags, summary, params, response: envelopeOf(ZClassroomSession) });
  app.post(
    `${SESSION}/start`,
    { config: sessionTeacher, schema: sessionSchema('Start a lesson that has not started') },
    async (request) => ok(await startSession(ctx, hub, request, classroomOf(request))),
  );
  app.post(
    `${SESSION}/finish`,
    { config: sessionTeacher, schema: sessionSchema('Finish the lesson being taught') },
    async (request) => ok(await finishSession(ctx, hub, request, classroomOf(request))),
  );
  app.put(
    `${SESSION}/section`,
    {
      config: sessionTeacher,
      schema: { ...sessionSchema('Move the class to a section'), body: ZShowSectionRequest },
    },
    async (request) => {
      const { schedule, session } = classroomOf(request);
      assertInProgress(schedule);
      return ok(await showSection(ctx, hub, schedule.id, session!.id, request.body.sectionId));
    },
  );
  app.put(
    `${SESSION}/mode`,
    {
      config: sessionTeacher,
      schema: {
        ...sessionSchema('Students follow the teacher, or work at their own pace'),
        body: ZClassroomModeRequest,
      },
    },
    async (request) => ok(await setMode(ctx, hub, classroomOf(request), request.body.mode)),
  );
  app.get(
    CLASSROOM_API.sessionsTaught,
    {
      config: { permission: 'statistics.view' },
      schema: {
        tags,
        summary: 'Lessons started in the caller’s scope, per school and teacher',
        querystring: ZSessionsTaughtQuery,
        response: envelopeOf(ZSessionsTaught),
      },
    },
    async (request) => ok(await sessionsTaught(ctx, requireAuth(request), request.query.days)),
  );
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The live classroom's sockets of this process (tests read the hub through it). */
    classroom: LiveSockets;
  }
}

/**
 * The live classroom: its calls, and its WebSocket with the hub that fans changes out to this process's sockets
 * and, through Redis, to the other processes'.
 */
export async function registerClassroom(app: FastifyInstance, ctx: AppContext) {
  const hub = new ClassroomHub(ctx, randomUUID());
  const sockets = new LiveSockets(ctx, hub);
  app.decorate('classroom', sockets);
  // Before the server stops accepting: open sockets would otherwise hold its drain until they end.
  app.addHook('preClose', async () => sockets.close());
  await app.register(httpRoutes, { ctx, hub });
  await registerLiveRoute(app, sockets);
}
