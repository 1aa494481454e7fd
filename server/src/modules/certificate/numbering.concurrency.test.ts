import { CERT_API, ROLES } from '@aiedu/contracts';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateCounters, students, userCertificates, users } from '../../platform/db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildCertWorld } from './cert-test-world.js';

/** The number rule under load: issuances sent at once share one counter and neither repeat nor skip a number. */
describe('certificate numbers under concurrent issuances', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof buildCertWorld>>;
  const many: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    w = await buildCertWorld(t, { students: 1 });
    const rows = await t.database.db
      .insert(users)
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          customerId: w.customer.id,
          schoolId: w.school.id,
          username: `load${i}`,
          realName: `Load ${i}`,
          passwordHash: 'unused',
          roles: [ROLES.student],
        })),
      )
      .returning({ id: users.id });
    await t.database.db
      .insert(students)
      .values(
        rows.map((r) => ({ userId: r.id, customerId: w.customer.id, schoolId: w.school.id, classId: w.klass.id })),
      );
    many.push(...rows.map((r) => r.id));
  });
  afterAll(() => t.close());

  it('gives 50 issuances sent at once the numbers 1..50 of the day, while failing ones take none', async () => {
    const send = (userIds: string[]) =>
      w.call('teach', 'POST', CERT_API.certIss, {
        certId: w.template.id,
        awardFor: 'Load test',
        issueDate: '2026-12-01',
        source: 'manual',
        userIds,
      });
    const results = await Promise.all([
      ...many.map((id) => send([id])),
      // Refused for a student outside the teacher's classes, in the same run: no number may be spent on them.
      ...many.slice(0, 10).map((id) => send([id, w.ids.stuX!])),
    ]);
    const codes = results.map((r) => r.json().errorCode);
    expect(codes.slice(0, 50).every((c) => c === '1000')).toBe(true);
    expect(codes.slice(50).every((c) => c === '4406')).toBe(true);

    const numbers = (
      await t.database.db
        .select({ number: userCertificates.number })
        .from(userCertificates)
        .where(like(userCertificates.number, 'PY20261201%'))
    ).map((r) => r.number!);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `PY20261201${String(i + 1).padStart(4, '0')}`));
    const [counter] = await t.database.db
      .select()
      .from(certificateCounters)
      .where(eq(certificateCounters.stem, 'PY20261201'));
    expect(counter!.last).toBe(50);
  });
});
