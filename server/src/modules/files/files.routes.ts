import { API } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import type { FileStorage } from '../../platform/storage/storage.js';

const ZSignedQuery = z.object({
  key: z.string().min(1),
  expires: z.string().regex(/^\d+$/),
  sig: z.string().min(1),
  name: z.string().max(255).optional(),
});

/** Downloads through time-limited signed URLs made by `storage.signedUrl`. */
export const fileRoutes: FastifyPluginAsyncZod<{ storage: FileStorage }> = async (app, { storage }) => {
  app.get(
    API.fileDownload,
    { schema: { tags: ['files'], summary: 'Download a file through a signed URL', querystring: ZSignedQuery } },
    async (request, reply) => {
      const key = storage.verifySignedUrl(request.query);
      if (!key) throw new AppError('LINK_EXPIRED');
      const { stream, size } = await storage.get(key);
      const name = request.query.name ?? key.split('/').pop()!;
      return reply
        .header('content-length', size)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .type('application/octet-stream')
        .send(stream);
    },
  );
};
