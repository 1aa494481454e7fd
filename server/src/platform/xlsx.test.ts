import ExcelJS from 'exceljs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './error-handler.js';
import { sendXlsx } from './xlsx.js';

const columns = [{ header: 'Name', value: (row: { name: string }) => row.name }];

async function* rows(failAt: number) {
  for (let batch = 0; batch < 3; batch++) {
    if (batch === failAt) throw new Error('connection to the database lost');
    yield [{ name: `row ${batch}` }];
  }
}

describe('an xlsx export', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandling(app);
    app.get<{ Querystring: { failAt?: string } }>('/export', (request, reply) =>
      sendXlsx(reply, 'rows.xlsx', 'Rows', columns, rows(Number(request.query.failAt ?? -1))),
    );
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('streams every row into a workbook', async () => {
    const res = await fetch(`${base}/export`);
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const names = workbook.worksheets[0]!.getColumn(1).values.filter(Boolean);
    expect(names).toEqual(['Name', 'row 0', 'row 1', 'row 2']);
  });

  it('answers 2007 (export failed) in the envelope when its rows cannot be read', async () => {
    const res = await fetch(`${base}/export?failAt=0`, { headers: { language: 'en' } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ errorCode: '2007', errorMsg: 'Export failed', data: null });
  });

  it('ends a download that fails on the way unfinished, never as a complete file', async () => {
    await expect(fetch(`${base}/export?failAt=2`).then((res) => res.arrayBuffer())).rejects.toThrow();
  });
});
