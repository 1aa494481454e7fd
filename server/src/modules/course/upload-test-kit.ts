import http from 'node:http';

/** Resumable-upload calls over real connections, shared by the upload suites. */

export const b64 = (text: string) => Buffer.from(text).toString('base64');

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The headers of a tus PATCH of the part at `offset`. */
export const patchHeaders = (token: string, offset: number) => ({
  'tus-resumable': '1.0.0',
  'x-authorization': token,
  'upload-offset': offset,
  'content-type': 'application/offset+octet-stream',
});

/** `/readyz` of the server at `base`, over the agent's connection (a keep-alive one left by the request before). */
export const readyOn = (base: string, agent: http.Agent) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(`${base}/readyz`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode!)))
      .on('error', reject);
  });

/** A tus request over a real connection (the PATCH bodies stream as a browser's would). */
export function send(
  base: string,
  token: string,
  method: string,
  url: string,
  headers: Record<string, string | number> = {},
  body?: Buffer,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method, headers: { 'tus-resumable': '1.0.0', 'x-authorization': token, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
