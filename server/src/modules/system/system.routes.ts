import { API, ZAppItem, ZLanguageItem, ZSysSetting } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { getSysSetting } from './system-config.service.js';
import { listApps, listLanguages } from './system.service.js';

export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    API.sysSetting,
    {
      schema: {
        tags: ['system'],
        summary: 'Sign-in switches in force, and the platform name and logo every page shows',
        response: envelopeOf(ZSysSetting),
      },
    },
    async () => ok(await getSysSetting(ctx)),
  );

  app.get(
    API.langList,
    { schema: { tags: ['system'], summary: 'The product languages', response: envelopeOf(z.array(ZLanguageItem)) } },
    async () => ok(listLanguages()),
  );

  app.get(
    API.apps,
    {
      schema: {
        tags: ['system'],
        summary: 'Products offered by the product chooser, named in the request language',
        response: envelopeOf(z.array(ZAppItem)),
      },
    },
    async (request) => ok(listApps(requestLanguage(request))),
  );
};
