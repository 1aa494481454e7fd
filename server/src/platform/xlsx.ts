import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors.js';

export interface SheetColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | boolean | Date | null;
}

/**
 * Streams rows into an .xlsx download (exceljs's streaming writer: the workbook is never held whole in memory). The
 * first batch is read before the answer starts, so an export that cannot read its rows answers `2007` (export failed)
 * in the envelope; one that fails later, once bytes have gone out, ends the download unfinished, which the browser
 * shows as a failed download rather than a damaged file.
 */
export async function sendXlsx<T>(
  reply: FastifyReply,
  fileName: string,
  sheetName: string,
  columns: SheetColumn<T>[],
  rows: AsyncIterable<T[]> | Iterable<T[]>,
) {
  const batches = Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  let next: IteratorResult<T[]>;
  try {
    next = await batches.next();
  } catch (error) {
    reply.log.error({ err: error }, 'export failed');
    throw new AppError('EXPORT_FAILED');
  }
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  });
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: reply.raw, useStyles: true });
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
    sheet.getRow(1).font = { bold: true };
    for (; !next.done; next = await batches.next()) {
      for (const row of next.value) sheet.addRow(columns.map((c) => c.value(row))).commit();
    }
    sheet.commit();
    await workbook.commit();
  } catch (error) {
    reply.log.error({ err: error }, 'export failed after it started');
    reply.raw.destroy();
  }
  return reply;
}
