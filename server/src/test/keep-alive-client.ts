import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Answer {
  status: number;
  body: string;
}

/**
 * Requests to an app listening on a random loopback port, all over one kept-alive socket. A multipart file is
 * written the way browsers and streaming clients write it: its part header, then the file in 64 KiB pieces, each
 * its own write (limits of whole MiB then fall on the end of a piece).
 */
export async function keepAliveClient(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();

  function send(method: string, url: string, headers: Record<string, string | number>, pieces: Buffer[]) {
    return new Promise<Answer>((resolve, reject) => {
      const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const request = http.request(
        { host: '127.0.0.1', port, path: url, method, agent, headers: { ...headers, 'content-length': length } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      request.on('socket', (socket) => sockets.add(socket));
      request.on('error', reject);
      void (async () => {
        for (const piece of pieces) {
          // A server that answered early may close the connection: the rest is not sent.
          if (request.destroyed) return;
          if (!request.write(piece)) {
            await new Promise((done) => {
              request.once('drain', done);
              request.once('close', done);
            });
          }
          // A piece the server has not read yet would merge with the next one in its socket buffer.
          await new Promise((done) => setTimeout(done, 1));
        }
        request.end();
      })();
    });
  }

  return {
    /** Sends `content` as the multipart part "file" named `fileName`, after the text `fields` (POST unless `url` says). */
    upload(target: string, headers: Record<string, string>, fileName: string, content: Buffer, fields = {}) {
      const [method, url] = target.includes(' ') ? target.split(' ') : ['POST', target];
      const boundary = '----keep-alive-boundary';
      const head = Buffer.from(
        Object.entries(fields)
          .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
          .join('') +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      const pieces: Buffer[] = [head];
      for (let at = 0; at < content.length; at += 65_536) pieces.push(content.subarray(at, at + 65_536));
      pieces.push(Buffer.from(`\r\n--${boundary}--\r\n`));
      return send(method!, url!, { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, pieces);
    },
    /** How many sockets the requests so far used. */
    get socketCount() {
      return sockets.size;
    },
    close() {
      agent.destroy();
    },
  };
}
