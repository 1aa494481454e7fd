import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers, as helmet defines them. The Content-Security-Policy allows scripts only from this origin;
 * styles may be inline because the component library writes its styles at run time. Files may also come from
 * `fileOrigin`, a bucket that serves downloads itself (images, media, PDFs in a frame, and fetches of them).
 * HSTS is left to the TLS proxy: the app is served over plain HTTP on a laptop as often as behind TLS.
 */
const middleware = (fileOrigin: string | null) => {
  const files = fileOrigin ? [fileOrigin] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...files],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...files],
        mediaSrc: ["'self'", 'blob:', ...files],
        workerSrc: ["'self'", 'blob:'],
        // PDFs of a project open in a frame from a local object URL.
        frameSrc: ["'self'", 'blob:', ...files],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    strictTransportSecurity: false,
  });
};

/**
 * Helmet's headers depend only on its options here, so they are computed once and written with one call per
 * response; running the middleware chain per request halved the API's throughput (see docs/performance.md).
 */
export function securityHeaders(fileOrigin: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let failed: unknown;
  middleware(fileOrigin)(
    {} as IncomingMessage,
    res as unknown as ServerResponse,
    (error?: unknown) => (failed = error),
  );
  if (failed) throw failed;
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, fileOrigin: string | null) {
  const headers = securityHeaders(fileOrigin);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
