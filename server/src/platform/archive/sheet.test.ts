import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { deflatedPart, repeatedSheet, sheetRow, sheetXml, xlsxAround } from '../../test/zip-builder.js';
import { readSheetRows, type SheetLimits } from './sheet.js';
import { parseQueue } from './worker.js';

const MiB = 1024 * 1024;
const LIMITS: SheetLimits = {
  maxRows: 100,
  zip: { maxEntries: 50, maxEntryBytes: 16 * MiB, maxTotalBytes: 32 * MiB, maxRatio: 200 },
  heapMb: 64,
  timeoutMs: 60_000,
};
/** Limits no test file reaches, for the tests about the worker's own. */
const OPEN_ZIP = { maxEntries: 50, maxEntryBytes: 2 ** 31, maxTotalBytes: 2 ** 31, maxRatio: 2000 };

/** Resolves once `condition` holds, looking again after every turn of the event loop that timers get. */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code?: string; details?: unknown }) => ({ code: error.code, data: error.details }),
  );

describe('reading an uploaded sheet in a worker', () => {
  it('answers the first sheet’s rows as text: strings, numbers, rich text, links and formulas', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('First');
    sheet.addRow(['Username', 'Name', 'Number']);
    sheet.addRow([' kid01 ', { richText: [{ text: '张' }, { text: '小明', font: { bold: true } }] }, 2023001]);
    sheet.getRow(4).values = [
      { text: 'kid02', hyperlink: 'https://example.org' },
      'Two',
      { formula: '1+1', result: 2 },
    ];
    workbook.addWorksheet('Second').addRow(['ignored']);
    const rows = await readSheetRows(Buffer.from(await workbook.xlsx.writeBuffer()), 'xlsx', LIMITS);
    expect(rows).toEqual([
      { number: 1, cells: ['Username', 'Name', 'Number'] },
      { number: 2, cells: ['kid01', '张小明', '2023001'] },
      { number: 4, cells: ['kid02', 'Two', '2'] },
    ]);
  });

  it('reads CSV the same way, and refuses one row more than allowed', async () => {
    const csv = Buffer.from('Username,Name\nkid01,One\n\nkid02,"Two, too"\n');
    expect(await readSheetRows(csv, 'csv', LIMITS)).toEqual([
      { number: 1, cells: ['Username', 'Name'] },
      { number: 2, cells: ['kid01', 'One'] },
      { number: 4, cells: ['kid02', 'Two, too'] },
    ]);
    const long = Buffer.from(Array.from({ length: 101 }, (_, i) => `kid${i},Kid\n`).join(''));
    expect(await refusal(readSheetRows(long, 'csv', LIMITS))).toEqual({
      code: '2006',
      data: { reason: 'rows', max: 100 },
    });
  });

  it('refuses a 1 MB file whose sheet inflates to 400 MB from its directory, before inflating it', async () => {
    const unit = sheetRow(2, ['kid', 'Kid', 'Grade 4 Class 1']).repeat(4096);
    const bomb = xlsxAround(repeatedSheet(unit, Math.ceil((400 * MiB) / unit.length)));
    expect(bomb.length).toBeLessThan(2 * MiB);
    expect(await refusal(readSheetRows(bomb, 'xlsx', LIMITS))).toEqual({
      code: '2006',
      data: { reason: 'bytes', max: 16 * MiB },
    });
  });

  it('stops at the first row past the limit, while the main thread goes on with its work', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => sheetRow(i + 1, [`kid${i}`, `Kid ${i}`])).join('');
    const file = xlsxAround(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(rows)));
    let settled = false;
    const reading = refusal(readSheetRows(file, 'xlsx', { ...LIMITS, maxRows: 10_001 })).finally(() => {
      settled = true;
    });
    await until(() => parseQueue().running === 1);
    let ticks = 0;
    await until(() => ++ticks === 20 || settled);
    expect(settled).toBe(false);
    expect(await reading).toEqual({ code: '2006', data: { reason: 'rows', max: 10_001 } });
  });

  it('ends a worker that reaches its heap, and the process does not grow by what the sheet would take', async () => {
    // 400 MB of XML in rows of long cells: kept whole they need more than that; the worker may take 32 MiB.
    const unit = sheetRow(2, ['kid', 'K'.repeat(2000), 'Grade 4 Class 1'.repeat(100)]).repeat(64);
    const file = xlsxAround(repeatedSheet(unit, Math.ceil((400 * MiB) / unit.length)));
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    const limits = { ...LIMITS, maxRows: 10_000_000, zip: OPEN_ZIP, heapMb: 32 };
    const outcome = await refusal(readSheetRows(file, 'xlsx', limits));
    clearInterval(sampler);
    expect(outcome).toEqual({ code: '2006', data: { reason: 'memory', max: 32 } });
    expect(peak - before).toBeLessThan(200 * MiB);
  });

  it('ends a worker past its time, and one whose request is over', async () => {
    const file = xlsxAround(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(sheetRow(1, ['a']))));
    expect(await refusal(readSheetRows(file, 'xlsx', { ...LIMITS, timeoutMs: 1 }))).toEqual({
      code: '2006',
      data: { reason: 'time', max: 1 },
    });
    const over = new AbortController();
    const reading = readSheetRows(file, 'xlsx', { ...LIMITS, signal: over.signal });
    await until(() => parseQueue().running === 1);
    over.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => parseQueue().running === 0);
  });
});
