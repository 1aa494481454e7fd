import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** A bare benchmark server listens on `PORT` until the benchmark stops it; then it closes and lets its database go. */
export async function serveUntilStopped(app: FastifyInstance, closeDatabase: () => Promise<unknown>) {
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(closeDatabase)
      .then(() => process.exit(0));
  });
}

/** Whether the module at `url` is the one Node was asked to run (a bare server's process), not an import. */
export const isMain = (url: string) =>
  Boolean(process.argv[1]) && path.resolve(process.argv[1]!) === path.resolve(new URL(url).pathname);
