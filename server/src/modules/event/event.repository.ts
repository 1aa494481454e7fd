import type { ZEventListQuery } from '@aiedu/contracts';
import type { z } from 'zod';
import { and, count, desc, eq, gt, ilike, inArray, isNull, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import {
  customerCodeIs,
  customers,
  eventJudges,
  eventRegistrations,
  events,
  eventTeamMembers,
  eventWorks,
} from '../../platform/db/schema/index.js';
import type { EventRow } from './event-access.js';
import type { EventFacts } from './event.presenter.js';
import { preparedStatement } from '../../platform/db/prepared.js';

/** The customer a public request names by its `custcode`, or null. */
export async function customerOfCode(db: Db, custcode: string | undefined): Promise<string | null> {
  if (!custcode) return null;
  const [row] = await db
    .select({ id: customers.id, enabled: customers.enabled })
    .from(customers)
    .where(customerCodeIs(custcode));
  return row?.enabled ? row.id : null;
}

/** Whose events a caller sees: platform-wide ones, their customer's, and those of the customer the request names. */
export interface Viewer {
  auth: AuthContext | null;
  /** The customer named by the request's `custcode`. */
  namedCustomerId: string | null;
  isSuper: boolean;
}

export function visibleEvents(viewer: Viewer): SQL | undefined {
  if (viewer.isSuper) return undefined;
  const customerIds = [viewer.auth?.customerId, viewer.namedCustomerId].filter((c): c is string => Boolean(c));
  const eligible = viewer.auth?.customerId
    ? sql`${events.eligibility}->'customerIds' @> ${JSON.stringify([viewer.auth.customerId])}::jsonb`
    : undefined;
  return or(
    isNull(events.customerId),
    customerIds.length ? inArray(events.customerId, customerIds) : undefined,
    eligible,
  );
}

export function isVisible(viewer: Viewer, event: EventRow): boolean {
  if (viewer.isSuper || event.customerId === null) return true;
  if (event.customerId === viewer.auth?.customerId || event.customerId === viewer.namedCustomerId) return true;
  return Boolean(viewer.auth?.customerId && event.eligibility.customerIds.includes(viewer.auth.customerId));
}

function filters(query: z.output<typeof ZEventListQuery>, now: Date): (SQL | undefined)[] {
  const keyword = query.keyword?.trim();
  return [
    keyword ? ilike(events.name, `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    query.state === 'notStarted' ? gt(events.registrationStart, now) : undefined,
    query.state === 'inProgress' ? and(lte(events.registrationStart, now), gt(events.resultsAt, now)) : undefined,
    query.state === 'ended' ? lte(events.resultsAt, now) : undefined,
    query.track ? sql`${events.tracks} @> ${JSON.stringify([{ name: query.track }])}::jsonb` : undefined,
    query.stage
      ? sql`(${events.eligibility}->'stages' @> ${JSON.stringify([query.stage])}::jsonb or jsonb_array_length(coalesce(${events.eligibility}->'stages', '[]'::jsonb)) = 0)`
      : undefined,
  ];
}

export async function pageOfEvents(db: Db, viewer: Viewer, query: z.output<typeof ZEventListQuery>, now: Date) {
  const { page, size } = query;
  const where = and(isNull(events.deletedAt), visibleEvents(viewer), ...filters(query, now));
  const [total] = await db.select({ n: count() }).from(events).where(where);
  const rows = await db
    .select()
    .from(events)
    .where(where)
    .orderBy(desc(events.registrationStart), desc(events.id))
    .limit(size)
    .offset((page - 1) * size);
  return { rows, total: total?.n ?? 0, page, size };
}

/** Organiser names (the platform's for platform-wide events) and counts of teams (not ended) and works (sent, not closed) per event. */
/** One event's organiser name and counts, in one statement: what an event's page shows. */
const factsOfEvent = preparedStatement((db, name) => {
  const eventId = sql.placeholder('eventId');
  return db
    .select({
      organiserName: sql<
        string | null
      >`(select ${customers.name} from ${customers} where ${customers.id} = ${sql.placeholder('customerId')})`,
      teamCount: sql<number>`(select count(*)::int from ${eventRegistrations}
        where ${eventRegistrations.eventId} = ${eventId} and ${eventRegistrations.state} <> 'ended')`.mapWith(Number),
      workCount: sql<number>`(select count(*)::int from ${eventWorks}
        where ${eventWorks.eventId} = ${eventId} and ${eventWorks.state} not in ('DRAFT', 'CLOSED'))`.mapWith(Number),
    })
    .from(sql`(select 1) as one`)
    .prepare(name);
});

export async function factsOf(db: Db, rows: EventRow[], platformName: string): Promise<Map<string, EventFacts>> {
  const ids = rows.map((r) => r.id);
  const facts = new Map<string, EventFacts>();
  if (ids.length === 0) return facts;
  if (rows.length === 1) {
    const [row] = rows as [EventRow];
    const [one] = await factsOfEvent(db).execute({ eventId: row.id, customerId: row.customerId });
    facts.set(row.id, {
      organiserName: row.customerId ? (one?.organiserName ?? '') : platformName,
      teamCount: one?.teamCount ?? 0,
      workCount: one?.workCount ?? 0,
    });
    return facts;
  }
  const customerIds = [...new Set(rows.map((r) => r.customerId).filter((c): c is string => c !== null))];
  const names = customerIds.length
    ? await db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(inArray(customers.id, customerIds))
    : [];
  const teams = await db
    .select({ eventId: eventRegistrations.eventId, n: count() })
    .from(eventRegistrations)
    .where(and(inArray(eventRegistrations.eventId, ids), ne(eventRegistrations.state, 'ended')))
    .groupBy(eventRegistrations.eventId);
  const works = await db
    .select({ eventId: eventWorks.eventId, n: count() })
    .from(eventWorks)
    .where(and(inArray(eventWorks.eventId, ids), notInArray(eventWorks.state, ['DRAFT', 'CLOSED'])))
    .groupBy(eventWorks.eventId);
  for (const row of rows) {
    facts.set(row.id, {
      organiserName: row.customerId ? (names.find((n) => n.id === row.customerId)?.name ?? '') : platformName,
      teamCount: teams.find((t) => t.eventId === row.id)?.n ?? 0,
      workCount: works.find((w) => w.eventId === row.id)?.n ?? 0,
    });
  }
  return facts;
}

/** The caller's judge rows and team registrations among some events. */
export async function partsOf(db: Db, userId: string, eventIds: string[]) {
  if (eventIds.length === 0)
    return { judged: new Set<string>(), teams: new Map<string, typeof eventRegistrations.$inferSelect>() };
  const judged = await db
    .select({ eventId: eventJudges.eventId })
    .from(eventJudges)
    .where(and(eq(eventJudges.userId, userId), inArray(eventJudges.eventId, eventIds)));
  const member = db
    .select({ id: eventTeamMembers.registrationId })
    .from(eventTeamMembers)
    .where(and(eq(eventTeamMembers.userId, userId), inArray(eventTeamMembers.eventId, eventIds)));
  const teams = await db
    .select()
    .from(eventRegistrations)
    .where(
      and(
        inArray(eventRegistrations.eventId, eventIds),
        or(eq(eventRegistrations.leaderId, userId), inArray(eventRegistrations.id, member)),
      ),
    );
  return {
    judged: new Set(judged.map((j) => j.eventId)),
    teams: new Map(teams.map((t) => [t.eventId, t])),
  };
}

/** Every event the user takes part in: as a team member or leader, a judge, or an organiser of their scope. */
export async function eventsOfUser(db: Db, auth: AuthContext, organises: 'customer' | 'platform' | null) {
  const member = db
    .select({ id: eventTeamMembers.eventId })
    .from(eventTeamMembers)
    .where(eq(eventTeamMembers.userId, auth.userId));
  const led = db
    .select({ id: eventRegistrations.eventId })
    .from(eventRegistrations)
    .where(eq(eventRegistrations.leaderId, auth.userId));
  const judged = db.select({ id: eventJudges.eventId }).from(eventJudges).where(eq(eventJudges.userId, auth.userId));
  const organised =
    organises === 'platform'
      ? isNull(events.customerId)
      : organises === 'customer' && auth.customerId
        ? eq(events.customerId, auth.customerId)
        : undefined;
  return db
    .select()
    .from(events)
    .where(
      and(
        isNull(events.deletedAt),
        or(inArray(events.id, member), inArray(events.id, led), inArray(events.id, judged), organised),
      ),
    )
    .orderBy(desc(events.registrationStart));
}

/** The best placed work of each registration, once ranked. */
export async function bestPlaces(db: Db, registrationIds: string[]) {
  if (registrationIds.length === 0) return new Map<string, { rank: number; award: string | null }>();
  const rows = await db
    .select({ registrationId: eventWorks.registrationId, rank: eventWorks.rank, award: eventWorks.award })
    .from(eventWorks)
    .where(and(inArray(eventWorks.registrationId, registrationIds), sql`${eventWorks.rank} is not null`));
  const best = new Map<string, { rank: number; award: string | null }>();
  for (const r of rows) {
    const known = best.get(r.registrationId);
    if (!known || r.rank! < known.rank) best.set(r.registrationId, { rank: r.rank!, award: r.award });
  }
  return best;
}
