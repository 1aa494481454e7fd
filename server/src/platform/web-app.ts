import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIXES, SERVICE_PATHS } from '@aiedu/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { sendError } from './error-handler.js';

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix)) || url.startsWith(SERVICE_PATHS.apiDocs);
}

/**
 * Serves the built single-page app: hashed assets with a long cache, and index.html for every other GET
 * so the browser's router can show the page (or its own page-not-found). Unknown API paths answer 404 JSON.
 * The build writes a Brotli and a gzip copy beside each text file (web/vite.config.ts); the one the browser
 * accepts is sent as it is, index.html included, and the file itself to a browser that accepts neither.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined) {
  const hasWeb = Boolean(webDist && existsSync(path.join(webDist, 'index.html')));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are found beside their file; they get no address of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0]!;
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasWeb && wantsPage && !isApiPath(url) && !url.startsWith('/assets/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, new AppError('NOT_FOUND'));
  });
}
