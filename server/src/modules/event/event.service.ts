import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  EVENT_LIMITS,
  hasPermission,
  ROLES,
  type TEvent,
  type TMyContest,
  type ZCreateEventRequest,
  type ZEventListQuery,
  type ZUpdateEventRequest,
} from '@aiedu/contracts';
import type { z } from 'zod';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { classes, eventRegistrations, events, students } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { reencodeImage } from '../../platform/images.js';
import { readUpload } from '../../platform/uploads.js';
import { readSystemSettings } from '../system/system-config.service.js';
import { isOrganiser, organisedEvent, readEvent, type EventRow } from './event-access.js';
import { IMAGE_FOLDER, imageUrl, presentEventBase, registrationStateNow } from './event.presenter.js';
import {
  bestPlaces,
  customerOfCode,
  eventsOfUser,
  factsOf,
  isVisible,
  pageOfEvents,
  partsOf,
  type Viewer,
} from './event.repository.js';

type CreateEvent = z.output<typeof ZCreateEventRequest>;
type UpdateEvent = z.output<typeof ZUpdateEventRequest>;
export type EventListQuery = z.output<typeof ZEventListQuery>;

const IMAGE_KEY = new RegExp(`^${IMAGE_FOLDER}/[0-9a-f-]{36}\\.png$`);

export async function viewerOf(ctx: AppContext, auth: AuthContext | null, custcode?: string): Promise<Viewer> {
  return {
    auth,
    namedCustomerId: await customerOfCode(ctx.db, custcode),
    isSuper: Boolean(auth?.roles.includes(ROLES.super)),
  };
}

/** An event the viewer may see, else 1004. */
export async function visibleEvent(ctx: AppContext, viewer: Viewer, eventId: string): Promise<EventRow> {
  const event = await readEvent(ctx.db, eventId);
  if (!isVisible(viewer, event)) throw new AppError('NOT_FOUND');
  return event;
}

/**
 * Whether the caller may register for the event: `event.take`; their customer among those the eligibility names
 * (or the event's customer, any customer for platform-wide events); a student's class in the stages and grades set.
 */
export async function isEligible(ctx: AppContext, auth: AuthContext | null, event: EventRow): Promise<boolean> {
  if (!auth || !auth.customerId || !hasPermission(auth.roles, 'event.take')) return false;
  const { customerIds, stages, grades } = event.eligibility;
  if (
    customerIds.length > 0
      ? !customerIds.includes(auth.customerId)
      : event.customerId !== null && event.customerId !== auth.customerId
  ) {
    return false;
  }
  if (stages.length === 0 && grades.length === 0) return true;
  const [klass] = await ctx.db
    .select({ stage: classes.eduStage, grade: classes.grade })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(eq(students.userId, auth.userId));
  if (!klass) return true;
  if (stages.length > 0 && !stages.includes(klass.stage as (typeof stages)[number])) return false;
  return grades.length === 0 || grades.includes(klass.grade);
}

async function present(ctx: AppContext, viewer: Viewer, rows: EventRow[]): Promise<TEvent[]> {
  const platformName = rows.some((r) => r.customerId === null)
    ? ((await readSystemSettings(ctx.db)).platformName ?? '')
    : '';
  const facts = await factsOf(ctx.db, rows, platformName);
  const auth = viewer.auth;
  const parts = auth
    ? await partsOf(
        ctx.db,
        auth.userId,
        rows.map((r) => r.id),
      )
    : null;
  return Promise.all(
    rows.map(async (row) => ({
      ...presentEventBase(ctx, row, facts.get(row.id)!),
      viewer: {
        organiser: isOrganiser(auth, row),
        judge: parts?.judged.has(row.id) ?? false,
        registrationId: parts?.teams.get(row.id)?.id ?? null,
        eligible: await isEligible(ctx, auth, row),
      },
    })),
  );
}

export async function listEvents(ctx: AppContext, viewer: Viewer, query: EventListQuery) {
  const { rows, total, page, size } = await pageOfEvents(ctx.db, viewer, query, ctx.now());
  return { list: await present(ctx, viewer, rows), total, page, size };
}

export async function eventDetail(ctx: AppContext, viewer: Viewer, eventId: string): Promise<TEvent> {
  const event = await visibleEvent(ctx, viewer, eventId);
  return (await present(ctx, viewer, [event]))[0]!;
}

function checkFields(body: CreateEvent) {
  const ids = (body.tracks ?? []).map((t) => t.id);
  if (new Set(ids).size !== ids.length) throw new AppError('BAD_REQUEST', { reason: 'track ids repeat' });
  if (body.coverKey && !IMAGE_KEY.test(body.coverKey)) throw new AppError('BAD_REQUEST', { reason: 'coverKey' });
}

function valuesOf(body: CreateEvent) {
  const p = body.phases;
  return {
    name: body.name,
    coverKey: body.coverKey,
    description: body.description,
    tracks: body.tracks,
    registrationStart: new Date(p.registrationStart),
    registrationEnd: new Date(p.registrationEnd),
    submissionStart: new Date(p.submissionStart),
    submissionEnd: new Date(p.submissionEnd),
    reviewStart: new Date(p.reviewStart),
    reviewEnd: new Date(p.reviewEnd),
    resultsAt: new Date(p.resultsAt),
    eligibility: body.eligibility,
    teamMin: body.teamMin,
    teamMax: body.teamMax,
    mentorMin: body.mentorMin,
    mentorMax: body.mentorMax,
    awards: body.awards,
    tieRule: body.tieRule,
  };
}

/** Spec: organisers create events of their customer; super administrators alone create platform-wide ones. */
export async function createEvent(ctx: AppContext, request: FastifyRequest, auth: AuthContext, body: CreateEvent) {
  checkFields(body);
  const isSuper = auth.roles.includes(ROLES.super);
  if (body.platformWide ? !isSuper : !auth.customerId) throw new AppError('NO_PERMISSION_PAGE');
  const customerId = body.platformWide ? null : auth.customerId;
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(events)
      .values({ ...valuesOf(body), customerId, organiserId: auth.userId })
      .returning();
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'create',
      params: { eventId: created!.id, name: body.name, platformWide: customerId === null },
      customerId,
    });
    return created!;
  });
  return eventDetail(ctx, await viewerOf(ctx, auth), row.id);
}

/** Any change before the results are published (4509 after); a track teams registered for stays. */
export async function updateEvent(ctx: AppContext, request: FastifyRequest, auth: AuthContext, body: UpdateEvent) {
  checkFields(body);
  const event = await organisedEvent(ctx.db, auth, body.id);
  if (Boolean(body.platformWide) !== (event.customerId === null))
    throw new AppError('BAD_REQUEST', { reason: 'platformWide' });
  if (event.resultsPublishedAt) throw new AppError('EVENT_RESULTS_PUBLISHED');
  const kept = new Set(body.tracks.map((t) => t.id));
  const used = await ctx.db
    .selectDistinct({ trackId: eventRegistrations.trackId })
    .from(eventRegistrations)
    .where(eq(eventRegistrations.eventId, event.id));
  const dropped = used.filter((u) => !kept.has(u.trackId));
  if (dropped.length > 0) throw new AppError('EVENT_STATE_INVALID', { tracks: dropped.map((d) => d.trackId) });
  await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(events)
      .set({ ...valuesOf(body), updatedAt: ctx.now() })
      .where(and(eq(events.id, event.id), isNull(events.resultsPublishedAt), isNull(events.deletedAt)))
      .returning({ id: events.id });
    if (!updated) throw new AppError('EVENT_RESULTS_PUBLISHED');
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'update',
      params: { eventId: event.id, name: body.name },
      customerId: event.customerId,
    });
  });
  return eventDetail(ctx, await viewerOf(ctx, auth), event.id);
}

/** A soft delete, refused once any team registered (4503). */
export async function deleteEvent(ctx: AppContext, request: FastifyRequest, auth: AuthContext, eventId: string) {
  const event = await organisedEvent(ctx.db, auth, eventId);
  await ctx.db.transaction(async (tx) => {
    const [teams] = await tx
      .select({ n: count() })
      .from(eventRegistrations)
      .where(eq(eventRegistrations.eventId, event.id));
    if ((teams?.n ?? 0) > 0) throw new AppError('EVENT_STATE_INVALID', { registrations: teams!.n });
    await tx.update(events).set({ deletedAt: ctx.now() }).where(eq(events.id, event.id));
    await writeAudit(tx, request, {
      module: 'event',
      operation: 'delete',
      params: { eventId: event.id, name: event.name },
      customerId: event.customerId,
    });
  });
}

/** The caller's contests, newest first, with their parts and, once results are out, their team's best place. */
export async function myContests(ctx: AppContext, auth: AuthContext): Promise<TMyContest[]> {
  const organises = hasPermission(auth.roles, 'event.manage')
    ? auth.roles.includes(ROLES.super)
      ? 'platform'
      : 'customer'
    : null;
  const rows = await eventsOfUser(ctx.db, auth, organises);
  const viewer = await viewerOf(ctx, auth);
  const presented = await present(ctx, { ...viewer, isSuper: true }, rows);
  const parts = await partsOf(
    ctx.db,
    auth.userId,
    rows.map((r) => r.id),
  );
  const places = await bestPlaces(
    ctx.db,
    [...parts.teams.values()].map((t) => t.id),
  );
  return rows.map((row, i) => {
    const { viewer: part, ...event } = presented[i]!;
    const team = parts.teams.get(row.id);
    const place = team && row.resultsPublishedAt ? places.get(team.id) : undefined;
    const roles: TMyContest['roles'] = [];
    if (team) roles.push('team');
    if (part.judge) roles.push('judge');
    if (part.organiser) roles.push('organiser');
    return {
      event,
      roles,
      registrationState: team ? registrationStateNow(ctx, row, team.state) : null,
      rank: place?.rank ?? null,
      award: place?.award ?? null,
    };
  });
}

/** An event image: JPG or PNG up to 10 MB, checked by its bytes and re-encoded. */
export async function uploadEventImage(ctx: AppContext, request: FastifyRequest) {
  const upload = await readUpload(request, EVENT_LIMITS.imageBytes);
  const png = await reencodeImage(upload.bytes, ['jpeg', 'png'], { width: 2560, height: 2560, fit: 'inside' });
  const key = `${IMAGE_FOLDER}/${randomUUID()}.png`;
  await ctx.storage.put(key, Readable.from([png]), { maxBytes: EVENT_LIMITS.imageBytes });
  return { key, url: imageUrl(key)! };
}

/** Streams an event image: public, as the events that show it are. */
export async function sendEventFile(ctx: AppContext, reply: FastifyReply, key: string) {
  if (!IMAGE_KEY.test(key)) throw new AppError('NOT_FOUND');
  const { stream, size } = await ctx.storage.get(key);
  reply.header('cache-control', 'public, max-age=86400, immutable').header('content-length', size).type('image/png');
  return reply.send(stream);
}
