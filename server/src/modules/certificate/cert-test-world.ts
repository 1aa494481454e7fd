import { ROLES, type TCertDesign } from '@aiedu/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { classes, certificates, students, teachers } from '../../platform/db/schema/index.js';
import { buildCustomer, buildSchool, buildUser, signIn } from '../../test/factories.js';
import type { TestApp } from '../../test/test-app.js';

const style = (x: number, y: number, fontSize = 20) => ({
  x,
  y,
  width: 500,
  fontSize,
  color: '#222222',
  align: 'center' as const,
  font: 'regular' as const,
  visible: true,
  label: '',
});

/** A plain portrait design with every part placed. */
export const DESIGN: TCertDesign = {
  layout: 'portrait',
  backgroundKey: null,
  sealKey: null,
  title: 'Certificate of Merit',
  content: '{name} completed {awardFor} on {date}.',
  language: 'en',
  elements: {
    title: style(75, 120, 36),
    name: style(75, 300, 28),
    content: style(75, 380, 16),
    number: style(75, 760, 12),
    date: style(75, 790, 12),
    seal: { ...style(420, 700), width: 120 },
    qr: { ...style(60, 700), width: 100 },
  },
};

export type Caller = (
  who: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

/**
 * A customer with a school, a class headed by a teacher, three students in it, a student of another class, a
 * school administrator, the administrator of a second school, and another customer with its own administrator, teacher and student; one template.
 */
export async function buildCertWorld(t: TestApp, options: { students?: number } = {}) {
  const db = t.database.db;
  const customer = await buildCustomer(db, { name: 'Sunrise Academy' });
  const school = await buildSchool(db, customer.id);
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  async function person(name: string, role: string, customerId: string, schoolId: string, realName = '') {
    const user = await buildUser(db, { customerId, schoolId, username: name, realName, roles: [role] });
    const code = customerId === customer.id ? customer.code : other.code;
    tokens[name] = await signIn(t.app, code, name, user.password);
    ids[name] = user.id;
    return user;
  }
  const other = await buildCustomer(db, { name: 'Elsewhere' });
  const otherSchool = await buildSchool(db, other.id);
  const teacher = await person('teach', ROLES.teacher, customer.id, school.id, 'Ms Li');
  await db.insert(teachers).values({ userId: teacher.id, customerId: customer.id, schoolId: school.id });
  const stranger = await person('teach2', ROLES.teacher, customer.id, school.id);
  await db.insert(teachers).values({ userId: stranger.id, customerId: customer.id, schoolId: school.id });
  await person('admin', ROLES.schoolAdmin, customer.id, school.id);
  await person('boss', ROLES.customerAdmin, customer.id, school.id);
  // The administrator of another school of the same customer: none of the first school's issuances are theirs.
  await person('farAdmin', ROLES.schoolAdmin, customer.id, (await buildSchool(db, customer.id)).id);
  const [klass] = await db
    .insert(classes)
    .values({
      customerId: customer.id,
      schoolId: school.id,
      eduStage: 'primary',
      grade: 4,
      className: '4-1',
      startYear: 2023,
      teacherId: teacher.id,
    })
    .returning();
  const [otherClass] = await db
    .insert(classes)
    .values({
      customerId: customer.id,
      schoolId: school.id,
      eduStage: 'primary',
      grade: 4,
      className: '4-2',
      startYear: 2023,
    })
    .returning();
  const studentIds: string[] = [];
  for (let i = 1; i <= (options.students ?? 3); i++) {
    const s = await person(`stu${i}`, ROLES.student, customer.id, school.id, i === 1 ? '王小明' : `Student ${i}`);
    await db
      .insert(students)
      .values({ userId: s.id, customerId: customer.id, schoolId: school.id, classId: klass!.id });
    studentIds.push(s.id);
  }
  const outsider = await person('stuX', ROLES.student, customer.id, school.id);
  await db
    .insert(students)
    .values({ userId: outsider.id, customerId: customer.id, schoolId: school.id, classId: otherClass!.id });
  await person('otherAdmin', ROLES.customerAdmin, other.id, otherSchool.id);
  await person('otherTeach', ROLES.teacher, other.id, otherSchool.id);
  const [template] = await db
    .insert(certificates)
    .values({
      customerId: customer.id,
      name: 'Python Award',
      type: 'activity',
      creatorId: ids.boss!,
      layout: 'portrait',
      design: DESIGN,
      numberPrefix: 'PY',
      numberDigits: 4,
    })
    .returning();
  const call: Caller = async (who, method, url, payload, headers = {}) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { 'x-authorization': tokens[who] ?? '', ...headers },
    });
  return { customer, other, school, klass: klass!, template: template!, ids, tokens, studentIds, call };
}
