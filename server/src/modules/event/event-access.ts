import { hasPermission, ROLES } from '@aiedu/contracts';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import {
  eventJudges,
  events,
  eventTeamMembers,
  eventRegistrations,
  eventWorkRounds,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { preparedStatement } from '../../platform/db/prepared.js';

/**
 * Who may see and do what in an event. Organisers: holders of `event.manage` in the event's customer (super
 * administrators for platform-wide events, `customer_id` null). Judges: named per event. Teams: the accounts among
 * a registration's members. Anyone else who asks for an event's private rows is answered 1004, so an id is never
 * confirmed to exist.
 */

export type EventRow = typeof events.$inferSelect;

export async function findEvent(db: Db, eventId: string): Promise<EventRow> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

const eventById = preparedStatement((db, name) =>
  db
    .select()
    .from(events)
    .where(and(eq(events.id, sql.placeholder('eventId')), isNull(events.deletedAt)))
    .prepare(name),
);

/** `findEvent` as a prepared statement, for reads outside a transaction (every event page opens with one). */
export async function readEvent(db: Db, eventId: string): Promise<EventRow> {
  const [row] = await eventById(db).execute({ eventId });
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export function isOrganiser(auth: AuthContext | null | undefined, event: Pick<EventRow, 'customerId'>): boolean {
  if (!auth || !hasPermission(auth.roles, 'event.manage')) return false;
  if (auth.roles.includes(ROLES.super)) return true;
  return event.customerId !== null && event.customerId === auth.customerId;
}

/** The event, when the caller organises it; else 1004. */
export async function organisedEvent(db: Db, auth: AuthContext, eventId: string): Promise<EventRow> {
  const event = await findEvent(db, eventId);
  if (!isOrganiser(auth, event)) throw new AppError('NOT_FOUND');
  return event;
}

/** The caller's judge rows in an event (one per round they score in); none for a caller who does not judge it. */
export async function judgeSeats(db: Db, auth: AuthContext, eventId: string) {
  return db
    .select()
    .from(eventJudges)
    .where(and(eq(eventJudges.eventId, eventId), eq(eventJudges.userId, auth.userId)))
    .orderBy(eventJudges.round);
}

type Seat = { round: number; groupNo: number };

/** Rows placed in one of the seats' round and group, by the columns holding a row's round and group. */
export function inSeats(seats: readonly Seat[], round: AnyPgColumn, group: AnyPgColumn): SQL {
  return or(...seats.map((s) => and(eq(round, s.round), eq(group, s.groupNo))))!;
}

/** Whether the caller judges a work: in its group of its round, or in its group of a closed round it was in. */
export async function judgesWork(
  db: Db,
  auth: AuthContext,
  work: { id: string; eventId: string; reviewRound: number; judgeGroup: number | null },
) {
  const seats = await judgeSeats(db, auth, work.eventId);
  if (seats.length === 0) return false;
  if (seats.some((s) => s.round === work.reviewRound && s.groupNo === work.judgeGroup)) return true;
  const [past] = await db
    .select({ round: eventWorkRounds.round })
    .from(eventWorkRounds)
    .where(and(eq(eventWorkRounds.workId, work.id), inSeats(seats, eventWorkRounds.round, eventWorkRounds.groupNo)))
    .limit(1);
  return past !== undefined;
}

/** The registration of the caller's team in an event (as its leader or a member with an account), or null. */
export async function teamOf(db: Db, auth: AuthContext, eventId: string) {
  const [row] = await db
    .select({ registration: eventRegistrations })
    .from(eventRegistrations)
    .leftJoin(
      eventTeamMembers,
      and(eq(eventTeamMembers.registrationId, eventRegistrations.id), eq(eventTeamMembers.userId, auth.userId)),
    )
    .where(and(eq(eventRegistrations.eventId, eventId), eq(eventTeamMembers.userId, auth.userId)))
    .limit(1);
  if (row) return row.registration;
  const [led] = await db
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.leaderId, auth.userId)))
    .limit(1);
  return led ?? null;
}

/** The phase dates of an event row, for `event-clock.ts`. */
export const datesOf = (event: EventRow) => ({
  registrationStart: event.registrationStart,
  registrationEnd: event.registrationEnd,
  submissionStart: event.submissionStart,
  submissionEnd: event.submissionEnd,
  reviewStart: event.reviewStart,
  reviewEnd: event.reviewEnd,
  resultsAt: event.resultsAt,
});
