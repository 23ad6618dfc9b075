import * as XLSX from '@e965/xlsx';
import { parse as parseCsv } from 'csv-parse/sync';
import { isValid, parse as parseDate } from 'date-fns';
import {
  customTargetPrefix,
  type ImportMap,
  importMessages,
  isImportTarget,
  maxImportRows,
  normaliseHeader,
  skipTarget,
  tableLimits,
} from '../../../src/contract/donation-import.ts';
import { hiddenCustomKeys } from '../../../src/contract/donations.ts';
import { isEmailAddress } from '../../../src/contract/email.ts';
import { recogniseImportHeader } from '../../../src/contract/import-headers.ts';
import { HttpError } from '../../http/errors.ts';
import { zipSizeProblem } from './zip-sizes.ts';

/**
 * Reading a donation file (spec: "Upload: up to 4000 rows; the first row must be column names
 * (normalised to snake_case); accepted types .csv, .xlsx, .xls; a full name is one field") and
 * turning its cells into match values. Pure: no database here (import.ts does that part).
 */

export type FileKind = 'csv' | 'spreadsheet';

/** A file's table: its headers (original and normalised, unique) and data rows with their line numbers. */
export type ImportTable = {
  originalHeaders: string[];
  headers: string[];
  /** Each row keyed by normalised header; `line` is the 1-based row of the file (header = 1). */
  rows: Array<{ line: number; cells: Record<string, string> }>;
};

const zipMagic = [0x50, 0x4b, 0x03, 0x04];
/** The OLE compound file of an Excel 97-2003 workbook. */
const cfbMagic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * The kind of a file, by its extension AND its content: a spreadsheet extension needs a workbook
 * inside (an .xls saved as .xlsx, or the reverse, is read by content), a .csv needs text.
 */
export function fileKind(name: string, bytes: Uint8Array): FileKind {
  const extension = /\.[^.]+$/.exec(name.trim().toLowerCase())?.[0];
  const workbook = startsWith(bytes, zipMagic) || startsWith(bytes, cfbMagic);
  if ((extension === '.xlsx' || extension === '.xls') && workbook) return 'spreadsheet';
  if (extension === '.csv' && !workbook && !bytes.subarray(0, 8192).includes(0)) return 'csv';
  throw new HttpError(400, importMessages.unsupportedType);
}

/** Headers normalised to snake_case; blank ones named column_{n}, repeats suffixed _2, _3. */
export function uniqueHeaders(original: string[]): string[] {
  const seen = new Map<string, number>();
  return original.map((header, i) => {
    const base = normaliseHeader(header) || `column_${i + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value).trim();
}

const csvOptions = { bom: true, relax_quotes: true, relax_column_count: true, trim: true } as const;

/**
 * The file's records, each with the line of the file it ends on (for row errors). csv-parse's
 * per-record `info` gives the line but costs a third of the parse (13 of 37 ms for 4000 rows), so
 * the file is read without it first, blank lines kept: when there are as many records as lines,
 * each record is its own line. Only a file where a quoted cell spans lines (or whose lines end in
 * a lone carriage return) is read again with `info`.
 */
function csvRecords(bytes: Uint8Array): Array<{ line: number; cells: string[] }> {
  const text = new TextDecoder('utf-8').decode(bytes);
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  if (!text.endsWith('\n')) lines++;
  // A file of a million short lines is refused before it is parsed: a record is at least a line.
  if (lines > tableLimits.rows) throw new HttpError(400, importMessages.tooManySheetRows);
  let records: Array<{ line: number; cells: string[] }>;
  try {
    const plain = parseCsv(text, csvOptions) as string[][];
    if (plain.length === lines && !/\r(?!\n)/.test(text))
      records = plain.map((cells, i) => ({ line: i + 1, cells }));
    else {
      const described = parseCsv(text, {
        ...csvOptions,
        skip_empty_lines: true,
        info: true,
      }) as unknown as Array<{
        record: string[];
        info: { lines: number };
      }>;
      records = described.map(({ record, info }) => ({ line: info.lines, cells: record }));
    }
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new HttpError(400, `${importMessages.unreadable}${line ? ` (near line ${line})` : ''}`);
  }
  if (records.some((record) => record.cells.length > tableLimits.columns))
    throw new HttpError(400, importMessages.tooManyColumns);
  return records;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Date cells hold day numbers; they become 'yyyy-MM-dd' (with the time when there is one) here,
 * where the cell's format says it is a date and the workbook says which day 0 it counts from
 * (1900, or 1904 for old Mac workbooks). Amount cells keep their full value.
 */
function datesAsText(sheet: XLSX.WorkSheet, date1904: boolean): void {
  for (const [address, cell] of Object.entries(sheet)) {
    if (address.startsWith('!')) continue;
    const c = cell as XLSX.CellObject;
    if (c.t !== 'n' || typeof c.v !== 'number' || typeof c.z !== 'string' || !XLSX.SSF.is_date(c.z)) continue;
    const parts = XLSX.SSF.parse_date_code(c.v, { date1904 }) as
      | { y: number; m: number; d: number; H: number; M: number; S: number }
      | undefined;
    if (!parts) continue;
    const time = parts.H || parts.M || parts.S ? ` ${pad(parts.H)}:${pad(parts.M)}:${pad(parts.S)}` : '';
    c.t = 's';
    c.v = `${parts.y}-${pad(parts.m)}-${pad(parts.d)}${time}`;
    // A text cell keeping a date format would be turned back into a date by sheet_to_json.
    delete c.z;
    delete c.w;
  }
}

function spreadsheetRecords(bytes: Uint8Array): Array<{ line: number; cells: string[] }> {
  let workbook: XLSX.WorkBook;
  try {
    // One row past the limit is read, so a longer sheet is known to be too long without
    // building its cells; the sheet's range is then cut to the rows that hold cells.
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      cellDates: false,
      cellNF: true,
      sheetRows: tableLimits.rows + 1,
    });
  } catch {
    throw new HttpError(400, importMessages.unreadable);
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet) throw new HttpError(400, importMessages.empty);
  // Rows are given in full below (blank cells filled in), so the range is checked first: a few
  // cells far apart would otherwise fill the memory with blanks.
  if (sheet['!ref']) {
    const range = XLSX.utils.decode_range(sheet['!ref']);
    const columns = range.e.c - range.s.c + 1;
    if (range.e.r >= tableLimits.rows) throw new HttpError(400, importMessages.tooManySheetRows);
    if (columns > tableLimits.columns) throw new HttpError(400, importMessages.tooManyColumns);
    if ((range.e.r - range.s.r + 1) * columns > tableLimits.cells)
      throw new HttpError(400, importMessages.tooManyCells);
  }
  datesAsText(sheet, workbook.Workbook?.WBProps?.date1904 === true);
  // Blank rows are kept (and dropped by the caller) so each row's index gives its line in the sheet.
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: true,
    blankrows: true,
    defval: '',
  });
  const first = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']).s.r : 0;
  return rows.map((row, i) => ({ line: first + i + 1, cells: row.map(cellText) }));
}

/** The data rows a file may hold, and the message past them. */
export type RowLimit = { rows: number; message: string };

const importRowLimit: RowLimit = { rows: maxImportRows, message: importMessages.tooManyRows };

/**
 * Reads the first sheet (or the CSV): header row, then at most 4000 data rows (a payout report
 * may hold more: `limit`). Synchronous and unguarded against archives: uploads go through
 * `readUploadedTable` (in a worker, table-reader.ts).
 */
export function readTable(name: string, bytes: Uint8Array, limit: RowLimit = importRowLimit): ImportTable {
  if (bytes.byteLength === 0) throw new HttpError(400, importMessages.empty);
  const kind = fileKind(name, bytes);
  const records = (kind === 'csv' ? csvRecords(bytes) : spreadsheetRecords(bytes)).filter((r) =>
    r.cells.some((cell) => cell !== ''),
  );
  const [headerRecord, ...data] = records;
  if (!headerRecord) throw new HttpError(400, importMessages.empty);
  const originalHeaders = headerRecord.cells.map((h) => h.trim());
  // A header row of numbers, amounts or dates is a data row: the file has no column names.
  if (originalHeaders.filter((h) => h !== '').every((h) => /^[\d$.,/:\s-]+$/.test(h)))
    throw new HttpError(400, importMessages.noHeader);
  if (data.length === 0) throw new HttpError(400, importMessages.noRows);
  if (data.length > limit.rows) throw new HttpError(400, limit.message);
  // Every row gets a cell for every column name (the row objects below).
  if (data.length * originalHeaders.length > tableLimits.cells)
    throw new HttpError(400, importMessages.tooManyCells);
  const headers = uniqueHeaders(originalHeaders);
  return {
    originalHeaders,
    headers,
    rows: data.map(({ line, cells }) => ({
      line,
      cells: Object.fromEntries(headers.map((h, i) => [h, cells[i] ?? ''])),
    })),
  };
}

/**
 * `readTable` for an uploaded file: a workbook that is a zip archive (.xlsx, and an .xls that is
 * one inside) is measured first, and refused when it unpacks past `tableLimits.unpackedBytes` or
 * unpacks to more than its headers say (zip-sizes.ts).
 */
export async function readUploadedTable(
  name: string,
  bytes: Uint8Array,
  limit: RowLimit = importRowLimit,
): Promise<ImportTable> {
  if (bytes.byteLength > 0 && fileKind(name, bytes) === 'spreadsheet' && startsWith(bytes, zipMagic)) {
    const problem = await zipSizeProblem(bytes, tableLimits.unpackedBytes);
    if (problem === 'too-large') throw new HttpError(413, importMessages.unpacksTooLarge);
    if (problem === 'lying') throw new HttpError(400, importMessages.unpackedSizeMismatch);
    if (problem === 'unreadable') throw new HttpError(400, importMessages.unreadable);
  }
  return readTable(name, bytes, limit);
}

/**
 * The proposed map: each recognised header to its target (the first column to claim a target
 * wins; later ones become custom fields), anything else to custom.{column}. First Name and Last
 * Name both go to donor.name (joined with a space) unless the file also has a full-name column.
 */
export function proposeMap(headers: string[]): ImportMap {
  const map: ImportMap = {};
  const taken = new Set<string>();
  const meanings = headers.map(recogniseImportHeader);
  const hasFullName = meanings.includes('donor.name');
  for (const [i, header] of headers.entries()) {
    const meaning = meanings[i];
    const part = meaning === 'donor.first_name' || meaning === 'donor.last_name';
    const target = part ? (hasFullName ? undefined : 'donor.name') : (meaning ?? undefined);
    if (target && (target === 'donor.name' || !taken.has(target))) {
      map[header] = target;
      taken.add(target);
    } else map[header] = `${customTargetPrefix}${header}`;
  }
  return map;
}

/** Parses the `map` form field: a JSON object of header → target; columns it leaves out are not uploaded. */
export function parseMapField(text: string, headers: string[]): ImportMap {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, importMessages.badMap);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpError(400, importMessages.badMap);
  const given = value as Record<string, unknown>;
  const map: ImportMap = {};
  for (const header of headers) {
    const target = Object.hasOwn(given, header) ? given[header] : skipTarget;
    if (typeof target !== 'string') throw new HttpError(400, importMessages.badMap);
    map[header] = target;
  }
  return map;
}

/** US amounts: 1200, 1200.5, $1,200.00, USD 25. A comma as the decimal mark (1.200,00) is refused. */
export function parseAmountCents(text: string): number | string {
  const cleaned = text
    .replace(/^(usd|us\$|\$)\s*/i, '')
    .replace(/\s*(usd)$/i, '')
    .trim();
  if (cleaned === '') return 'Missing amount';
  if (/^-|^\(.*\)$/.test(cleaned)) return 'Amount cannot be negative';
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$|^\.\d+$/.test(cleaned))
    return `Amount is not a number in US format (e.g. 1,200.00): '${text}'`;
  const cents = Math.round(Number(cleaned.replaceAll(',', '')) * 100);
  if (!Number.isSafeInteger(cents)) return `Amount is not a number in US format (e.g. 1,200.00): '${text}'`;
  if (cents > 100_000_000) return 'Amount is too large (at most 1,000,000.00)';
  return cents;
}

/** Excel's day 0 (serial 1 is 1900-01-01, counting the 1900 leap-year bug). */
const excelEpoch = Date.UTC(1899, 11, 30);
/** Month-name styles (Mar 1, 2025; 1-Mar-2025), read with date-fns; numeric styles are read below. */
const namedMonthFormats = [
  'MMM d, yyyy',
  'MMMM d, yyyy',
  'MMM d yyyy',
  'MMMM d yyyy',
  'd-MMM-yyyy',
  'd MMM yyyy',
];
const timePart = String.raw`(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]m)?)?`;
const isoDay = new RegExp(String.raw`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})${timePart}$`, 'i');
const usDay = new RegExp(String.raw`^(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})${timePart}$`, 'i');

/** A calendar date (and time, UTC) from its parts, or undefined when it does not exist (02/30). */
function utcDate(
  year: number,
  month: number,
  day: number,
  time: Array<string | undefined>,
): Date | undefined {
  const [h, m, sec, meridiem] = time;
  let hours = h === undefined ? 12 : Number(h);
  if (meridiem) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  const minutes = m === undefined ? 0 : Number(m);
  const seconds = sec === undefined ? 0 : Number(sec);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : undefined;
}

/**
 * Gift dates as files carry them: 2025-03-01, 03/01/2025 and 3/1/25 (US month first), Mar 1,
 * 2025, full ISO timestamps, and spreadsheet serial numbers (45717). A date without a time is
 * stored at 12:00 UTC, so it shows as the same day in every US time zone; a time given without a
 * zone is read as UTC.
 */
export function parseGiftDate(text: string): Date | string {
  const value = text.trim();
  if (value === '') return 'Missing donation date';
  let date: Date | undefined;
  if (/^\d{4,5}(\.\d+)?$/.test(value)) {
    const serial = Number(value);
    // 1..73050 covers 1900 to 2099; a bare year such as 2025 is not a date.
    if (serial >= 3000 && serial < 73050) {
      const days = Math.floor(serial);
      const fraction = serial - days;
      date = new Date(
        excelEpoch + days * 86_400_000 + (fraction > 0 ? Math.round(fraction * 86_400_000) : 43_200_000),
      );
    }
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
    date = new Date(value);
  } else if (isoDay.test(value)) {
    const [, y, m, d, ...time] = isoDay.exec(value) ?? [];
    date = utcDate(Number(y), Number(m), Number(d), time);
  } else if (usDay.test(value)) {
    const [, m, d, y, ...time] = usDay.exec(value) ?? [];
    // Two-digit years are this century (25 → 2025).
    const year = y?.length === 2 ? 2000 + Number(y) : Number(y);
    date = utcDate(year, Number(m), Number(d), time);
  } else {
    const reference = new Date(2000, 0, 1);
    for (const format of namedMonthFormats) {
      const parsed = parseDate(value, format, reference);
      if (isValid(parsed)) {
        date = utcDate(parsed.getFullYear(), parsed.getMonth() + 1, parsed.getDate(), []);
        break;
      }
    }
  }
  if (!date || Number.isNaN(date.getTime())) return `Donation date is not a date: '${text}'`;
  const year = date.getUTCFullYear();
  if (year < 1900 || year > 2200) return `Donation date is out of range: '${text}'`;
  return date;
}

/** One row's values by target, as the file gives them (no database lookups yet). */
export type ImportRowValues = {
  line: number;
  amountCents: number;
  donatedAt: Date;
  transactionId: string | null;
  donorName: string | null;
  donorEmail: string | null;
  donorPhone: string | null;
  companyName: string | null;
  companyId: number | null;
  organizationName: string | null;
  organizationId: number | null;
  ein: string | null;
  statusId: number | null;
  statusName: string | null;
  custom: Record<string, unknown>;
};

/** Where each non-column target lands in the match's custom fields. */
const customOf: Record<string, string> = {
  'address.street': 'street',
  street2: 'street2',
  city: 'city',
  state: 'state',
  zip: 'zip',
  country: 'country',
  billed_organization_id: 'billed_organization_id',
};

const wholeNumber = (text: string) =>
  /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;

/** Reads one row with the map: its values, or the reason it cannot be read. */
export function readRow(
  row: { line: number; cells: Record<string, string> },
  map: ImportMap,
): ImportRowValues | { line: number; reason: string } {
  const single: Record<string, string> = {};
  const nameParts: string[] = [];
  const custom: Record<string, unknown> = {};
  for (const [header, target] of Object.entries(map)) {
    const value = (row.cells[header] ?? '').trim();
    if (target === skipTarget || !isImportTarget(target)) continue;
    if (target === 'donor.name') {
      if (value) nameParts.push(value);
    } else if (target.startsWith(customTargetPrefix)) {
      const key = target.slice(customTargetPrefix.length);
      // The hidden keys hold the system's own data; a column of that name is kept beside them.
      if (value)
        custom[(hiddenCustomKeys as readonly string[]).includes(key) ? `${key}_column` : key] = value;
    } else single[target] = value;
  }
  const fail = (reason: string) => ({ line: row.line, reason });
  const amount = parseAmountCents(single.amount ?? '');
  if (typeof amount === 'string') return fail(amount);
  const donatedAt = parseGiftDate(single.donated_at ?? '');
  if (typeof donatedAt === 'string') return fail(donatedAt);
  const donorName = nameParts.join(' ').replace(/\s+/g, ' ').trim() || null;
  const donorEmail = single['donor.email']?.toLowerCase() || null;
  if (!donorName && !donorEmail) return fail('Missing donor name and email');
  if (donorEmail && !isEmailAddress(donorEmail))
    return fail(`Donor email is not a valid email address: '${donorEmail}'`);
  if (donorName && donorName.length > 200) return fail('Donor name is too long (at most 200 characters)');
  const companyIdText = single['company.id'] ?? '';
  const companyId = companyIdText ? wholeNumber(companyIdText) : null;
  if (companyIdText && companyId === null)
    return fail(`Company ID is not a whole number: '${companyIdText}'`);
  const organizationIdText = single.organization_id ?? '';
  const organizationId = organizationIdText ? wholeNumber(organizationIdText) : null;
  if (organizationIdText && organizationId === null)
    return fail(`Organization ID is not a whole number: '${organizationIdText}'`);
  const statusIdText = single.status_id ?? '';
  const statusId = statusIdText ? wholeNumber(statusIdText) : null;
  if (statusIdText && statusId === null) return fail(`Status ID is not a whole number: '${statusIdText}'`);
  for (const [target, key] of Object.entries(customOf)) if (single[target]) custom[key] = single[target];
  if (single.amply_id) custom.amply = { id: single.amply_id };
  // Custom values too: PostgreSQL text and jsonb refuse NUL, which would fail the whole upload.
  for (const text of [donorName, donorEmail, ...Object.values(single), ...Object.values(custom)])
    if (typeof text === 'string' && text.includes('\u0000'))
      return fail('Text cannot contain NUL characters');
  const long = Object.entries(single).find(([, v]) => v.length > 200);
  if (long) return fail(`${long[0]} is too long (at most 200 characters)`);
  return {
    line: row.line,
    amountCents: amount,
    donatedAt,
    transactionId: single.transaction_id || null,
    donorName,
    donorEmail,
    donorPhone: single['donor.phone'] || null,
    companyName: single['company.name'] || null,
    companyId,
    organizationName: single.organization_name || null,
    organizationId,
    ein: single.ein || null,
    statusId,
    statusName: single.status || null,
    custom,
  };
}
