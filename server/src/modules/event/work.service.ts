import {
  canMoveWork,
  PROJECT_LIMITS,
  type TSaveWork,
  type TUpdateWork,
  type TWork,
  type TWorkAuditDecision,
  type WorkState,
} from '@aiedu/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { eventTeamMembers, eventWorks, projects, projectVersions } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { createVersion } from '../project/version.service.js';
import type { RuntimeDriver } from '../runtime/runtime-driver.js';
import { findEvent, isOrganiser, judgesWork, teamOf, datesOf, type EventRow } from './event-access.js';
import { submissionOpen } from './event-clock.js';
import { viewerOf, visibleEvent } from './event.service.js';
import { findWork, workView, workViews, type WorkRow } from './work.repository.js';

type Registration = NonNullable<Awaited<ReturnType<typeof teamOf>>>;

/** Covers are stored under this folder by the cover upload; a work names only such a key. */
export const COVER_FOLDER = 'events/work-covers';
export const VIDEO_FOLDER = 'events/work-videos';
const COVER_KEY = new RegExp(`^${COVER_FOLDER}/[0-9a-f-]{36}\\.png$`);

/** Every change a team makes to a work happens while submission is open, by the server's clock (4501). */
export function assertSubmissionOpen(ctx: AppContext, event: EventRow) {
  if (!submissionOpen(datesOf(event), ctx.now())) throw new AppError('EVENT_PHASE_CLOSED');
}

export function assertMove(from: WorkState, to: WorkState) {
  if (!canMoveWork(from, to)) throw new AppError('EVENT_STATE_INVALID', { from, to });
}

/** The caller's team's registration, passed by the qualification audit (4514 otherwise). */
async function passedTeam(ctx: AppContext, auth: AuthContext, eventId: string): Promise<Registration> {
  const team = await teamOf(ctx.db, auth, eventId);
  if (!team || team.state !== 'passed') throw new AppError('EVENT_NOT_QUALIFIED');
  return team;
}

/** A work of the caller's team, with its event; 1004 for anyone else. */
export async function teamWork(ctx: AppContext, auth: AuthContext, workId: string) {
  const work = await findWork(ctx.db, workId);
  const event = await findEvent(ctx.db, work.eventId);
  const team = await teamOf(ctx.db, auth, event.id);
  if (!team || team.id !== work.registrationId) throw new AppError('NOT_FOUND');
  return { work, event, team };
}

/** The accounts of a team: its leader and its members with an account. */
export async function teamAccounts(db: Db, registration: Pick<Registration, 'id' | 'leaderId'>) {
  const rows = await db
    .select({ userId: eventTeamMembers.userId })
    .from(eventTeamMembers)
    .where(eq(eventTeamMembers.registrationId, registration.id));
  return new Set([registration.leaderId, ...rows.flatMap((r) => (r.userId ? [r.userId] : []))]);
}

/** A project a member of the team owns, or 400. */
async function teamProject(db: Db, registration: Registration, projectId: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  if (!project || !(await teamAccounts(db, registration)).has(project.ownerId)) {
    throw new AppError('BAD_REQUEST', { reason: 'project of a team member' });
  }
  return project;
}

/** The media keys a save may name: a cover the upload made, and only the video the work already has. */
async function checkMedia(
  ctx: AppContext,
  input: { coverKey: string | null; videoKey: string | null },
  work?: WorkRow,
) {
  if (input.coverKey !== null && input.coverKey !== work?.coverKey) {
    if (!COVER_KEY.test(input.coverKey) || !(await ctx.storage.exists(input.coverKey))) {
      throw new AppError('BAD_REQUEST', { reason: 'coverKey' });
    }
  }
  if (input.videoKey !== null && input.videoKey !== work?.videoKey) {
    throw new AppError('BAD_REQUEST', { reason: 'videoKey: upload the video to the work' });
  }
}

export async function listTeamWorks(ctx: AppContext, auth: AuthContext, eventId: string): Promise<TWork[]> {
  await visibleEvent(ctx, await viewerOf(ctx, auth), eventId);
  const team = await teamOf(ctx.db, auth, eventId);
  if (!team) return [];
  return workViews(ctx, eq(eventWorks.registrationId, team.id));
}

type SaveInput = Omit<TSaveWork, 'eventId'> & { coverKey: string | null; videoKey: string | null };
const fieldsOf = (input: SaveInput) => ({
  name: input.name,
  description: input.description ?? '',
  tags: input.tags ?? [],
  link: input.link ?? '',
  coverKey: input.coverKey,
  videoKey: input.videoKey,
  projectId: input.projectId ?? null,
});

export async function createWork(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TSaveWork & { coverKey: string | null; videoKey: string | null },
) {
  const event = await findEvent(ctx.db, input.eventId);
  const team = await passedTeam(ctx, auth, event.id);
  assertSubmissionOpen(ctx, event);
  await checkMedia(ctx, input);
  if (input.projectId) await teamProject(ctx.db, team, input.projectId);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(eventWorks)
      .values({
        eventId: event.id,
        registrationId: team.id,
        trackId: team.trackId,
        ...fieldsOf(input),
        state: 'DRAFT',
        createdBy: auth.userId,
      })
      .returning();
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'create',
      params: { workId: row!.id, eventId: event.id, name: input.name },
    });
    return row!.id;
  });
  return workView(ctx, id);
}

export async function updateWork(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TUpdateWork & { coverKey: string | null; videoKey: string | null },
) {
  const { work, event, team } = await teamWork(ctx, auth, input.id);
  assertSubmissionOpen(ctx, event);
  if (work.state !== 'DRAFT') throw new AppError('EVENT_STATE_INVALID', { state: work.state });
  await checkMedia(ctx, input, work);
  if (input.projectId) await teamProject(ctx.db, team, input.projectId);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(eventWorks)
      .set({ ...fieldsOf(input), updatedAt: ctx.now() })
      .where(and(eq(eventWorks.id, work.id), eq(eventWorks.state, 'DRAFT')))
      .returning({ id: eventWorks.id });
    if (!row) throw new AppError('EVENT_STATE_INVALID');
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'update',
      params: { workId: work.id, name: input.name },
    });
  });
  return workView(ctx, work.id);
}

/** Moves a work from one state to another in one statement, so two requests at once cannot both move it. */
export async function moveWork(
  tx: Db,
  work: Pick<WorkRow, 'id' | 'state'>,
  to: WorkState,
  set: Partial<typeof eventWorks.$inferInsert>,
  now: Date,
) {
  assertMove(work.state, to);
  const [row] = await tx
    .update(eventWorks)
    .set({ ...set, state: to, updatedAt: now })
    .where(and(eq(eventWorks.id, work.id), eq(eventWorks.state, work.state)))
    .returning();
  if (!row) throw new AppError('EVENT_STATE_INVALID');
  return row;
}

/** The next version number after a project's newest, for the snapshot a submission freezes. */
async function nextVersion(db: Db, projectId: string) {
  const [newest] = await db
    .select()
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.major), desc(projectVersions.minor), desc(projectVersions.revision))
    .limit(1);
  if (!newest) return { major: 1, minor: 0, revision: 0 };
  const max = PROJECT_LIMITS.versionSegmentMax;
  if (newest.revision < max) return { major: newest.major, minor: newest.minor, revision: newest.revision + 1 };
  if (newest.minor < max) return { major: newest.major, minor: newest.minor + 1, revision: 0 };
  return { major: newest.major + 1, minor: 0, revision: 0 };
}

/** DRAFT → SUBMITTED, freezing the attached project as a new version of it. */
export async function submitWork(
  ctx: AppContext,
  driver: RuntimeDriver,
  request: FastifyRequest,
  auth: AuthContext,
  workId: string,
) {
  const { work, event } = await teamWork(ctx, auth, workId);
  const team = await passedTeam(ctx, auth, event.id);
  assertSubmissionOpen(ctx, event);
  assertMove(work.state, 'SUBMITTED');
  let projectVersionId: string | null = null;
  if (work.projectId) {
    const project = await teamProject(ctx.db, team, work.projectId);
    const description = `${event.name}: ${work.name}`.slice(0, PROJECT_LIMITS.versionDescription);
    const version = await createVersion(ctx, driver, request, project, {
      ...(await nextVersion(ctx.db, project.id)),
      description,
    });
    projectVersionId = version.id;
  }
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await moveWork(tx as unknown as Db, work, 'SUBMITTED', { submittedAt: now, projectVersionId }, now);
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'submit',
      params: { workId, projectVersionId },
    });
  });
  return workView(ctx, workId);
}

/** SUBMITTED → DRAFT (recall) or any open state → CLOSED (withdraw), while submission is open. */
export async function teamMove(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  workId: string,
  to: 'DRAFT' | 'CLOSED',
) {
  const { work, event } = await teamWork(ctx, auth, workId);
  assertSubmissionOpen(ctx, event);
  await ctx.db.transaction(async (tx) => {
    const set = to === 'DRAFT' ? { submittedAt: null, projectVersionId: null } : {};
    await moveWork(tx as unknown as Db, work, to, set, ctx.now());
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: to === 'DRAFT' ? 'update' : 'withdraw',
      params: { workId, from: work.state, to },
    });
  });
  return workView(ctx, workId);
}

/**
 * Who may read a work: its team, the event's organisers, the judges of its group (without the team's and school's
 * names), and anyone once results are published and it placed. 1004 for anyone else.
 */
export async function readableWork(ctx: AppContext, auth: AuthContext | null, workId: string) {
  const work = await findWork(ctx.db, workId);
  const event = await findEvent(ctx.db, work.eventId);
  if (event.resultsPublishedAt && work.rank !== null) return { work, event, anonymous: false };
  if (!auth) throw new AppError('NOT_FOUND');
  if (isOrganiser(auth, event)) return { work, event, anonymous: false };
  const team = await teamOf(ctx.db, auth, event.id);
  if (team && team.id === work.registrationId) return { work, event, anonymous: false };
  if (await judgesWork(ctx.db, auth, work)) return { work, event, anonymous: true };
  throw new AppError('NOT_FOUND');
}

export async function workDetail(ctx: AppContext, auth: AuthContext | null, workId: string): Promise<TWork> {
  const { anonymous } = await readableWork(ctx, auth, workId);
  const view = await workView(ctx, workId);
  return anonymous ? { ...view, registrationId: '', teamName: '', schoolName: '' } : view;
}

/** Organisers accept a submitted work for review (→ PENDING_REVIEW) or refuse it with a reason (→ FAIL). */
export async function auditWork(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  input: TWorkAuditDecision,
) {
  const work = await findWork(ctx.db, input.workId);
  const event = await findEvent(ctx.db, work.eventId);
  if (!isOrganiser(auth, event)) throw new AppError('NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    if (input.decision === 'accept') {
      if (work.state !== 'SUBMITTED') throw new AppError('EVENT_STATE_INVALID', { state: work.state });
      await moveWork(tx as unknown as Db, work, 'PENDING_REVIEW', {}, now);
    } else {
      await moveWork(tx as unknown as Db, work, 'FAIL', { failReason: input.reason }, now);
    }
    await writeAudit(tx as unknown as Db, request, {
      module: 'event',
      operation: 'audit',
      params: { workId: work.id, decision: input.decision, reason: input.decision === 'refuse' ? input.reason : null },
    });
  });
  return workView(ctx, work.id);
}
