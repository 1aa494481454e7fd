import { ROLES } from '@aiedu/contracts';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import type { Database } from '../platform/db/client.js';
import {
  classes,
  courseCategories,
  courseDifficulties,
  customers,
  events,
  schools,
  students,
  teachers,
  users,
} from '../platform/db/schema/index.js';
import { verifyPassword } from '../platform/passwords.js';
import { createTestDatabase } from '../test/test-db.js';
import { DEMO, seedOnFirstStart } from './seed.js';

describe('demo data on first start', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    const result = await seedOnFirstStart(database.db, {
      seedDemo: true,
      superAdminPassword: undefined,
      today: new Date('2026-11-22T08:00:00+08:00'),
    });
    expect(result).toBe('demo');
  });
  afterAll(() => database.close());

  it('creates the super administrator in the public space with an argon2id hash', async () => {
    const [superAdmin] = await database.db.select().from(users).where(eq(users.username, 'super'));
    expect(superAdmin).toMatchObject({ customerId: null, roles: [ROLES.super] });
    expect(superAdmin!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(superAdmin!.passwordHash, 'Super@2026')).toBe(true);
    expect(await verifyPassword(superAdmin!.passwordHash, 'super@2026')).toBe(false);
  });

  it.each(DEMO.customers.map((c) => c.code))('creates customer %s with its school, staff and class', async (code) => {
    const db = database.db;
    const [customer] = await db.select().from(customers).where(eq(customers.code, code));
    expect(customer).toBeDefined();
    const customerId = customer!.id;
    const accounts = await db.select().from(users).where(eq(users.customerId, customerId));
    const byName = new Map(accounts.map((u) => [u.username, u]));
    expect(byName.get('admin')?.roles).toEqual([ROLES.customerAdmin]);
    expect(byName.get('school1')?.roles).toEqual([ROLES.schoolAdmin]);
    expect(byName.get('teacher1')?.roles).toEqual([ROLES.teacher]);
    expect(await verifyPassword(byName.get('admin')!.passwordHash, 'Admin@2026')).toBe(true);
    expect(await verifyPassword(byName.get('school1')!.passwordHash, 'School@2026')).toBe(true);
    expect(await verifyPassword(byName.get('teacher1')!.passwordHash, 'Teacher@2026')).toBe(true);
    expect(await verifyPassword(byName.get('student17')!.passwordHash, 'Student@2026')).toBe(true);

    const [teacher] = await db
      .select()
      .from(teachers)
      .where(eq(teachers.userId, byName.get('teacher1')!.id));
    expect(teacher?.certified).toBe(true);

    const schoolRows = await db.select().from(schools).where(eq(schools.customerId, customerId));
    expect(schoolRows).toHaveLength(1);
    const [klass] = await db.select().from(classes).where(eq(classes.customerId, customerId));
    expect(klass).toMatchObject({
      className: 'Grade 4 Class 1',
      grade: 4,
      startYear: 2023,
      schoolId: schoolRows[0]!.id,
    });

    const roster = await db
      .select({ username: users.username })
      .from(students)
      .innerJoin(users, eq(users.id, students.userId))
      .where(eq(students.classId, klass!.id))
      .orderBy(users.username);
    expect(roster.map((r) => r.username)).toEqual(
      Array.from({ length: 30 }, (_, i) => `student${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('keeps usernames unique per customer, not across customers', async () => {
    const [{ n } = { n: 0 }] = await database.db.select({ n: count() }).from(users).where(eq(users.username, 'admin'));
    expect(n).toBe(2);
    const [demo] = await database.db.select().from(customers).where(eq(customers.code, 'demo2026'));
    await expect(
      database.db.insert(users).values({ customerId: demo!.id, username: 'admin', passwordHash: 'x' }),
    ).rejects.toThrow();
    await expect(database.db.insert(users).values({ username: 'super', passwordHash: 'x' })).rejects.toThrow();
  });

  it('opens the demo customer’s contest for registration, organised by its administrator', async () => {
    const rows = await database.db
      .select({ event: events, customerCode: customers.code, organiser: users.username })
      .from(events)
      .innerJoin(customers, eq(customers.id, events.customerId))
      .innerJoin(users, eq(users.id, events.organiserId));
    expect(rows.map((r) => [r.event.name, r.customerCode, r.organiser])).toEqual([
      ['AI Creativity Contest 2026', 'demo2026', 'admin'],
    ]);
    const event = rows[0]!.event;
    expect(event.tracks.map((t) => t.kind)).toEqual(['judged', 'auto']);
    const today = new Date('2026-11-22T08:00:00+08:00').getTime();
    expect(event.registrationStart.getTime()).toBeLessThanOrEqual(today);
    expect(event.registrationEnd.getTime()).toBe(today + 30 * 86_400_000);
  });

  it('sets up the course centre’s directions, stages and difficulties', async () => {
    const categories = await database.db.select().from(courseCategories);
    expect(categories.filter((c) => c.kind === 'direction').map((c) => c.name)).toEqual([...DEMO.courseDirections]);
    expect(categories.filter((c) => c.kind === 'stage').map((c) => c.name)).toEqual([...DEMO.courseStages]);
    const difficulties = await database.db.select().from(courseDifficulties);
    expect(difficulties.map((d) => d.name)).toEqual([...DEMO.courseDifficulties]);
  });

  it('does nothing on a later start', async () => {
    const result = await seedOnFirstStart(database.db, { seedDemo: true, superAdminPassword: undefined });
    expect(result).toBe('skipped');
    const [{ n } = { n: 0 }] = await database.db.select({ n: count() }).from(users).where(isNull(users.customerId));
    expect(n).toBe(1);
  });
});

describe('production start (SEED_DEMO=false)', () => {
  it('refuses an empty database without SUPER_ADMIN_PASSWORD and creates nothing', async () => {
    const database = await createTestDatabase();
    try {
      await expect(seedOnFirstStart(database.db, { seedDemo: false, superAdminPassword: undefined })).rejects.toThrow(
        ConfigError,
      );
      expect(await database.db.select().from(users)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('seeds once when several processes start on the empty database at the same moment', async () => {
    const database = await createTestDatabase();
    try {
      const options = { seedDemo: false, superAdminPassword: 'Chosen#Pass99' };
      const results = await Promise.all([1, 2, 3].map(() => seedOnFirstStart(database.db, options)));
      expect(results.sort()).toEqual(['production', 'skipped', 'skipped']);
      expect(await database.db.select().from(users)).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('creates only the super administrator with the configured password', async () => {
    const database = await createTestDatabase();
    try {
      const result = await seedOnFirstStart(database.db, { seedDemo: false, superAdminPassword: 'Chosen#Pass99' });
      expect(result).toBe('production');
      const all = await database.db.select().from(users);
      expect(all.map((u) => u.username)).toEqual(['super']);
      expect(await verifyPassword(all[0]!.passwordHash, 'Chosen#Pass99')).toBe(true);
      expect(await database.db.select().from(customers)).toEqual([]);
      expect(
        await database.db
          .select()
          .from(users)
          .where(and(eq(users.username, 'super'), isNull(users.customerId))),
      ).toHaveLength(1);
    } finally {
      await database.close();
    }
  });
});
