import { API, ZAppItem, ZLanguageItem, ZSysSetting } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { getSetting, listApps, listLanguages } from './system.service.js';

export const systemRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    API.sysSetting,
    {
      schema: { tags: ['system'], summary: 'Deployment settings the sign-in needs', response: envelopeOf(ZSysSetting) },
    },
    async () => ok(getSetting(config)),
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
