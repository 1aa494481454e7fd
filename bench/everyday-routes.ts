import type { MeasuredRoute } from './replay-bench.js';

export interface BenchSchool {
  student: string;
  admin: string;
  courseId: string;
  sectionId: string;
  projectId: string;
}

const CUSTCODE = 'demo2026';

export async function call<T>(base: string, method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      language: 'en',
      ...(token ? { 'x-authorization': token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { errorCode: string; data: T };
  if (answer.errorCode !== '1000') throw new Error(`${method} ${url}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.data;
}

export async function signIn(base: string, username: string, password: string): Promise<string> {
  const data = await call<{ token: string }>(base, 'POST', '/gw/api/v1/auth/login', undefined, {
    custcode: CUSTCODE,
    usernameOrEmailOrPhone: username,
    password: Buffer.from(password).toString('base64'),
  });
  return data.token;
}

/**
 * The demo school as a pupil has it a few weeks into term, made through the API: every starter course joined, the
 * first two chapters of each learned, five projects.
 */
export async function prepareSchool(base: string): Promise<BenchSchool> {
  const student = await signIn(base, 'student01', 'Student@2026');
  const admin = await signIn(base, 'admin', 'Admin@2026');
  const centre = await call<{ list: { id: string }[] }>(base, 'GET', '/api/v1/courses/centre?size=20', student);
  let sectionId = '';
  for (const course of centre.list) {
    await call(base, 'POST', `/api/v1/courses/${course.id}/join`, student);
    const detail = await call<{ catalogue: { sections: { id: string }[] }[] }>(
      base,
      'GET',
      `/api/v1/courses/${course.id}`,
      student,
    );
    for (const chapter of detail.catalogue.slice(0, 2)) {
      for (const section of chapter.sections) {
        await call(base, 'POST', `/api/v1/courses/sections/${section.id}/record`, student, {
          seconds: 300,
          completed: true,
        });
      }
    }
    sectionId ||= detail.catalogue[0]!.sections[0]!.id;
  }
  let projectId = '';
  for (let n = 1; n <= 5; n++) {
    const project = await call<{ id: string }>(base, 'POST', '/gw/api/v1/projects', student, {
      name: `Weather diary ${n}`,
      description: 'Temperatures of the week, drawn as a chart.',
      tags: ['data', 'charts'],
    });
    projectId ||= project.id;
  }
  return { student, admin, courseId: centre.list[0]!.id, sectionId, projectId };
}

/** The hot reads: a pupil's everyday screens, an administrator's lists, and every institution's landing page. */
export function everydayRoutes(school: BenchSchool): MeasuredRoute[] {
  const anonymous = { language: 'en' };
  const student = { language: 'en', 'x-authorization': school.student };
  const admin = { language: 'en', 'x-authorization': school.admin };
  const route = (name: string, path: string, headers: Record<string, string>, label = `GET ${path.split('?')[0]}`) => ({
    name,
    label,
    path,
    headers,
  });
  return [
    route(
      'school-home',
      `/gw/api/v1/school/home?custcode=${CUSTCODE}`,
      anonymous,
      'GET /gw/api/v1/school/home (anon.)',
    ),
    route('sys-setting', '/gw/api/v1/sys/setting', anonymous, 'GET /gw/api/v1/sys/setting (anon.)'),
    route('user-info', '/gw/api/v1/user/userInfo', student),
    route('points-total', '/gw/api/v1/integral/total', student),
    route('school-search', '/gw/api/v1/user/fuzzySearchSchool?partName=Demo', student),
    route('projects-mine', '/gw/api/v1/projects/mine', student),
    route('project-detail', `/gw/api/v1/projects/${school.projectId}`, student, 'GET /gw/api/v1/projects/:id'),
    route(
      'project-files',
      `/gw/api/v1/projects/${school.projectId}/files`,
      student,
      'GET /gw/api/v1/projects/:id/files',
    ),
    route('courses-study', '/api/v1/courses/study', student),
    route('course-centre', '/api/v1/courses/centre?size=20', student),
    route('course-detail', `/api/v1/courses/${school.courseId}`, student, 'GET /api/v1/courses/:id'),
    route(
      'section-learn',
      `/api/v1/courses/sections/${school.sectionId}/learn`,
      student,
      'GET /api/v1/courses/sections/:id/learn',
    ),
    route('course-record', `/api/v1/courses/${school.courseId}/record`, student, 'GET /api/v1/courses/:id/record'),
    route('class-list', '/gw/admin/api/v1/school/classes?page=1&size=20', admin, 'GET …/school/classes (admin)'),
    route('student-list', '/api/v1/student?page=1&size=20', admin, 'GET /api/v1/student (admin)'),
    route('statistics', '/gw/api/v1/user/stats', admin, 'GET /gw/api/v1/user/stats (admin)'),
  ];
}
