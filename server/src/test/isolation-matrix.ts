import { b64 } from './factories.js';

/** What kind of object of another tenant a route names by id (the tenant isolation matrix builds one of each). */
export type Kind =
  | 'customer'
  | 'subCustomer'
  | 'school'
  | 'class'
  | 'teacher'
  | 'student'
  | 'range'
  | 'provider'
  | 'certification'
  | 'period'
  | 'schedule'
  | 'adminUser'
  | 'course'
  | 'chapter'
  | 'section'
  | 'task'
  | 'resource'
  | 'attempt'
  | 'check'
  | 'category'
  | 'difficulty'
  | 'tag'
  | 'package'
  | 'project'
  | 'teachingSchedule'
  | 'scheduleTask'
  | 'classroomSession'
  | 'customRole'
  | 'group'
  | 'dataset'
  | 'certificate'
  | 'certIssuance'
  | 'userCert'
  | 'certReview'
  | 'certAuditor'
  | 'event'
  | 'eventRegistration'
  | 'eventWork'
  | 'eventJudge'
  | 'eventScore'
  | 'eventRun';

const C = '/api/v1/courses';
const QUIZ = {
  title: 'Taken',
  questions: [{ id: 'q', type: 'single', prompt: 'p', options: ['a', 'b'], answer: [0] }],
};
const UNKNOWN = '0192f7a0-0000-7000-8000-000000000000';
const G = '/api/v1/groups';
const D = '/api/v1/datasets';

export const MATRIX: Record<string, { kind: Kind; body?: object; query?: string }> = {
  'PUT /api/v1/admin_super/organizes/:id': { kind: 'customer', body: { name: 'Taken' } },
  'PUT /api/v1/admin_super/organizes/:id/status': { kind: 'customer', body: { enabled: false } },
  'GET /api/v1/admin_super/organizes/:id/modules': { kind: 'customer' },
  'PUT /api/v1/admin_super/organizes/:id/modules': { kind: 'customer', body: { teacher: [], student: [] } },
  'PUT /api/v1/admin_organize/schools/:id': { kind: 'school', body: { name: 'Taken' } },
  'PUT /api/v1/admin_organize/schools/:id/status': { kind: 'school', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/classes/:id/dismiss': { kind: 'class' },
  'DELETE /gw/admin/api/v1/school/classes/:id': { kind: 'class' },
  'PUT /api/v1/admin_organize/teachers/:id/status': { kind: 'teacher', body: { enabled: false } },
  'PUT /api/v1/admin_organize/teachers/:id/password': { kind: 'teacher', body: { password: b64('Hacked2026') } },
  'PUT /api/v1/admin_organize/teachers/:id': { kind: 'teacher', body: { realName: 'Taken' } },
  'GET /api/v1/student/:id': { kind: 'student' },
  'GET /api/v1/classes/:id/stats': { kind: 'class' },
  'PUT /api/v1/student/:id/status': { kind: 'student', body: { enabled: false } },
  'PUT /api/v1/student/:id/password': { kind: 'student', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/teachers/:id/status': { kind: 'teacher', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/teachers/:id/password': { kind: 'teacher', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/students/:id/status': { kind: 'student', body: { enabled: false } },
  'PUT /gw/admin/api/v1/school/students/:id/password': { kind: 'student', body: { password: b64('Hacked2026') } },
  'PUT /gw/admin/api/v1/school/teachers/:id': { kind: 'teacher', body: { realName: 'Taken' } },
  'PUT /gw/admin/api/v1/school/students/:id': { kind: 'student', body: { realName: 'Taken' } },
  'PUT /api/v1/admin/sub-customers/:id': { kind: 'subCustomer', body: { name: 'Taken' } },
  'PUT /api/v1/admin/sub-customers/:id/status': { kind: 'subCustomer', body: { enabled: false } },
  'PUT /api/v1/admin_organize/periods/:id': {
    kind: 'period',
    body: { name: 'Taken', startDate: '2026-09-01', endDate: '2027-01-31' },
  },
  'DELETE /api/v1/admin_organize/periods/:id': { kind: 'period' },
  'DELETE /gw/admin/api/v1/school/classes/upgrade-schedules/:id': { kind: 'schedule' },
  'PUT /api/v1/user/:id': { kind: 'adminUser', body: { realName: 'Taken' } },
  'PUT /api/v1/user/:id/status': { kind: 'adminUser', body: { enabled: false } },
  'PUT /api/v1/user/:id/password': { kind: 'adminUser', body: { password: b64('Hacked2026') } },
  'DELETE /api/v1/user/:id': { kind: 'adminUser' },
  'PUT /api/v1/role/:id': { kind: 'customRole', body: { name: 'Taken' } },
  'PUT /api/v1/role/:id/status': { kind: 'customRole', body: { enabled: false } },
  'DELETE /api/v1/role/:id': { kind: 'customRole' },
  'DELETE /gw/api/v1/sys/shield/ranges/:id': { kind: 'range' },
  'DELETE /gw/api/v1/sys/sso/providers/:id': { kind: 'provider' },
  'PUT /gw/api/v1/user/teacher/:id/review': { kind: 'certification', body: { status: 'certified' } },
  [`GET ${C}/:id`]: { kind: 'course' },
  [`GET ${C}/:id/edit`]: { kind: 'course' },
  [`PUT ${C}/:id`]: { kind: 'course', body: { name: 'Taken' } },
  [`PUT ${C}/:id/cover`]: { kind: 'course' },
  [`PUT ${C}/:id/collaborators`]: { kind: 'course', body: { usernames: [] } },
  [`GET ${C}/:id/collaborators/candidates`]: { kind: 'course' },
  [`GET ${C}/:id/versions`]: { kind: 'course' },
  [`PUT ${C}/:id/outline`]: { kind: 'course', body: { chapters: [] } },
  [`POST ${C}/:id/publish`]: { kind: 'course' },
  [`POST ${C}/:id/revision`]: { kind: 'course' },
  [`POST ${C}/:id/abandon-revision`]: { kind: 'course' },
  [`POST ${C}/:id/close`]: { kind: 'course' },
  [`POST ${C}/:id/learners/move`]: { kind: 'course', body: {} },
  [`POST ${C}/:id/classes`]: { kind: 'course', body: { classId: '0192f7a0-0000-7000-8000-000000000000' } },
  [`GET ${C}/:id/results`]: { kind: 'course' },
  [`GET ${C}/:id/experiment-copies`]: { kind: 'course' },
  [`POST ${C}/:id/chapters`]: { kind: 'course', body: { title: 'Taken' } },
  [`POST ${C}/:id/join`]: { kind: 'course' },
  [`GET ${C}/:id/record`]: { kind: 'course' },
  [`PUT ${C}/:id/taken-down`]: { kind: 'course', body: { takenDown: true } },
  [`PUT ${C}/chapters/:id`]: { kind: 'chapter', body: { title: 'Taken' } },
  [`DELETE ${C}/chapters/:id`]: { kind: 'chapter' },
  [`POST ${C}/chapters/:id/sections`]: { kind: 'chapter', body: { title: 'Taken' } },
  [`PUT ${C}/sections/:id`]: { kind: 'section', body: { title: 'Taken' } },
  [`DELETE ${C}/sections/:id`]: { kind: 'section' },
  [`POST ${C}/sections/:id/tasks`]: { kind: 'section', body: QUIZ },
  [`PUT ${C}/sections/:id/tasks/order`]: { kind: 'section', body: { ids: [] } },
  [`GET ${C}/sections/:id/learn`]: { kind: 'section' },
  [`POST ${C}/sections/:id/record`]: { kind: 'section', body: { completed: true } },
  [`PUT ${C}/tasks/:id`]: { kind: 'task', body: QUIZ },
  [`DELETE ${C}/tasks/:id`]: { kind: 'task' },
  [`POST ${C}/tasks/:id/attempts`]: { kind: 'task', body: { answers: [] } },
  [`POST ${C}/tasks/:id/experiment/start`]: { kind: 'task', body: { questionId: 'q' } },
  [`POST ${C}/tasks/:id/experiment/check`]: { kind: 'task', body: { questionId: 'q' } },
  [`GET ${C}/tasks/:id/experiment/check`]: { kind: 'task', query: '?questionId=q' },
  [`POST ${C}/tasks/:id/experiment/check-trial`]: { kind: 'task', body: { questionId: 'q', against: 'template' } },
  [`GET ${C}/checks/:id`]: { kind: 'check' },
  [`DELETE ${C}/resources/:id`]: { kind: 'resource' },
  [`GET ${C}/resources/:id/url`]: { kind: 'resource' },
  [`PUT ${C}/attempts/:id/grade`]: { kind: 'attempt', body: { score: 100 } },
  [`PUT ${C}/categories/:id`]: { kind: 'category', body: { name: 'Taken', kind: 'stage' } },
  [`DELETE ${C}/categories/:id`]: { kind: 'category' },
  [`PUT ${C}/difficulties/:id`]: { kind: 'difficulty', body: { name: 'Taken' } },
  [`DELETE ${C}/difficulties/:id`]: { kind: 'difficulty' },
  [`PUT ${C}/tags/:id`]: { kind: 'tag', body: { name: 'Taken' } },
  [`DELETE ${C}/tags/:id`]: { kind: 'tag' },
  [`PUT ${C}/packages/:id`]: { kind: 'package', body: { name: 'Taken', courseIds: [] } },
  [`PUT ${C}/packages/:id/customers`]: { kind: 'package', body: { customerIds: [] } },
  [`DELETE ${C}/packages/:id`]: { kind: 'package' },
  'GET /api/v1/schedules/:id': { kind: 'teachingSchedule' },
  'PUT /api/v1/schedules/:id': { kind: 'teachingSchedule', body: { name: 'Taken' } },
  'POST /api/v1/schedules/:id/start': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/finish': { kind: 'teachingSchedule' },
  'DELETE /api/v1/schedules/:id': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/tasks': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/students': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/students/export': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/statistics': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/tasks': { kind: 'teachingSchedule', body: { taskId: UNKNOWN } },
  'PUT /api/v1/schedules/tasks/:id': { kind: 'scheduleTask', body: { dueAt: null } },
  'DELETE /api/v1/schedules/tasks/:id': { kind: 'scheduleTask' },
  'POST /api/v1/schedules/tasks/:id/reopen': { kind: 'scheduleTask', body: { userId: UNKNOWN, dueAt: null } },
  'GET /api/v1/schedules/tasks/:id/submissions': { kind: 'scheduleTask' },
  'PUT /api/v1/schedules/tasks/:id/scores': {
    kind: 'scheduleTask',
    body: { scores: [{ attemptId: UNKNOWN, score: 1 }] },
  },
  'GET /api/v1/schedules/:id/classroom': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/classroom/sessions': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/classroom/roster': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/:id/classroom/presence': { kind: 'teachingSchedule', body: { sectionId: null } },
  'GET /api/v1/schedules/:id/classroom/notes': { kind: 'teachingSchedule' },
  'PUT /api/v1/schedules/:id/classroom/notes': { kind: 'teachingSchedule', body: { sectionId: UNKNOWN, body: 'x' } },
  'GET /api/v1/schedules/:id/classroom/section': { kind: 'teachingSchedule' },
  'GET /api/v1/schedules/:id/classroom/resource': { kind: 'teachingSchedule' },
  'POST /api/v1/schedules/sessions/:id/start': { kind: 'classroomSession' },
  'POST /api/v1/schedules/sessions/:id/finish': { kind: 'classroomSession' },
  'PUT /api/v1/schedules/sessions/:id/section': { kind: 'classroomSession', body: { sectionId: UNKNOWN } },
  'PUT /api/v1/schedules/sessions/:id/mode': { kind: 'classroomSession', body: { mode: 'free' } },
  'GET /gw/api/v1/projects/:id': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id': { kind: 'project', body: { name: 'Taken' } },
  'DELETE /gw/api/v1/projects/:id': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/fork': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/collaborators': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id/collaborators': { kind: 'project', body: { usernames: [] } },
  'GET /gw/api/v1/projects/:id/versions': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/versions': {
    kind: 'project',
    body: { major: 9, minor: 0, revision: 0, description: 'Taken' },
  },
  'POST /gw/api/v1/projects/:id/versions/restore': { kind: 'project', body: { versionId: UNKNOWN } },
  'GET /gw/api/v1/projects/:id/versions/compare': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/files': { kind: 'project', body: { name: 'taken.py', kind: 'file' } },
  'DELETE /gw/api/v1/projects/:id/files': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files/content': { kind: 'project' },
  'PUT /gw/api/v1/projects/:id/files/content': { kind: 'project', body: { path: 'main.ipynb', content: '' } },
  'PUT /gw/api/v1/projects/:id/files/rename': { kind: 'project', body: { path: 'main.ipynb', name: 'x.ipynb' } },
  'PUT /gw/api/v1/projects/:id/files/move': { kind: 'project', body: { path: 'main.ipynb', toFolder: '' } },
  'POST /gw/api/v1/projects/:id/files/copy': { kind: 'project', body: { path: 'main.ipynb' } },
  'GET /gw/api/v1/projects/:id/storage': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/datasets': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/datasets': { kind: 'project', body: { datasetId: UNKNOWN } },
  'DELETE /gw/api/v1/projects/:id/datasets/:datasetId': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/datasets/:datasetId/sync': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/files/upload': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/files/download': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/packages': { kind: 'project' },
  'GET /gw/api/v1/projects/:id/packages/operations': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/packages/install': { kind: 'project', body: { name: 'taken' } },
  'POST /gw/api/v1/projects/:id/packages/uninstall': { kind: 'project', body: { name: 'taken' } },
  'POST /gw/api/v1/projects/:id/packages/operations/cancel': { kind: 'project', body: { operationId: UNKNOWN } },
  'GET /gw/api/v1/projects/:id/runtime': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/start': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/stop': { kind: 'project' },
  'POST /gw/api/v1/projects/:id/runtime/keepOnline': { kind: 'project' },
  'GET /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'POST /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PUT /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'PATCH /gw/api/v1/runtime/:id/*': { kind: 'project' },
  'DELETE /gw/api/v1/runtime/:id/*': { kind: 'project' },
  [`GET ${G}/:id`]: { kind: 'group' },
  [`PUT ${G}/:id`]: { kind: 'group', body: { name: 'Taken' } },
  [`DELETE ${G}/:id`]: { kind: 'group' },
  [`PUT ${G}/:id/cover`]: { kind: 'group' },
  [`PUT ${G}/:id/invitation`]: { kind: 'group', body: { enabled: false } },
  [`POST ${G}/:id/invitation/reset`]: { kind: 'group' },
  [`GET ${G}/:id/requests`]: { kind: 'group' },
  [`POST ${G}/:id/requests/:requestId/approve`]: { kind: 'group' },
  [`POST ${G}/:id/requests/:requestId/refuse`]: { kind: 'group', body: { reason: 'Taken' } },
  [`GET ${G}/:id/members`]: { kind: 'group' },
  [`POST ${G}/:id/members`]: { kind: 'group', body: { usernames: ['taken'] } },
  [`DELETE ${G}/:id/members/:userId`]: { kind: 'group' },
  [`POST ${G}/:id/quit`]: { kind: 'group' },
  [`POST ${G}/:id/batch-register`]: {
    kind: 'group',
    body: { rows: [{ username: 'taken1', phone: '13800000000', password: b64('Taken2026') }] },
  },
  [`POST ${G}/:id/batch-register/xlsx`]: { kind: 'group' },
  [`GET ${G}/:id/projects`]: { kind: 'group' },
  [`POST ${G}/:id/projects`]: { kind: 'group', body: { projectId: UNKNOWN } },
  [`DELETE ${G}/:id/projects/:projectId`]: { kind: 'group' },
  [`GET ${G}/:id/courses`]: { kind: 'group' },
  [`POST ${G}/:id/courses`]: { kind: 'group', body: { courseId: UNKNOWN } },
  [`DELETE ${G}/:id/courses/:courseId`]: { kind: 'group' },
  [`GET ${D}/:id`]: { kind: 'dataset' },
  [`PUT ${D}/:id`]: { kind: 'dataset', body: { name: 'Taken' } },
  [`DELETE ${D}/:id`]: { kind: 'dataset' },
  [`POST ${D}/:id/publish`]: { kind: 'dataset' },
  [`GET ${D}/:id/versions/:versionId`]: { kind: 'dataset' },
  [`GET ${D}/:id/files`]: { kind: 'dataset' },
  [`GET ${D}/:id/preview`]: { kind: 'dataset', query: '?path=data.csv' },
  [`GET ${D}/:id/raw`]: { kind: 'dataset', query: '?path=data.csv' },
  [`PUT ${D}/:id/annotation`]: { kind: 'dataset' },
  [`GET ${D}/:id/annotation`]: { kind: 'dataset', query: '?path=data.csv' },
};

const CERT = '/api/v1';
/**
 * Routes that name an object by an id in their query or body (spec 7's certificate calls: `?certIssId`, `{ certIssId }`):
 * `:id` in the query or in a body value is replaced by the target's id. Every route whose query requires an id
 * (a field ending in `Id`) must have a row here.
 */
export const QUERY_MATRIX: Record<
  string,
  { kind: Kind; body?: object; headers?: (id: string) => Record<string, string> }
> = {
  [`GET ${CERT}/cert/detail?certId=:id`]: { kind: 'certificate' },
  [`DELETE ${CERT}/cert?certId=:id`]: { kind: 'certificate' },
  [`POST ${CERT}/certIss`]: {
    kind: 'certificate',
    body: { certId: ':id', awardFor: 'Taken', source: 'manual', userIds: [UNKNOWN] },
  },
  [`GET ${CERT}/certIss/detail?certIssId=:id`]: { kind: 'certIssuance' },
  [`PUT ${CERT}/certIss/resubmit?certIssId=:id`]: {
    kind: 'certIssuance',
    body: { awardFor: 'Taken', source: 'manual', userIds: [UNKNOWN] },
  },
  [`POST ${CERT}/certIss/download`]: { kind: 'certIssuance', body: { certIssId: ':id' } },
  [`GET ${CERT}/certIss/candidates?source=class&sourceId=:id`]: { kind: 'class' },
  [`POST ${CERT}/review`]: { kind: 'certIssuance', body: { certIssId: ':id', decision: 'approve' } },
  [`DELETE ${CERT}/review?reviewId=:id`]: { kind: 'certReview' },
  [`GET ${CERT}/review/history?certIssId=:id`]: { kind: 'certIssuance' },
  [`POST ${CERT}/auditor`]: { kind: 'teacher', body: { userId: ':id' } },
  [`DELETE ${CERT}/auditor?auditorId=:id&userId=:id`]: { kind: 'certAuditor' },
  [`PUT ${CERT}/userCert/revoke?userCertId=:id`]: { kind: 'userCert', body: { reason: 'Taken' } },
  [`PUT ${CERT}/userCert/reissue?userCertId=:id`]: { kind: 'userCert', body: { reason: 'Taken' } },
  [`GET ${CERT}/userCert/pdf?userCertId=:id`]: { kind: 'userCert' },
  [`GET ${CERT}/userCert/png?userCertId=:id`]: { kind: 'userCert' },
  [`GET ${CERT}/userCert/badge?userCertId=:id`]: { kind: 'userCert' },
  ...eventQueryRows(),
};

/** The events module's calls: every id an event route takes in its query or body, public routes included. */
function eventQueryRows(): typeof QUERY_MATRIX {
  const E = '/api/v1/event';
  const at = (days: number) => new Date(Date.UTC(2027, 0, 1 + days)).toISOString();
  const event = {
    id: ':id',
    name: 'Taken',
    coverKey: null,
    tracks: [{ id: 'ai', name: 'Taken', kind: 'judged' }],
    phases: {
      registrationStart: at(0),
      registrationEnd: at(1),
      submissionStart: at(1),
      submissionEnd: at(2),
      reviewStart: at(3),
      reviewEnd: at(4),
      resultsAt: at(5),
    },
  };
  const members = [
    { role: 'applicant', name: 'Taken' },
    { role: 'mentor', name: 'Taken' },
  ];
  const track = 'trackId=iris';
  return {
    [`GET ${E}/detail?eventId=:id`]: { kind: 'event' },
    [`PUT ${E}`]: { kind: 'event', body: event },
    [`DELETE ${E}?eventId=:id`]: { kind: 'event' },
    [`GET ${E}/registration?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/registration`]: { kind: 'event', body: { eventId: ':id', trackId: 'ai', teamName: 'Taken', members } },
    [`PUT ${E}/registration/submit?registrationId=:id`]: { kind: 'eventRegistration' },
    [`PUT ${E}/registration/withdraw?registrationId=:id`]: { kind: 'eventRegistration' },
    [`GET ${E}/qualification?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/qualification/decide`]: {
      kind: 'eventRegistration',
      body: { registrationId: ':id', decision: 'pass' },
    },
    [`GET ${E}/work?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/work`]: { kind: 'event', body: { eventId: ':id', name: 'Taken' } },
    [`PUT ${E}/work`]: { kind: 'eventWork', body: { id: ':id', name: 'Taken' } },
    [`GET ${E}/work/detail?workId=:id`]: { kind: 'eventWork' },
    [`PUT ${E}/work/submit?workId=:id`]: { kind: 'eventWork' },
    [`PUT ${E}/work/recall?workId=:id`]: { kind: 'eventWork' },
    [`PUT ${E}/work/withdraw?workId=:id`]: { kind: 'eventWork' },
    [`GET ${E}/work/video?workId=:id`]: { kind: 'eventWork' },
    [`POST ${E}/work/videoUploads`]: {
      kind: 'eventWork',
      headers: (id) => ({
        'tus-resumable': '1.0.0',
        'upload-length': '1024',
        'upload-metadata': `workId ${Buffer.from(id).toString('base64')}`,
      }),
    },
    [`GET ${E}/work/admin?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/work/audit`]: { kind: 'eventWork', body: { workId: ':id', decision: 'accept' } },
    [`GET ${E}/review/settings?eventId=:id`]: { kind: 'event' },
    [`PUT ${E}/review/settings?eventId=:id`]: {
      kind: 'event',
      body: { scoringType: 'overall', groupCount: 2, judgesPerGroup: 1 },
    },
    [`POST ${E}/review/uploadFile?eventId=:id&kind=manual`]: { kind: 'event' },
    [`GET ${E}/judge?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/judge`]: { kind: 'event', body: { eventId: ':id', username: 'taken', group: 1 } },
    [`DELETE ${E}/judge?judgeId=:id`]: { kind: 'eventJudge' },
    [`POST ${E}/review/assign?eventId=:id`]: { kind: 'event' },
    [`GET ${E}/review/progress?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/review/closeRound`]: { kind: 'event', body: { eventId: ':id' } },
    [`PUT ${E}/review/reopen?scoreId=:id`]: { kind: 'eventScore', body: { reason: 'Taken' } },
    [`GET ${E}/judging?eventId=:id`]: { kind: 'event' },
    [`PUT ${E}/judging/score`]: { kind: 'eventWork', body: { workId: ':id', overall: 1 } },
    [`POST ${E}/judging/submit`]: { kind: 'eventWork', body: { workId: ':id', overall: 1 } },
    [`POST ${E}/results`]: { kind: 'event', body: { eventId: ':id' } },
    [`GET ${E}/results?eventId=:id`]: { kind: 'event' },
    [`POST ${E}/results/certificates`]: { kind: 'event', body: { eventId: ':id', certId: UNKNOWN } },
    [`PUT ${E}/evaluation?eventId=:id&${track}`]: { kind: 'event' },
    [`GET ${E}/evaluation?eventId=:id&${track}`]: { kind: 'event' },
    [`POST ${E}/run?eventId=:id&${track}`]: { kind: 'event', body: { projectId: UNKNOWN, path: 'predictions.csv' } },
    [`GET ${E}/run?eventId=:id&${track}`]: { kind: 'event' },
    [`PUT ${E}/run/cancel?runId=:id`]: { kind: 'eventRun' },
    [`GET ${E}/run/all?eventId=:id&${track}`]: { kind: 'event' },
    [`GET ${E}/ladder?eventId=:id&${track}`]: { kind: 'event' },
  };
}
