import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export interface SheetColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | boolean | Date | null;
}

/** Streams rows into an .xlsx download (exceljs's streaming writer: the workbook is never held whole in memory). */
export async function sendXlsx<T>(
  reply: FastifyReply,
  fileName: string,
  sheetName: string,
  columns: SheetColumn<T>[],
  rows: AsyncIterable<T[]> | Iterable<T[]>,
) {
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: reply.raw, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for await (const batch of rows) {
    for (const row of batch) sheet.addRow(columns.map((c) => c.value(row))).commit();
  }
  sheet.commit();
  await workbook.commit();
  return reply;
}
