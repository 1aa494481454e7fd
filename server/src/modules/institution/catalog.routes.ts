import { API, CONTAINER_TYPES, MODULES, ZArea } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { areaChildren } from './area.service.js';

/** Reference lists the administration forms choose from: administrative divisions, container types, modules. */
export const catalogRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app) => {
  const tags = ['institution'];
  const config = { auth: 'required' as const };

  app.get(
    API.areaChildren,
    {
      config,
      schema: {
        tags,
        summary:
          'Children of an administrative division: no code → countries; CN → provinces → cities → districts (the country and provinces named in the request language)',
        querystring: z.object({ parentCode: z.string().trim().max(12).optional() }),
        response: envelopeOf(z.array(ZArea)),
      },
    },
    async (request) => ok(areaChildren(request.query.parentCode, requestLanguage(request))),
  );
  app.get(
    '/api/v1/admin_super/container-types',
    {
      config,
      schema: { tags, summary: 'Container types a customer can be given', response: envelopeOf(z.array(z.string())) },
    },
    async () => ok([...CONTAINER_TYPES]),
  );
  app.get(
    '/api/v1/admin_super/modules',
    {
      config,
      schema: {
        tags,
        summary: 'Navigation entries and features a side (teacher or student) can be given',
        response: envelopeOf(z.array(z.string())),
      },
    },
    async () => ok([...MODULES]),
  );
};
