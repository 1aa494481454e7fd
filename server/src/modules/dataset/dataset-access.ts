import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AuthContext } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { datasets } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';

export type DatasetRow = typeof datasets.$inferSelect;
export type DatasetNeed = 'view' | 'edit' | 'own';
export type DatasetAccess = Awaited<ReturnType<typeof loadDatasetFor>>;

/**
 * Who belongs to a group. The group module answers it (it owns the members' table) and registers itself here, so
 * this module never reads another module's tables. Until one is registered, nobody is a member of any group:
 * a dataset shared with a group is its owner's alone.
 */
export interface GroupMembership {
  isMember(db: Db, userId: string, groupId: string): Promise<boolean>;
  /** Every group the user belongs to, owned or joined. */
  groupsOf(db: Db, userId: string): Promise<string[]>;
}

let membership: GroupMembership | null = null;

export function useGroupMembership(check: GroupMembership) {
  membership = check;
}

export const isGroupMember = (db: Db, userId: string, groupId: string) =>
  membership ? membership.isMember(db, userId, groupId) : Promise.resolve(false);

export const groupsOfUser = (db: Db, userId: string) =>
  membership ? membership.groupsOf(db, userId) : Promise.resolve([] as string[]);

/** A dataset by id, whoever asks: for work already authorised. */
export async function datasetById(db: Db, datasetId: string): Promise<DatasetRow | null> {
  if (!isUuid(datasetId)) return null;
  const [dataset] = await db.select().from(datasets).where(eq(datasets.id, datasetId)).limit(1);
  return dataset ?? null;
}

/**
 * The dataset when the caller may do what they need. The owner may do everything; anyone of the owner's tenant
 * may view a public one; a member of its group may view one shared with that group (groups cross schools, so in
 * any tenant). Anything else answers 404, so a dataset's existence never leaks; a visible dataset the caller may
 * not change answers 1007. Whether a published dataset may still change is the service's rule (3201).
 */
export async function loadDatasetFor(db: Db, auth: AuthContext, datasetId: string, need: DatasetNeed) {
  const dataset = await datasetById(db, datasetId);
  if (!dataset) throw new AppError('NOT_FOUND');
  const inTenant = dataset.customerId === auth.customerId;
  const isOwner = inTenant && dataset.ownerId === auth.userId;
  const canView =
    isOwner ||
    (inTenant && dataset.access === 'public') ||
    (dataset.access === 'group' && dataset.groupId !== null && (await isGroupMember(db, auth.userId, dataset.groupId)));
  if (!canView) throw new AppError('NOT_FOUND');
  if (need !== 'view' && !isOwner) throw new AppError('NO_EDIT_PERMISSION');
  return { dataset, isOwner, canEdit: isOwner && dataset.publishedAt === null };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller must be allowed on the dataset named by `:id`; checked before the request is validated. */
    dataset?: DatasetNeed;
  }
  interface FastifyRequest {
    /** The dataset of a route declared with `config.dataset`, once the caller's access is checked. */
    datasetAccess: DatasetAccess | null;
  }
}

/**
 * Routes declare `config: { auth: 'required', dataset: 'view' | 'own' }`: the dataset is loaded and the caller's
 * access checked in one place, before anything else of the request is looked at, so another tenant's dataset
 * answers 404 whatever the rest of the request holds.
 */
export function registerDatasetGuard(app: FastifyInstance, db: Db) {
  app.decorateRequest('datasetAccess', null);
  app.addHook('preValidation', async (request) => {
    const need = request.routeOptions.config.dataset;
    if (!need) return;
    const { id } = request.params as { id?: string };
    request.datasetAccess = await loadDatasetFor(db, requireAuth(request), id ?? '', need);
  });
}

/** The checked dataset of a route declared with `config.dataset`. */
export function datasetOf(request: FastifyRequest) {
  if (!request.datasetAccess) throw new AppError('NOT_FOUND');
  return request.datasetAccess;
}
