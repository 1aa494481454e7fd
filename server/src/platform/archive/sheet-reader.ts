import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ArchiveRefusal } from './refusal.js';
import { openZip, type CheckedZip, type ZipLimits } from './zip.js';

export type SheetFormat = 'xlsx' | 'csv';

/** A row of the first sheet: its number in the sheet (1-based) and its cells' text, column A first. */
export interface SheetRow {
  number: number;
  cells: string[];
}

export interface SheetInput {
  bytes: Uint8Array;
  format: SheetFormat;
  /** rows the sheet may have, header included; one more is refused (`rows`) as soon as it is read */
  maxRows: number;
  zip: ZipLimits;
}

/** The parts of exceljs's streaming reader that `parse` is made of (exceljs 4.4, pinned). */
interface ReaderParts {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(entry: Readable, sheetNo: string): Generator<unknown>;
  workbookRels?: { Id: string; Type: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  sharedStrings?: unknown[];
}

const RELATION = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** A relationship's target (relative to `xl/`, or absolute within the package) as an entry name. */
const partName = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);

/**
 * exceljs's streaming `WorkbookReader`, fed from a checked zip instead of its own unzipper. Its own `parse` takes
 * entries in the order they are stored and spools a sheet that comes before the shared strings (as Excel stores
 * them) to a temporary file at its full inflated size; this one opens the workbook, then the shared strings, then
 * the first sheet, each counted against its declared size, and spools nothing.
 */
class CheckedWorkbookReader extends ExcelJS.stream.xlsx.WorkbookReader {
  constructor(private readonly zip: CheckedZip) {
    super(undefined as never, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
  }

  override async *parse(): AsyncGenerator<unknown> {
    const parts = this as unknown as ReaderParts;
    await parts._parseRels(await this.open('xl/_rels/workbook.xml.rels'));
    await parts._parseWorkbook(await this.open('xl/workbook.xml'));
    const rels = parts.workbookRels ?? [];
    const first = parts.model?.sheets?.[0];
    const sheet = rels.find((rel) => rel.Id === first?.rId);
    if (!sheet) throw new ArchiveRefusal('unreadable');
    const strings = rels.find((rel) => rel.Type === `${RELATION}sharedStrings`);
    if (strings) yield* parts._parseSharedStrings(await this.open(partName(strings.Target)));
    else parts.sharedStrings = [];
    const sheetNo = /(\d+)\.xml$/.exec(sheet.Target)?.[1] ?? '1';
    yield* parts._parseWorksheet(await this.open(partName(sheet.Target)), sheetNo);
  }

  private open(name: string): Promise<Readable> {
    const entry = this.zip.entry(name);
    if (!entry) throw new ArchiveRefusal('unreadable');
    return this.zip.open(entry);
  }
}

/** A cell's value as the text a person typed: rich text joined, a link's text, a formula's result. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || value instanceof Date) return String(value).trim();
  if ('richText' in value)
    return (value.richText as { text: string }[])
      .map((run) => run.text)
      .join('')
      .trim();
  if ('text' in value) return cellText(value.text);
  if ('result' in value) return cellText(value.result);
  return '';
}

const rowOf = (number: number, values: unknown) => ({
  number,
  cells: (values as unknown[]).slice(1).map(cellText),
});

async function readXlsx(bytes: Buffer, maxRows: number, limits: ZipLimits): Promise<SheetRow[]> {
  const zip = await openZip(bytes, limits);
  try {
    const rows: SheetRow[] = [];
    for await (const sheet of new CheckedWorkbookReader(zip)) {
      for await (const row of sheet) {
        if (rows.length === maxRows) throw new ArchiveRefusal('rows', maxRows);
        rows.push(rowOf(row.number, row.values));
      }
      return rows;
    }
    throw new ArchiveRefusal('unreadable');
  } finally {
    zip.close();
  }
}

async function readCsv(bytes: Buffer, maxRows: number): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  // The parser stops after one row more than allowed, whatever the file's length.
  const sheet = await workbook.csv.read(Readable.from([bytes]), {
    parserOptions: { maxRows: maxRows + 1 },
  });
  if (sheet.rowCount > maxRows) throw new ArchiveRefusal('rows', maxRows);
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => rows.push(rowOf(number, row.values)));
  return rows;
}

/** Reads the first sheet of an xlsx file (checked as a zip first) or a CSV file, at most `maxRows` rows. */
export function readSheet(input: SheetInput): Promise<SheetRow[]> {
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  return input.format === 'csv' ? readCsv(bytes, input.maxRows) : readXlsx(bytes, input.maxRows, input.zip);
}
