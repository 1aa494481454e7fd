import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  EVENT_LIMITS,
  type RegistrationState,
  type TRegistration,
  type ZQualificationDecision,
  type ZQualificationQuery,
  type ZSaveRegistration,
} from '@aiedu/contracts';
import { and, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { eventRegistrations, eventTeamMembers, schools, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { readUpload } from '../../platform/uploads.js';
import { datesOf, findEvent, isOrganiser, organisedEvent, teamOf, type EventRow } from './event-access.js';
import { registrationOpen } from './event-clock.js';
import { presentRegistration, registrationStateNow, type RegistrationRow } from './event.presenter.js';
import { isEligible, viewerOf, visibleEvent } from './event.service.js';

type SaveRegistration = z.output<typeof ZSaveRegistration>;
type QualificationQuery = z.output<typeof ZQualificationQuery>;
type QualificationDecision = z.output<typeof ZQualificationDecision>;

/** Declaration photos: personal data, read through signed links by the team and the organisers only. */
const PHOTO_FOLDER = 'events/photos';
const PHOTO_KEY = new RegExp(`^${PHOTO_FOLDER}/[0-9a-f-]{36}\\.png$`);

/** A registration with its members, leader and school, as the team or the organisers read it (personal data). */
async function fullRegistration(ctx: AppContext, db: Db, event: EventRow, row: RegistrationRow) {
  const members = await db.select().from(eventTeamMembers).where(eq(eventTeamMembers.registrationId, row.id));
  const [facts] = await db
    .select({ leaderName: users.realName, username: users.username, schoolName: schools.name })
    .from(users)
    .leftJoin(schools, eq(schools.id, row.schoolId ?? users.schoolId))
    .where(eq(users.id, row.leaderId));
  const leaderName = facts?.leaderName || facts?.username || '';
  return presentRegistration(ctx, event, row, members, { leaderName, schoolName: facts?.schoolName ?? '' }, true);
}

function assertRegistrationOpen(ctx: AppContext, event: EventRow) {
  if (!registrationOpen(datesOf(event), ctx.now())) throw new AppError('EVENT_PHASE_CLOSED', { phase: 'registration' });
}

/** The caller's team in an event they may see, with full data; or null. */
export async function getRegistration(ctx: AppContext, auth: AuthContext, eventId: string) {
  const event = await visibleEvent(ctx, await viewerOf(ctx, auth), eventId);
  const team = await teamOf(ctx.db, auth, eventId);
  return team ? fullRegistration(ctx, ctx.db, event, team) : null;
}

/** Spec 5's team rules: applicants and mentors within the event's limits, at least one of each. */
function assertTeamCounts(event: EventRow, members: SaveRegistration['members']) {
  const applicants = members.filter((m) => m.role === 'applicant').length;
  const mentors = members.length - applicants;
  const ok =
    applicants >= Math.max(1, event.teamMin) &&
    applicants <= event.teamMax &&
    mentors >= Math.max(1, event.mentorMin) &&
    mentors <= event.mentorMax;
  if (!ok) throw new AppError('EVENT_TEAM_INVALID', { applicants, mentors });
}

/** Members with accounts: distinct, of the caller's customer, and in no other team of the event (4505). */
async function assertMembersFree(
  ctx: AppContext,
  auth: AuthContext,
  event: EventRow,
  body: SaveRegistration,
  own?: string,
) {
  const userIds = body.members.map((m) => m.userId).filter((u): u is string => Boolean(u));
  if (new Set(userIds).size !== userIds.length) throw new AppError('EVENT_ALREADY_REGISTERED', { reason: 'repeated' });
  if (userIds.length === 0) return;
  const accounts = await ctx.db
    .select({ id: users.id, customerId: users.customerId })
    .from(users)
    .where(inArray(users.id, userIds));
  if (accounts.length !== userIds.length || accounts.some((a) => a.customerId !== auth.customerId)) {
    throw new AppError('EVENT_ALREADY_REGISTERED', { reason: 'accounts' });
  }
  const other = (registrationId: SQL | undefined) =>
    own ? and(registrationId, ne(eventRegistrations.id, own)) : registrationId;
  const taken = await ctx.db
    .select({ id: eventRegistrations.id })
    .from(eventRegistrations)
    .leftJoin(eventTeamMembers, eq(eventTeamMembers.registrationId, eventRegistrations.id))
    .where(
      other(
        and(
          eq(eventRegistrations.eventId, event.id),
          or(inArray(eventTeamMembers.userId, userIds), inArray(eventRegistrations.leaderId, userIds)),
        ),
      ),
    )
    .limit(1);
  if (taken.length > 0) throw new AppError('EVENT_ALREADY_REGISTERED', { reason: 'another team' });
  const [sameName] = await ctx.db
    .select({ id: eventRegistrations.id })
    .from(eventRegistrations)
    .where(other(and(eq(eventRegistrations.eventId, event.id), eq(eventRegistrations.teamName, body.teamName))));
  if (sameName) throw new AppError('EVENT_ALREADY_REGISTERED', { reason: 'team name' });
}

/**
 * Creates the caller's team, or updates it while in progress: during registration by the server's clock (4501),
 * when eligible (4502), with the caller among the members (or leading), members free (4505) and counts right (4504).
 */
export async function saveRegistration(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  body: SaveRegistration,
) {
  const event = await visibleEvent(ctx, await viewerOf(ctx, auth), body.eventId);
  assertRegistrationOpen(ctx, event);
  if (!(await isEligible(ctx, auth, event))) throw new AppError('EVENT_NOT_ELIGIBLE');
  if (!event.tracks.some((t) => t.id === body.trackId)) throw new AppError('BAD_REQUEST', { reason: 'trackId' });
  if (body.members.some((m) => m.photoKey && !PHOTO_KEY.test(m.photoKey))) {
    throw new AppError('BAD_REQUEST', { reason: 'photoKey' });
  }
  const existing = await teamOf(ctx.db, auth, event.id);
  if (existing && registrationStateNow(ctx, event, existing.state) !== 'inProgress') {
    throw new AppError('EVENT_STATE_INVALID', { state: existing.state });
  }
  const leads = existing?.leaderId === auth.userId;
  if (!leads && !body.members.some((m) => m.userId === auth.userId)) {
    throw new AppError('EVENT_TEAM_INVALID', { reason: 'the caller is not in the team' });
  }
  assertTeamCounts(event, body.members);
  await assertMembersFree(ctx, auth, event, body, existing?.id);
  const [caller] = await ctx.db.select({ schoolId: users.schoolId }).from(users).where(eq(users.id, auth.userId));
  const saved = await ctx.db.transaction(async (tx) => {
    const fields = { trackId: body.trackId, teamName: body.teamName, updatedAt: ctx.now() };
    const [row] = existing
      ? await tx
          .update(eventRegistrations)
          .set(fields)
          .where(and(eq(eventRegistrations.id, existing.id), eq(eventRegistrations.state, 'inProgress')))
          .returning()
      : await tx
          .insert(eventRegistrations)
          .values({
            ...fields,
            eventId: event.id,
            leaderId: auth.userId,
            customerId: auth.customerId,
            schoolId: caller?.schoolId ?? null,
          })
          .returning();
    if (!row) throw new AppError('EVENT_STATE_INVALID');
    await tx.delete(eventTeamMembers).where(eq(eventTeamMembers.registrationId, row.id));
    await tx
      .insert(eventTeamMembers)
      .values(body.members.map((m, position) => ({ ...m, registrationId: row.id, eventId: event.id, position })));
    await writeAudit(tx, request, {
      module: 'event',
      operation: existing ? 'update' : 'create',
      params: { eventId: event.id, registrationId: row.id, teamName: body.teamName },
    });
    return row;
  });
  return fullRegistration(ctx, ctx.db, event, saved);
}

/** The caller's own registration by id (1004 for anyone else's). */
async function ownRegistration(ctx: AppContext, auth: AuthContext, registrationId: string) {
  const [row] = await ctx.db.select().from(eventRegistrations).where(eq(eventRegistrations.id, registrationId));
  if (!row) throw new AppError('NOT_FOUND');
  const team = await teamOf(ctx.db, auth, row.eventId);
  if (team?.id !== row.id) throw new AppError('NOT_FOUND');
  return { row, event: await findEvent(ctx.db, row.eventId) };
}

/** Moves a registration from one state to another, refusing (4503) when it is no longer in `from`. */
async function move(
  ctx: AppContext,
  request: FastifyRequest,
  target: { event: EventRow; row: RegistrationRow },
  from: RegistrationState[],
  to: Partial<typeof eventRegistrations.$inferInsert>,
  operation: string,
) {
  const { event, row } = target;
  if (!from.includes(registrationStateNow(ctx, event, row.state))) {
    throw new AppError('EVENT_STATE_INVALID', { state: registrationStateNow(ctx, event, row.state) });
  }
  return ctx.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(eventRegistrations)
      .set({ ...to, updatedAt: ctx.now() })
      .where(and(eq(eventRegistrations.id, row.id), eq(eventRegistrations.state, row.state)))
      .returning();
    if (!moved) throw new AppError('EVENT_STATE_INVALID');
    await writeAudit(tx, request, {
      module: 'event',
      operation,
      params: { eventId: event.id, registrationId: row.id, teamName: row.teamName, state: moved.state },
      customerId: event.customerId ?? row.customerId,
    });
    return fullRegistration(ctx, tx, event, moved);
  });
}

/** The team sends its declaration for the qualification audit, while registration is open (4501). */
export async function submitRegistration(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  const target = await ownRegistration(ctx, auth, id);
  assertRegistrationOpen(ctx, target.event);
  const to = { state: 'pendingReview' as const, submittedAt: ctx.now(), refuseReason: null };
  return move(ctx, request, target, ['inProgress'], to, 'submit');
}

export async function withdrawRegistration(ctx: AppContext, request: FastifyRequest, auth: AuthContext, id: string) {
  const target = await ownRegistration(ctx, auth, id);
  return move(ctx, request, target, ['inProgress', 'pendingReview', 'passed'], { state: 'ended' }, 'withdraw');
}

/** Registrations of an event for its organisers, by state as the API answers it (by the server's clock). */
export async function listQualification(ctx: AppContext, auth: AuthContext, query: QualificationQuery) {
  const event = await organisedEvent(ctx.db, auth, query.eventId);
  const closed = ctx.now().getTime() >= event.registrationEnd.getTime();
  const stored: RegistrationState[] = !query.state
    ? ['inProgress', 'pendingReview', 'passed', 'ended']
    : query.state === 'passed'
      ? ['passed']
      : query.state === 'ended'
        ? closed
          ? ['inProgress', 'ended']
          : ['ended']
        : closed && query.state === 'inProgress'
          ? []
          : [query.state];
  const keyword = query.keyword?.trim();
  const where = and(
    eq(eventRegistrations.eventId, event.id),
    stored.length ? inArray(eventRegistrations.state, stored) : sql`false`,
    keyword ? ilike(eventRegistrations.teamName, `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(eventRegistrations).where(where);
  const rows = await ctx.db
    .select()
    .from(eventRegistrations)
    .where(where)
    .orderBy(desc(eventRegistrations.submittedAt), desc(eventRegistrations.createdAt))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const list: TRegistration[] = [];
  for (const row of rows) list.push(await fullRegistration(ctx, ctx.db, event, row));
  return { list, total: total?.n ?? 0, page: query.page, size: query.size };
}

/** Pass (→ passed) or refuse with a reason (→ inProgress to correct, or ended when final) a pending registration. */
export async function decideQualification(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  decision: QualificationDecision,
) {
  const [row] = await ctx.db
    .select()
    .from(eventRegistrations)
    .where(eq(eventRegistrations.id, decision.registrationId));
  if (!row) throw new AppError('NOT_FOUND');
  const event = await findEvent(ctx.db, row.eventId);
  if (!isOrganiser(auth, event)) throw new AppError('NOT_FOUND');
  const decided = { decidedAt: ctx.now(), decidedBy: auth.userId };
  const to =
    decision.decision === 'pass'
      ? { ...decided, state: 'passed' as const, refuseReason: null }
      : {
          ...decided,
          state: decision.final ? ('ended' as const) : ('inProgress' as const),
          refuseReason: decision.reason,
        };
  return move(ctx, request, { event, row }, ['pendingReview'], to, 'qualify');
}

/** A declaration photo: JPG or PNG up to 2 MB, checked by its bytes and re-encoded. */
export async function uploadPhoto(ctx: AppContext, request: FastifyRequest) {
  const upload = await readUpload(request, EVENT_LIMITS.photoBytes);
  const png = await reencodeImage(upload.bytes, ['jpeg', 'png'], { width: 800, height: 800, fit: 'inside' });
  const key = `${PHOTO_FOLDER}/${randomUUID()}.png`;
  await ctx.storage.put(key, Readable.from([png]), { maxBytes: EVENT_LIMITS.imageBytes });
  return { key, url: ctx.storage.signedUrl(key, { expiresInSeconds: 6 * 3600 }) };
}
