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
  | 'customRole';

const C = '/api/v1/courses';
const QUIZ = {
  title: 'Taken',
  questions: [{ id: 'q', type: 'single', prompt: 'p', options: ['a', 'b'], answer: [0] }],
};
const UNKNOWN = '0192f7a0-0000-7000-8000-000000000000';

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
};
