import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One entry of a zip as the test wants it written, true or not. */
export interface ZipPart {
  name: string;
  /** the bytes as stored: raw deflate, or the content itself when `stored` */
  data: Buffer;
  /** the inflated size the headers declare */
  size: number;
  crc: number;
  stored?: boolean;
  /** general purpose flags beside UTF-8 names: 0x1 marks the entry encrypted */
  flags?: number;
  /** a unix mode (0o120777 for a symbolic link), written in the external attributes as unix zip tools do */
  unixMode?: number;
}

/** An entry deflated as a zip tool would write it, with its true size. */
export function deflatedPart(name: string, content: Buffer | string): ZipPart {
  const bytes = Buffer.from(content);
  return { name, data: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
}

/**
 * An entry of `head`, then `unit` `times` over, then `tail`, deflated without ever holding it inflated: each piece
 * is compressed alone and ends on a full flush (a byte boundary, no memory of what came before), so the unit's
 * bytes can be repeated and the pieces joined into one deflate stream. A megabyte of repeated XML deflates to about
 * a kilobyte.
 */
export function repeatedPart(name: string, head: string, unit: string, times: number, tail: string): ZipPart {
  const piece = (text: string) => deflateRawSync(Buffer.from(text), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const unitBytes = piece(unit);
  return {
    name,
    data: Buffer.concat([piece(head), ...Array.from({ length: times }, () => unitBytes), deflateRawSync(tail)]),
    size: Buffer.byteLength(head) + Buffer.byteLength(unit) * times + Buffer.byteLength(tail),
    crc: 0,
  };
}

/**
 * Writes the parts as a zip: each local header and its data, then the central directory that lists them. More than
 * 65,535 entries take the zip64 end records, as zip tools write them.
 */
export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const method = part.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const flags = 0x0800 | (part.flags ?? 0); // names in UTF-8
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(part.unixMode === undefined ? 20 : (3 << 8) | 20, 4); // made by unix when it has a mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((part.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const zip64 = parts.length > 0xffff;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : parts.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  if (!zip64) return Buffer.concat([...locals, directory, end]);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(BigInt(parts.length), 24);
  end64.writeBigUInt64LE(BigInt(parts.length), 32);
  end64.writeBigUInt64LE(BigInt(directory.length), 40);
  end64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...locals, directory, end64, locator, end]);
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** A sheet row of inline strings, as Excel writes one: `<row r=…><c r=… t="inlineStr">…`. */
export function sheetRow(number: number, cells: string[]): string {
  const cell = (text: string, i: number) =>
    `<c r="${String.fromCharCode(65 + i)}${number}" t="inlineStr"><is><t>${text}</t></is></c>`;
  return `<row r="${number}">${cells.map(cell).join('')}</row>`;
}

/** The XML of a sheet holding `rows` (the `<row>` elements). */
export const sheetXml = (rows: string) => `${SHEET_HEAD}${rows}${SHEET_TAIL}`;

/**
 * A sheet whose rows are `unit` repeated `times`: hundreds of MB of XML in a file of about a megabyte. Rows repeated
 * keep their numbers (a streaming reader does not check that they rise).
 */
export const repeatedSheet = (unit: string, times: number) =>
  repeatedPart('xl/worksheets/sheet1.xml', SHEET_HEAD, unit, times, SHEET_TAIL);

/**
 * The least an xlsx file holds around its first sheet (content types, the package's and the workbook's
 * relationships, the workbook), then `extra` parts. Excel opens it.
 */
export function xlsxAround(sheet: ZipPart, extra: ZipPart[] = []): Buffer {
  const ns = 'http://schemas.openxmlformats.org';
  const rel = `${ns}/officeDocument/2006/relationships`;
  return buildZip([
    deflatedPart(
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
        `</Types>`,
    ),
    deflatedPart(
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflatedPart(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${rel}">` +
        `<sheets><sheet name="Students" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    deflatedPart(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    sheet,
    ...extra,
  ]);
}
