import { z } from 'zod';
import { ZScheduleCourse, SCHEDULE_STATUSES } from './schedule.js';

/**
 * The live classroom of a teaching schedule: a teacher opens a lesson (a session), starts it, walks the pinned
 * courses' sections, and finishes it. Students follow the section the teacher shows, or work at their own pace when
 * the teacher releases them.
 */
export const CLASSROOM_SESSION_STATUSES = ['notStarted', 'teaching', 'finished'] as const;
export type TClassroomSessionStatus = (typeof CLASSROOM_SESSION_STATUSES)[number];
/** `follow`: students see the section the teacher shows; `free`: each student moves at their own pace. */
export const CLASSROOM_MODES = ['follow', 'free'] as const;
export type TClassroomMode = (typeof CLASSROOM_MODES)[number];

/** A lesson note is Markdown of at most this many characters. */
export const LESSON_NOTE_MAX = 20_000;

export const ZClassroomSession = z.object({
  id: z.string(),
  status: z.enum(CLASSROOM_SESSION_STATUSES),
  mode: z.enum(CLASSROOM_MODES),
  /** The section the teacher shows (null until the lesson starts). */
  sectionId: z.string().nullable(),
  /** Grows with every change of the session: a client keeps the highest it has seen. */
  revision: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  startedBy: z.string().nullable(),
});
export type TClassroomSession = z.infer<typeof ZClassroomSession>;

/** What the teach and learn views open with. */
export const ZClassroom = z.object({
  scheduleId: z.string(),
  name: z.string(),
  scheduleStatus: z.enum(SCHEDULE_STATUSES),
  role: z.enum(['teacher', 'student']),
  /** The open lesson (not started or teaching), else the last one finished, else null. */
  session: ZClassroomSession.nullable(),
  courses: z.array(ZScheduleCourse),
});
export type TClassroom = z.infer<typeof ZClassroom>;

export const ZRosterStudent = z.object({
  userId: z.string(),
  name: z.string(),
  className: z.string().nullable(),
  online: z.boolean(),
  /** The section the student's screen shows while online. */
  sectionId: z.string().nullable(),
  /** Whether they answered every task of the section the class is on; null when it has none. */
  submitted: z.boolean().nullable(),
});
export type TRosterStudent = z.infer<typeof ZRosterStudent>;
export const ZClassroomRoster = z.object({ sectionId: z.string().nullable(), students: z.array(ZRosterStudent) });
export type TClassroomRoster = z.infer<typeof ZClassroomRoster>;

export const ZLessonNote = z.object({
  sectionId: z.string(),
  body: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type TLessonNote = z.infer<typeof ZLessonNote>;
export const ZPutLessonNoteRequest = z.object({ sectionId: z.uuid(), body: z.string().max(LESSON_NOTE_MAX) });

export const ZShowSectionRequest = z.object({ sectionId: z.uuid() });
export const ZClassroomModeRequest = z.object({ mode: z.enum(CLASSROOM_MODES) });
/** A student without a socket says where they are; the answer is the session as it is. */
export const ZPresenceRequest = z.object({ sectionId: z.uuid().nullable() });
export const ZSectionQuery = z.object({ sectionId: z.uuid() });
export const ZResourceQuery = z.object({ resourceId: z.uuid() });
/** Signed addresses of a section's resource for the teach view, as the course's learners get them. */
export const ZResourceLink = z.object({
  url: z.string(),
  downloadUrl: z.string(),
  preview: z.boolean(),
  mime: z.string(),
  name: z.string(),
  size: z.number(),
});
export type TResourceLink = z.infer<typeof ZResourceLink>;

export const ZSessionsTaughtQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) });
/** Lessons started within the last `days` days, per school and per teacher who started them. */
export const ZSessionsTaught = z.object({
  total: z.number().int(),
  schools: z.array(z.object({ schoolId: z.string(), schoolName: z.string(), sessions: z.number().int() })),
  teachers: z.array(
    z.object({ teacherId: z.string(), name: z.string(), schoolName: z.string(), sessions: z.number().int() }),
  ),
});
export type TSessionsTaught = z.infer<typeof ZSessionsTaught>;

/*
 * The live socket (`CLASSROOM_API.live`, one per browser tab): the client joins the classrooms it shows and gets
 * their changes as they happen. Every message is a JSON text frame with a `type`.
 */

/** What a client sends. */
export const ZClientMessage = z.discriminatedUnion('type', [
  /** Show this classroom: answered by `joined` (or `refused`). */
  z.object({ type: z.literal('join'), scheduleId: z.uuid() }),
  z.object({ type: z.literal('leave'), scheduleId: z.uuid() }),
  /** A teacher moves the class to a section (as `PUT …/section`). */
  z.object({ type: z.literal('show'), scheduleId: z.uuid(), sessionId: z.uuid(), sectionId: z.uuid() }),
  /** A student's screen shows this section. */
  z.object({ type: z.literal('at'), scheduleId: z.uuid(), sectionId: z.uuid().nullable() }),
  /** A student answered a task: the server checks it and tells the teachers. */
  z.object({ type: z.literal('submitted'), scheduleId: z.uuid() }),
  /** A fresh access token for this socket, after `renew-token`. */
  z.object({ type: z.literal('token'), token: z.string().max(4096) }),
]);
export type TClientMessage = z.infer<typeof ZClientMessage>;

/** What the server sends. */
export type TServerMessage =
  | { type: 'joined'; scheduleId: string; role: 'teacher' | 'student'; session: TClassroomSession | null }
  | { type: 'session'; scheduleId: string; session: TClassroomSession }
  | { type: 'roster'; scheduleId: string; roster: TClassroomRoster }
  | { type: 'presence'; scheduleId: string; student: TRosterStudent }
  /** The access token expires: send `token` within 10 s or the socket closes (4401). */
  | { type: 'renew-token' }
  /** A message was refused: the catalogue's code and message in the socket's language. */
  | { type: 'refused'; scheduleId: string | null; errorCode: string; errorMsg: string };

/** Close codes of the live socket: the sign-in ended or the token was not renewed (4401). */
export const CLASSROOM_SOCKET_CLOSE = { renewToken: 4401 } as const;

/** Classroom API paths: under the schedules' path, so a customer switching courses off switches them off too. */
export const CLASSROOM_API = {
  /** The live WebSocket: `?token=<access token>&language=<language>`. */
  live: '/api/v1/schedules/live',
  sessions: '/api/v1/schedules/sessions',
  sessionsTaught: '/es/exprep/sessions',
} as const;

/** Paths of one schedule's classroom. */
export const classroomApi = (scheduleId: string) => {
  const base = `/api/v1/schedules/${scheduleId}/classroom`;
  return {
    base,
    open: `${base}/sessions`,
    roster: `${base}/roster`,
    presence: `${base}/presence`,
    notes: `${base}/notes`,
    section: `${base}/section`,
    resource: `${base}/resource`,
  };
};

/** Paths of one session's calls. */
export const classroomSessionApi = (sessionId: string) => {
  const base = `${CLASSROOM_API.sessions}/${sessionId}`;
  return { start: `${base}/start`, finish: `${base}/finish`, section: `${base}/section`, mode: `${base}/mode` };
};
