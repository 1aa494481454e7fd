import { and, count, desc, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { classroomSessions, lessonNotes } from '../../platform/db/schema/index.js';

export type SessionRow = typeof classroomSessions.$inferSelect;
export type SessionStatus = SessionRow['status'];
type SessionChange = Partial<
  Pick<SessionRow, 'status' | 'mode' | 'sectionId' | 'startedBy' | 'startedAt' | 'finishedAt'>
>;

export async function findSession(db: Db, id: string): Promise<SessionRow | null> {
  const [row] = await db.select().from(classroomSessions).where(eq(classroomSessions.id, id));
  return row ?? null;
}

/**
 * The session each schedule shows: its open one (not started or teaching), else its latest finished one. One
 * query for any number of schedules (the live hub asks for all those it serves).
 */
export async function currentSessions(db: Db, scheduleIds: string[]): Promise<Map<string, SessionRow>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([classroomSessions.scheduleId])
    .from(classroomSessions)
    .where(inArray(classroomSessions.scheduleId, scheduleIds))
    .orderBy(
      classroomSessions.scheduleId,
      desc(sql`${classroomSessions.status} <> 'finished'`),
      desc(classroomSessions.createdAt),
    );
  return new Map(rows.map((r) => [r.scheduleId, r]));
}

/** A new session, or null when the schedule already has one that is not finished. */
export async function insertSession(
  db: Db,
  values: Pick<SessionRow, 'scheduleId' | 'customerId' | 'schoolId' | 'openedBy'>,
): Promise<SessionRow | null> {
  const [row] = await db.insert(classroomSessions).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/**
 * Changes a session that is in one of the states `from`, in one statement, and moves its revision on; null when
 * it is in none of them (a move made meanwhile by another teacher), so a change is never made twice.
 */
export async function changeSession(
  db: Db,
  id: string,
  from: readonly SessionStatus[],
  change: SessionChange,
  /** The schedule the caller checked: a session of another one is not changed. */
  scheduleId?: string,
): Promise<SessionRow | null> {
  const [row] = await db
    .update(classroomSessions)
    .set({ ...change, revision: sql`${classroomSessions.revision} + 1` })
    .where(
      and(
        eq(classroomSessions.id, id),
        inArray(classroomSessions.status, [...from]),
        scheduleId ? eq(classroomSessions.scheduleId, scheduleId) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function notesOf(db: Db, scheduleId: string) {
  return db.select().from(lessonNotes).where(eq(lessonNotes.scheduleId, scheduleId));
}

export async function putNote(db: Db, values: typeof lessonNotes.$inferInsert) {
  const [row] = await db
    .insert(lessonNotes)
    .values(values)
    .onConflictDoUpdate({
      target: [lessonNotes.scheduleId, lessonNotes.sectionId],
      set: { body: values.body, updatedBy: values.updatedBy, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

/** Sessions started since `since` within `scope`, counted per school and per teacher who started them. */
export async function countSessionsStarted(db: Db, scope: SQL | undefined, since: Date) {
  const where = and(scope, isNotNull(classroomSessions.startedAt), gte(classroomSessions.startedAt, since));
  const [bySchool, byTeacher] = await Promise.all([
    db
      .select({ schoolId: classroomSessions.schoolId, sessions: count() })
      .from(classroomSessions)
      .where(where)
      .groupBy(classroomSessions.schoolId),
    db
      .select({ teacherId: classroomSessions.startedBy, schoolId: classroomSessions.schoolId, sessions: count() })
      .from(classroomSessions)
      .where(and(where, isNotNull(classroomSessions.startedBy)))
      .groupBy(classroomSessions.startedBy, classroomSessions.schoolId),
  ]);
  return { bySchool, byTeacher: byTeacher.map((r) => ({ ...r, teacherId: r.teacherId! })) };
}
