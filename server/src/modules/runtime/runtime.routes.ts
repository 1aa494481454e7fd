import {
  API,
  CONTAINER_TYPES,
  ZComputeAllowance,
  ZComputeBalance,
  ZRuntimeAvailability,
  ZRuntimeIsolation,
  ZRuntimeStatus,
  ZRuntimeStopReason,
  ZSetComputeAllowanceRequest,
  ZStartRuntimeRequest,
  type ContainerType,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import { authHeader, requireAuth } from '../../platform/auth/auth-guard.js';
import { accessTokenExpiry } from '../../platform/auth/tokens.js';
import type { AppContext } from '../../platform/context.js';
import { computeAllowances } from '../../platform/db/schema/index.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { AppError } from '../../platform/errors.js';
import { callerScope } from '../../platform/tenancy.js';
import { loadProjectFor } from '../project/project-access.js';
import { offeredContainerTypes } from './container-offer.js';
import { computeBalance, weeklyAllowance } from './compute-balance.js';
import { SOCKET_ID, socketHolder, type GatewaySockets } from './gateway-sockets.js';
import { INSTANCE_STOP_PATH, type RuntimeManager } from './runtime-manager.js';
import { forwardRequest, wasForwarded } from '../../platform/forwarding.js';
import { INSTANCE_SIGNATURE_HEADER } from '../../platform/server-instances.js';

const ZProjectParams = z.object({ id: z.uuid() });

/**
 * Runtime state, start and stop of a project; compute balances; weekly allowances for administrators; a fresh
 * access token for an open gateway socket.
 */
export const runtimeRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  manager: RuntimeManager;
  sockets: GatewaySockets;
}> = async (app, { ctx, manager, sockets }) => {
  const tags = ['runtime'];
  const auth = { auth: 'required' as const };

  app.get(
    API.runtimeAvailability,
    {
      config: auth,
      schema: { tags, summary: 'Whether this server can run notebooks', response: envelopeOf(ZRuntimeAvailability) },
    },
    async () => {
      const ai = manager.aiAvailability?.current ?? { state: 'ready' as const, command: '', progress: '' };
      return ok({
        ...manager.availability.current,
        diskFull: (await manager.disk?.measure())?.state === 'low',
        ai: { state: ai.state, command: ai.command, progress: ai.progress },
      });
    },
  );

  app.get(
    API.runtimeIsolation,
    {
      config: { permission: 'system.manage' },
      schema: {
        tags,
        summary: "How this server's notebook runtimes are kept from its services and each other",
        response: envelopeOf(ZRuntimeIsolation),
      },
    },
    async () => ok(manager.driver.isolation),
  );

  app.get(
    API.computeBalance,
    {
      config: auth,
      schema: {
        tags,
        summary: "The caller's weekly compute balance per runtime type their customer offers",
        response: envelopeOf(z.array(ZComputeBalance)),
      },
    },
    async (request) => {
      const user = requireAuth(request);
      const list = [];
      for (const type of await offeredContainerTypes(ctx.db, user.customerId))
        list.push(await computeBalance(ctx.db, ctx.config, user, type, ctx.now()));
      return ok(list);
    },
  );

  app.get(
    `${API.projects}/:id/runtime`,
    {
      config: auth,
      schema: {
        tags,
        summary: "The project's container state and the caller's balance",
        params: ZProjectParams,
        response: envelopeOf(ZRuntimeStatus),
      },
    },
    async (request) => {
      const user = requireAuth(request);
      const { project } = await loadProjectFor(ctx.db, user, request.params.id, 'view');
      return ok(await manager.status(project, user));
    },
  );

  app.post(
    `${API.projects}/:id/runtime/start`,
    {
      config: auth,
      schema: {
        tags,
        summary: 'Start the runtime (answers once Python is ready)',
        params: ZProjectParams,
        body: ZStartRuntimeRequest.nullish(),
        response: envelopeOf(ZRuntimeStatus),
      },
    },
    async (request) => {
      const user = requireAuth(request);
      const { project } = await loadProjectFor(ctx.db, user, request.params.id, 'edit');
      const runtimeType = (request.body?.runtimeType ?? project.runtimeType) as ContainerType;
      await manager.start(project, user, runtimeType);
      return ok(await manager.status(project, user));
    },
  );

  app.post(
    `${API.projects}/:id/runtime/stop`,
    {
      config: auth,
      schema: {
        tags,
        summary: 'Stop the runtime; saved files stay',
        params: ZProjectParams,
        response: envelopeOf(ZRuntimeStatus),
      },
    },
    async (request) => {
      const user = requireAuth(request);
      const { project } = await loadProjectFor(ctx.db, user, request.params.id, 'edit');
      await manager.stop(project.id, 'user');
      return ok(await manager.status(project, user));
    },
  );

  app.post(
    `${API.projects}/:id/runtime/keepOnline`,
    {
      config: auth,
      schema: {
        tags,
        summary: 'Keep the running runtime from being stopped as idle (the editor sends it while it is shown)',
        description:
          'Counts as activity for the idle stop (`RUNTIME_IDLE_MINUTES`), like traffic through the gateway; a ' +
          'runtime another server process holds is kept there. `3105` when the runtime is not running.',
        params: ZProjectParams,
        response: envelopeOf(z.null()),
      },
    },
    async (request, reply) => {
      const { project } = await loadProjectFor(ctx.db, requireAuth(request), request.params.id, 'edit');
      const location = await manager.locate(project.id, wasForwarded(request));
      if (!location) throw new AppError('RUNTIME_NOT_RUNNING');
      if ('holder' in location) return forwardRequest(request, reply, location.holder, manager.instance.id, undefined);
      manager.touch(project.id);
      return ok(null);
    },
  );

  const ownCustomer = async (request: Parameters<typeof requireAuth>[0], asked: string | undefined) => {
    const scope = await callerScope(ctx.db, requireAuth(request));
    if (scope.kind === 'all') {
      if (!asked) throw new AppError('BAD_REQUEST');
      return asked;
    }
    if (scope.kind !== 'customers') throw new AppError('NO_PERMISSION_PAGE');
    if (asked && !scope.customerIds.includes(asked)) throw new AppError('NOT_FOUND');
    return asked ?? scope.customerId;
  };

  // Another server process passes on a stop of a runtime this one holds (RuntimeManager.stop), signed with the key
  // every process of the deployment derives from the access tokens' secret.
  app.post(
    INSTANCE_STOP_PATH,
    {
      schema: {
        hide: true,
        params: z.object({ projectId: z.uuid() }),
        body: z.object({ reason: ZRuntimeStopReason }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { reason } = request.body;
      const signature = request.headers[INSTANCE_SIGNATURE_HEADER];
      if (
        !manager.instance.verify(`stop:${projectId}:${reason}`, typeof signature === 'string' ? signature : undefined)
      ) {
        throw new AppError('NO_PERMISSION_PAGE');
      }
      await manager.stopHere(projectId, reason);
      return ok(null);
    },
  );

  app.get(
    API.computeAllowances,
    {
      config: { permission: 'compute.manage' },
      schema: {
        tags,
        summary: 'Weekly compute minutes per runtime type of a customer',
        querystring: z.object({ customerId: z.uuid().optional() }),
        response: envelopeOf(z.array(ZComputeAllowance)),
      },
    },
    async (request) => {
      const customerId = await ownCustomer(request, request.query.customerId);
      const list = [];
      for (const runtimeType of CONTAINER_TYPES) {
        list.push({ runtimeType, weeklyMinutes: await weeklyAllowance(ctx.db, ctx.config, customerId, runtimeType) });
      }
      return ok(list);
    },
  );

  app.put(
    API.computeAllowances,
    {
      config: { permission: 'compute.manage' },
      schema: {
        tags,
        summary: "Set a customer's weekly compute minutes for one runtime type",
        body: ZSetComputeAllowanceRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const customerId = await ownCustomer(request, request.body.customerId);
      const { runtimeType, weeklyMinutes } = request.body;
      await ctx.db.transaction(async (tx) => {
        await tx
          .insert(computeAllowances)
          .values({ customerId, runtimeType, weeklyMinutes })
          .onConflictDoUpdate({
            target: [computeAllowances.customerId, computeAllowances.runtimeType],
            set: { weeklyMinutes },
          });
        await writeAudit(tx, request, {
          module: 'compute',
          operation: 'allowance',
          params: { runtimeType, weeklyMinutes },
          customerId,
        });
      });
      return ok(null);
    },
  );

  app.put(
    `${API.runtimeSockets}/:socket/token`,
    {
      config: auth,
      schema: {
        tags,
        summary: "The caller's access token replaces the one of an open kernel or terminal socket",
        description:
          'Answers the notice `{"gateway":"renew-token","socket":…}`: the socket stays open until this token expires. ' +
          '`1004` when the socket is not the caller’s or has closed (reconnect instead). A socket another server ' +
          'process holds is renewed there.',
        params: z.object({ socket: z.string().regex(SOCKET_ID) }),
        response: envelopeOf(z.null()),
      },
    },
    async (request, reply) => {
      const holder = socketHolder(request.params.socket)!;
      if (holder !== manager.instance.id) {
        const address = wasForwarded(request) ? null : await manager.instance.addressOf(holder);
        if (!address) throw new AppError('NOT_FOUND');
        return forwardRequest(request, reply, address, manager.instance.id, undefined);
      }
      // The guard verified this token (auth: 'required').
      const expiresAt = accessTokenExpiry(authHeader(request)!);
      await sockets.renew(request.params.socket, requireAuth(request), expiresAt);
      return ok(null);
    },
  );
};
