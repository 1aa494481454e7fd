import { SERVICE_PATHS, ZHealth } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../platform/db/client.js';

/** Liveness (the process answers) and readiness (the database answers) for load balancers and Kubernetes. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    SERVICE_PATHS.healthz,
    { schema: { tags: ['health'], response: { 200: ZHealth } }, logLevel: 'warn' },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    SERVICE_PATHS.readyz,
    { schema: { tags: ['health'], response: { 200: ZHealth, 503: ZHealth } }, logLevel: 'warn' },
    async (_request, reply) => {
      const ready = await database.ping();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable' });
    },
  );
};
