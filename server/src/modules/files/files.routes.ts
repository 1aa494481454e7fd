import { API } from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import type { FileStorage } from '../../platform/storage/storage.js';
import { mediaTypeOf, parseRange } from './media-types.js';

const ZSignedQuery = z.object({
  key: z.string().min(1),
  expires: z.string().regex(/^\d+$/),
  sig: z.string().min(1),
  name: z.string().max(255).optional(),
  dl: z.literal('1').optional(),
});

/**
 * What storage answers, or `1010` (loading failed) when it cannot be read (a disk error, a bucket out of reach): the
 * file may well be there, so it is not `1004`; the cause goes to the log.
 */
async function loaded<T>(request: FastifyRequest, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError) throw error;
    request.log.error({ err: error }, 'storage read failed');
    throw new AppError('LOADING_FAILED');
  }
}

/**
 * Downloads through time-limited signed URLs made by `storage.signedUrl`: sent by the server, or, from a bucket with
 * direct downloads, redirected to an address in the bucket that ends when the link does.
 */
export const fileRoutes: FastifyPluginAsyncZod<{ storage: FileStorage }> = async (app, { storage }) => {
  app.get(
    API.fileDownload,
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file through a signed URL (video, audio, PDF and images inline, with byte ranges)',
        querystring: ZSignedQuery,
      },
    },
    async (request, reply) => {
      const key = storage.verifySignedUrl(request.query);
      if (!key) throw new AppError('LINK_EXPIRED');
      const name = request.query.name ?? key.split('/').pop()!;
      const type = mediaTypeOf(name);
      const total = await loaded(request, storage.size(key));
      const kind = request.query.dl || type === 'application/octet-stream' ? 'attachment' : 'inline';
      const disposition = `${kind}; filename*=UTF-8''${encodeURIComponent(name)}`;
      // A bucket with direct downloads sends the bytes itself (byte ranges too), named and typed as here.
      const direct = await loaded(
        request,
        storage.directUrl(key, {
          expiresAt: Number(request.query.expires),
          contentType: type,
          contentDisposition: disposition,
        }),
      );
      if (direct) return reply.redirect(direct, 302);
      const range = parseRange(request.headers.range, total);
      if (range === 'invalid') {
        return reply.code(416).header('content-range', `bytes */${total}`).send();
      }
      const { stream } = await loaded(request, storage.get(key, range ?? undefined));
      reply.header('accept-ranges', 'bytes').header('content-disposition', disposition).type(type);
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${total}`)
          .header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', total);
      }
      return reply.send(stream);
    },
  );
};
