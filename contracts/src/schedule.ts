import { z } from 'zod';
import { QUESTION_TYPES } from './course-constants.js';
import { ZAttempt } from './course.js';
import { updateOf } from './update-schema.js';
import { ZListQuery } from './user.js';
import { LIMITS } from './validation.js';

/** Spec section 4: a teaching schedule is not started, in progress or finished (then read-only for everyone). */
export const SCHEDULE_STATUSES = ['notStarted', 'inProgress', 'finished'] as const;
export type TScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** How much one schedule holds, and how many scores one bulk call sets. */
export const SCHEDULE_LIMITS = { courses: 10, teachers: 20, classes: 50, students: 500, scoresPerCall: 200 } as const;

const when = z.iso.datetime({ offset: true });

/** A course of a schedule: a published version of it, by default the current one. */
export const ZScheduleCourseRef = z.object({
  courseId: z.uuid(),
  versionId: z.uuid().optional().describe('a published version of the course; by default the one published now'),
});

export const ZCreateScheduleRequest = z.object({
  name: z.string().trim().min(1).max(LIMITS.courseTitle),
  startAt: when,
  courses: z.array(ZScheduleCourseRef).min(1).max(SCHEDULE_LIMITS.courses),
  /** Teachers of the caller's school besides the caller, who always teaches a schedule they create. */
  teacherIds: z.array(z.uuid()).max(SCHEDULE_LIMITS.teachers).default([]),
  classIds: z.array(z.uuid()).min(1).max(SCHEDULE_LIMITS.classes),
  /** Single students of the school, besides the classes' students. */
  studentIds: z.array(z.uuid()).max(SCHEDULE_LIMITS.students).default([]),
});
export type TCreateScheduleRequest = z.input<typeof ZCreateScheduleRequest>;
/** Changes only the fields sent; a course sent with another version moves the schedule (and its students) to it. */
export const ZUpdateScheduleRequest = updateOf(ZCreateScheduleRequest);
export type TUpdateScheduleRequest = z.input<typeof ZUpdateScheduleRequest>;

export const ZScheduleListQuery = ZListQuery.extend({ status: z.enum(SCHEDULE_STATUSES).optional() });
export type TScheduleListQuery = z.input<typeof ZScheduleListQuery>;

const ZNamed = z.object({ id: z.string(), name: z.string() });

export const ZScheduleSummary = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  startAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  schoolId: z.string(),
  schoolName: z.string(),
  teachers: z.array(ZNamed),
  classes: z.array(ZNamed),
  courses: z.array(z.object({ courseId: z.string(), name: z.string(), versionNumber: z.number().int().nullable() })),
  studentCount: z.number().int(),
  createdAt: z.string(),
});
export type TScheduleSummary = z.infer<typeof ZScheduleSummary>;

/** Spec 8: a course of a schedule may since have been closed or taken down. */
export const SCHEDULE_COURSE_STATES = ['open', 'closed', 'takenDown'] as const;

export const ZScheduleOutlineTask = z.object({
  id: z.string(),
  title: z.string(),
  questionTypes: z.array(z.enum(QUESTION_TYPES)),
});
export const ZScheduleSection = z.object({
  id: z.string(),
  title: z.string(),
  chapterTitle: z.string(),
  tasks: z.array(ZScheduleOutlineTask),
});
export type TScheduleSection = z.infer<typeof ZScheduleSection>;

/** A course as the schedule pins it: its version's sections in order, and the version published now. */
export const ZScheduleCourse = z.object({
  courseId: z.string(),
  versionId: z.string(),
  versionNumber: z.number().int().nullable(),
  name: z.string(),
  state: z.enum(SCHEDULE_COURSE_STATES),
  latestVersionId: z.string().nullable(),
  latestVersionNumber: z.number().int().nullable(),
  sections: z.array(ZScheduleSection),
});
export type TScheduleCourse = z.infer<typeof ZScheduleCourse>;

export const ZScheduleDetail = ZScheduleSummary.extend({
  role: z.enum(['teacher', 'student']),
  /** Students picked one by one (teachers only; empty for a student). */
  students: z.array(ZNamed),
  courses: z.array(ZScheduleCourse),
});
export type TScheduleDetail = z.infer<typeof ZScheduleDetail>;

/** What the schedule form picks from: the teachers and current classes of the caller's school. */
export const ZScheduleOptions = z.object({
  teachers: z.array(ZNamed),
  classes: z.array(ZNamed.extend({ eduStage: z.string(), grade: z.number().int(), stuCount: z.number().int() })),
});
export type TScheduleOptions = z.infer<typeof ZScheduleOptions>;

/** A published course the caller may teach, with its published versions newest first. */
export const ZTeachableCourse = z.object({
  id: z.string(),
  name: z.string(),
  ownerName: z.string(),
  currentVersionId: z.string(),
  versions: z.array(z.object({ id: z.string(), number: z.number().int() })),
});
export type TTeachableCourse = z.infer<typeof ZTeachableCourse>;

export const ZScheduleStudentOption = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  className: z.string().nullable(),
});
export type TScheduleStudentOption = z.infer<typeof ZScheduleStudentOption>;
export const ZKeywordQuery = z.object({ keyword: z.string().trim().max(100).default('') });

/** A schedule in a student's "my study". */
export const ZMyScheduleItem = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  startAt: z.string(),
  teachers: z.array(ZNamed),
  courses: z.array(
    z.object({
      courseId: z.string(),
      name: z.string(),
      versionNumber: z.number().int().nullable(),
      state: z.enum(SCHEDULE_COURSE_STATES),
    }),
  ),
  tasks: z.object({ assigned: z.number().int(), submitted: z.number().int() }),
});
export type TMyScheduleItem = z.infer<typeof ZMyScheduleItem>;

// Tasks and scores

export const ZAssignTaskRequest = z.object({ taskId: z.uuid(), dueAt: when.nullable().default(null) });
export const ZTaskDueRequest = z.object({ dueAt: when.nullable() });
/** One student's own due time (null: open to that student without one). */
export const ZReopenTaskRequest = z.object({ userId: z.uuid(), dueAt: when.nullable() });

export const SUBMISSION_STATUSES = ['todo', 'pending', 'graded'] as const;

export const ZScheduleTask = z.object({
  id: z.string(),
  taskId: z.string(),
  courseId: z.string(),
  courseName: z.string(),
  sectionId: z.string(),
  sectionTitle: z.string(),
  title: z.string(),
  questionTypes: z.array(z.enum(QUESTION_TYPES)),
  dueAt: z.string().nullable(),
  createdAt: z.string(),
  /** Teachers: how the schedule's students stand on it. */
  counts: z.object({ students: z.number().int(), submitted: z.number().int(), graded: z.number().int() }).nullable(),
  /** A student: their own due time, whether they may still submit, and their latest answer's result. */
  mine: z
    .object({
      dueAt: z.string().nullable(),
      open: z.boolean(),
      status: z.enum(SUBMISSION_STATUSES),
      score: z.number().int().nullable(),
      comment: z.string(),
      submittedAt: z.string().nullable(),
    })
    .nullable(),
});
export type TScheduleTask = z.infer<typeof ZScheduleTask>;

/** A student of the schedule with their latest answer to one task (null: none yet) and their own due time. */
export const ZScheduleSubmission = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  className: z.string().nullable(),
  dueAt: z.string().nullable(),
  reopened: z.boolean(),
  attempts: z.number().int(),
  attempt: ZAttempt.nullable(),
});
export type TScheduleSubmission = z.infer<typeof ZScheduleSubmission>;

export const ZScoreRequest = z.object({
  scores: z
    .array(
      z.object({
        attemptId: z.uuid(),
        score: z.number().int().min(LIMITS.scoreMin).max(LIMITS.scoreMax),
        comment: z.string().trim().max(LIMITS.description).default(''),
      }),
    )
    .min(1)
    .max(SCHEDULE_LIMITS.scoresPerCall),
});
export type TScoreRequest = z.input<typeof ZScoreRequest>;

// Students and statistics

export const ZScheduleStudent = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  classId: z.string().nullable(),
  className: z.string().nullable(),
  schoolNumber: z.string().nullable(),
  /** Sections completed of every section of the schedule's versions, 0–100. */
  progress: z.number().min(0).max(100),
  completedSections: z.number().int(),
  secondsSpent: z.number().int(),
  lastActiveAt: z.string().nullable(),
  sections: z.array(z.object({ sectionId: z.string(), completed: z.boolean(), secondsSpent: z.number().int() })),
  tasks: z.array(
    z.object({
      scheduleTaskId: z.string(),
      status: z.enum(SUBMISSION_STATUSES),
      score: z.number().int().nullable(),
    }),
  ),
});
export type TScheduleStudent = z.infer<typeof ZScheduleStudent>;

export const SCORE_BANDS = ['0-59', '60-69', '70-79', '80-89', '90-100'] as const;

export const ZScheduleStatistics = z.object({
  students: z.number().int(),
  tasks: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      submitted: z.number().int(),
      graded: z.number().int(),
      /** Students who submitted, of all the schedule's students, 0–100. */
      completion: z.number().min(0).max(100),
      averageScore: z.number().nullable(),
    }),
  ),
  distribution: z.array(z.object({ band: z.enum(SCORE_BANDS), count: z.number().int() })),
  progress: z.array(z.object({ userId: z.string(), name: z.string(), progress: z.number() })),
});
export type TScheduleStatistics = z.infer<typeof ZScheduleStatistics>;

/** Teaching statistics of the caller's scope for administrators (spec 7's `/es/exprep` family). */
export const ZTeachingStatisticsQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});
export const ZTeachingStatistics = z.object({
  schedules: z.object({
    notStarted: z.number().int(),
    inProgress: z.number().int(),
    finished: z.number().int(),
  }),
  /** Students of a schedule who opened one of its sections within the last `days` days. */
  schools: z.array(
    z.object({
      schoolId: z.string(),
      schoolName: z.string(),
      schedules: z.number().int(),
      activeStudents: z.number().int(),
    }),
  ),
  teachers: z.array(
    z.object({
      teacherId: z.string(),
      name: z.string(),
      schoolName: z.string(),
      schedules: z.number().int(),
      activeStudents: z.number().int(),
    }),
  ),
});
export type TTeachingStatistics = z.infer<typeof ZTeachingStatistics>;

/** Teaching schedule API paths (the spec's `schedule` family). */
export const SCHEDULE_API = {
  base: '/api/v1/schedules',
  /** A student's schedules, for "my study". */
  study: '/api/v1/schedules/study',
  options: '/api/v1/schedules/options',
  courseOptions: '/api/v1/schedules/options/courses',
  studentOptions: '/api/v1/schedules/options/students',
  /** One assigned task: `${tasks}/<id>`. */
  tasks: '/api/v1/schedules/tasks',
  /** Every schedule of the caller's scope, for administrators. */
  admin: '/api/v1/admin_organize/schedule',
  /** Teaching statistics for administrators. */
  statistics: '/es/exprep/teaching',
} as const;

/** Paths of one schedule's calls. */
export const scheduleApi = (id: string) => {
  const base = `${SCHEDULE_API.base}/${id}`;
  return {
    base,
    start: `${base}/start`,
    finish: `${base}/finish`,
    tasks: `${base}/tasks`,
    students: `${base}/students`,
    studentsExport: `${base}/students/export`,
    statistics: `${base}/statistics`,
  };
};

/** Paths of one assigned task's calls. */
export const scheduleTaskApi = (id: string) => {
  const base = `${SCHEDULE_API.tasks}/${id}`;
  return { base, reopen: `${base}/reopen`, submissions: `${base}/submissions`, scores: `${base}/scores` };
};
