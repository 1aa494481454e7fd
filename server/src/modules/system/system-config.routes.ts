import {
  LIMITS,
  ZContainerTypeConfig,
  ZSetContainerTypeRequest,
  ZSystemConfig,
  ZUpdateSystemConfigRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import {
  getContainerTypes,
  getSystemConfig,
  removeLogo,
  setDefaultWeeklyMinutes,
  setLogo,
  updateSystemConfig,
} from './system-config.service.js';
import { readUpload } from '../../platform/uploads.js';

const SYSTEM_CONFIG = '/api/v1/admin_super/system-config';
const CONTAINER_TYPES_CONFIG = '/api/v1/admin_super/container-types/config';

/** The super administrators' console: platform name and logo, sign-in switches, container types. */
export const systemConfigRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['system'];
  const config = { permission: 'system.manage' as const };

  app.get(
    SYSTEM_CONFIG,
    { config, schema: { tags, summary: 'The system configuration', response: envelopeOf(ZSystemConfig) } },
    async () => ok(await getSystemConfig(ctx)),
  );
  app.put(
    SYSTEM_CONFIG,
    {
      config,
      schema: {
        tags,
        summary: 'Change the platform name and the sign-in switches (null: as deployed)',
        body: ZUpdateSystemConfigRequest,
        response: envelopeOf(ZSystemConfig),
      },
    },
    async (request) => ok(await updateSystemConfig(ctx, request, request.body)),
  );
  app.post(
    `${SYSTEM_CONFIG}/logo`,
    {
      config,
      schema: {
        tags,
        summary: 'Replace the logo (multipart "file": JPG/PNG/BMP under 3 MB, shown at most 512 × 128)',
        consumes: ['multipart/form-data'],
        response: envelopeOf(ZSystemConfig),
      },
    },
    async (request) => {
      const file = await readUpload(request, LIMITS.bannerBytes);
      return ok(await setLogo(ctx, request, { name: file.filename, bytes: file.bytes }));
    },
  );
  app.delete(
    `${SYSTEM_CONFIG}/logo`,
    { config, schema: { tags, summary: 'Back to the product logo', response: envelopeOf(ZSystemConfig) } },
    async (request) => ok(await removeLogo(ctx, request)),
  );

  app.get(
    CONTAINER_TYPES_CONFIG,
    {
      config,
      schema: {
        tags,
        summary: 'Container types: CPU and memory of this server, default weekly minutes, customers offered each',
        response: envelopeOf(z.array(ZContainerTypeConfig)),
      },
    },
    async () => ok(await getContainerTypes(ctx)),
  );
  app.put(
    CONTAINER_TYPES_CONFIG,
    {
      config,
      schema: {
        tags,
        summary: 'Set the default weekly minutes of a container type, for customers that set none',
        body: ZSetContainerTypeRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await setDefaultWeeklyMinutes(ctx, request, request.body.runtimeType, request.body.weeklyMinutes);
      return ok(null);
    },
  );
};
