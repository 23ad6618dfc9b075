import * as z from 'zod/mini';
import { EmailCorrection, EmployerAnswer } from './employers.ts';

/**
 * Donation file import (spec part 2, sections 3, 5 and 7): the Test call proposes a map and
 * checks every row; the Upload call creates the readable rows. Shared by the mapper dialog and
 * the server, so the mapping rule exists once (`mappingProblem`).
 *
 * Form fields of both calls (multipart): `donations` (the file), optional `map` (JSON of
 * normalised source header → target). Test also reads `sendOptInEmail` and `emailForEmployer`,
 * Upload reads `type=Upload`, `opt_in` and `no_company`; `opt_in` is the same choice as
 * `sendOptInEmail`, `no_company` the same as `emailForEmployer` (each call accepts both names).
 * Booleans are sent as 'true'/'false' (also '1'/'0', 'on').
 */

/** spec: "Upload mapping targets: amount, transaction_id, donated_at, amply_id, … company.id, custom.{column}". */
export const importTargets = [
  'amount',
  'transaction_id',
  'donated_at',
  'amply_id',
  'status_id',
  'status',
  'donor.email',
  'donor.name',
  'donor.phone',
  'address.street',
  'street2',
  'city',
  'state',
  'zip',
  'country',
  'organization_name',
  'organization_id',
  'ein',
  'billed_organization_id',
  'company.name',
  'company.id',
] as const;
export type ImportTarget = (typeof importTargets)[number];

/** The map value meaning "do not upload" this column. */
export const skipTarget = 'skip';
/** Prefix of the targets that keep a column as a custom field of the match: `custom.{column}`. */
export const customTargetPrefix = 'custom.';

/** Labels for the mapper's dropdown. */
export const importTargetLabels: Record<ImportTarget, string> = {
  amount: 'Amount',
  transaction_id: 'Transaction ID',
  donated_at: 'Donation Date',
  amply_id: 'Amply ID',
  status_id: 'Status ID',
  status: 'Status',
  'donor.email': 'Donor Email',
  'donor.name': 'Donor Name',
  'donor.phone': 'Donor Phone',
  'address.street': 'Street',
  street2: 'Street 2',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  country: 'Country',
  organization_name: 'Organization Name',
  organization_id: 'Organization ID',
  ein: 'EIN',
  billed_organization_id: 'Billed Organization ID',
  'company.name': 'Company Name',
  'company.id': 'Company ID',
};

/**
 * Targets several columns may share: spec "a full name is one field", so First Name and Last
 * Name both mapped to donor.name are joined with a space, in file order.
 */
export const joinableTargets: readonly string[] = ['donor.name'];

/** Normalised source header → target, `custom.{column}` or 'skip'. */
export const ImportMap = z.record(z.string(), z.string());
export type ImportMap = z.infer<typeof ImportMap>;

/** A row that cannot be read; row = 1-based line in the file including the header (the first data row is 2). */
/**
 * A row that will not be imported, and why. `kind` tells apart a row that lacks only its employer
 * (`missing_company`: the no_company option takes it, at Missing Company Hold) from one that
 * cannot be read (left out: unreadable).
 */
export const ImportRowError = z.object({
  row: z.number(),
  reason: z.string(),
  kind: z.optional(z.enum(['unreadable', 'missing_company'])),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportOrganization = z.object({
  id: z.number(),
  name: z.string(),
  children: z.array(z.object({ id: z.number(), name: z.string() })),
});

/**
 * What the employer identification (issue #31) answered for one ready row: the company found,
 * its confidence and reason, whether it is applied (at or above the organization's threshold) and
 * whether the row needs a person (no company applied: it waits at Missing Company Hold, and a
 * proposal below the threshold goes to the review list).
 */
export const ImportEmployerRow = z.object({
  row: z.number(),
  typed: z.nullable(z.string()),
  email: z.nullable(z.string()),
  ...EmployerAnswer.shape,
  applied: z.boolean(),
  needs_person: z.boolean(),
  email_correction: z.nullable(EmailCorrection),
});
export type ImportEmployerRow = z.infer<typeof ImportEmployerRow>;

export const ImportTestResponse = z.object({
  /** The map the rows were checked with: the one sent, else the proposed one. */
  map: ImportMap,
  /** Normalised headers, in file order. */
  headers: z.array(z.string()),
  original_headers: z.array(z.string()),
  /** The first 5 data rows keyed by normalised header. */
  sample: z.array(z.record(z.string(), z.string())),
  /** Data rows read. */
  rows: z.number(),
  /** Rows that cannot be read with the map. */
  errors: z.array(ImportRowError),
  /** Rows that would be created. */
  ready: z.number(),
  /**
   * Rows skipped as already imported: their transaction_id exists for the organization or earlier
   * in the file; a row without one, when a stored match has the same organization, donor (email,
   * else name), amount and day.
   */
  duplicates: z.number(),
  organization: ImportOrganization,
  /** The employer of each ready row (issue #31), in file order, and the threshold applied. */
  employers: z.optional(z.array(ImportEmployerRow)),
  employer_threshold: z.optional(z.number()),
});
export type ImportTestResponse = z.infer<typeof ImportTestResponse>;

export const ImportUploadResponse = z.object({
  message: z.string(),
  created: z.number(),
  duplicates: z.number(),
  errors: z.array(ImportRowError),
  /** Matches created with the company the identification found, and proposals left for review. */
  employers_found: z.optional(z.number()),
  employers_to_review: z.optional(z.number()),
});
export type ImportUploadResponse = z.infer<typeof ImportUploadResponse>;

/** spec: "Upload: up to 4000 rows". */
export const maxImportRows = 4000;
/** The largest file accepted (bytes). */
export const maxImportBytes = 10 * 1024 * 1024;
export const importFileExtensions = ['.csv', '.xlsx', '.xls'] as const;

/**
 * What the server reads of any uploaded table (a donation file or a payout report) before its
 * own row limit applies: a 10 MB upload can still unpack to gigabytes (a zip bomb) or hold a
 * million short lines, and reading those would take the server's memory and time.
 */
export const tableLimits = {
  /** Rows of the sheet, or lines of the CSV, blank ones included. */
  rows: 100_000,
  columns: 1_000,
  /** Rows × columns of the sheet's used range, or data rows × column names. */
  cells: 2_000_000,
  /** What a workbook (a zip archive) may unpack to, all its parts together. */
  unpackedBytes: 100 * 1024 * 1024,
  /** The memory one reading may use (the worker's heap). */
  memoryMb: 512,
  /** How long one reading may take. */
  seconds: 30,
} as const;

const limitText = (n: number) => n.toLocaleString('en-US');

export const importMessages = {
  duplicateTarget:
    "Mapping Error: One or more fields are mapped to the same column. Look for red dropdown buttons and reassign to 'custom' or 'do not upload'",
  organizationNameRequired: 'Missing Required Field: Organization Name is required for this upload.',
  amountRequired: 'Missing Required Field: Amount is required for this upload.',
  dateRequired: 'Missing Required Field: Donation Date is required for this upload.',
  donorRequired: 'Missing Required Field: Donor Name or Donor Email is required for this upload.',
  unknownTarget: 'Mapping Error: One or more columns are mapped to an unknown field.',
  badMap: 'Mapping Error: the map must be a JSON object of column to field.',
  uploaded: 'Upload successful',
  missingFile: 'Choose a file to upload (form field "donations").',
  unsupportedType: 'Unsupported file type: use .csv, .xlsx or .xls',
  tooManyRows: `Upload is limited to ${maxImportRows} rows`,
  tooLarge: 'The file is too large: uploads are limited to 10 MB.',
  empty: 'The file is empty: the first row must be the column names.',
  noHeader: 'The first row must be the column names.',
  noRows: 'The file has column names but no rows.',
  unreadable: 'The file could not be read. Save it again as .csv, .xlsx or .xls and retry.',
  tooManySheetRows: `The file has more than ${limitText(tableLimits.rows)} rows (blank rows included): files are read up to ${limitText(tableLimits.rows)} rows.`,
  tooManyColumns: `The file has more than ${limitText(tableLimits.columns)} columns: files are read up to ${limitText(tableLimits.columns)} columns.`,
  tooManyCells: `The file has too many cells: rows × columns is limited to ${limitText(tableLimits.cells)}.`,
  unpacksTooLarge: `The spreadsheet unpacks to more than ${tableLimits.unpackedBytes / 1024 / 1024} MB: workbooks are limited to ${tableLimits.unpackedBytes / 1024 / 1024} MB unpacked. Save it as .csv and retry.`,
  unpackedSizeMismatch:
    'The spreadsheet is damaged: a part of it unpacks to more than its header says. Save it again as .xlsx and retry.',
  tooDemanding: `The file needs too much memory to read (more than ${tableLimits.memoryMb} MB). Split it, or save it as .csv, and retry.`,
  tooSlow: `The file took too long to read (more than ${tableLimits.seconds} seconds). Split it, or save it as .csv, and retry.`,
  busy: 'The server is reading other files just now: try again in a minute.',
} as const;

/** spec: "the first row must be column names (normalised to snake_case)". */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A target the map may use: a listed target, `custom.{column}` or 'skip'. */
export function isImportTarget(target: string): boolean {
  return (
    target === skipTarget ||
    (importTargets as readonly string[]).includes(target) ||
    (target.startsWith(customTargetPrefix) && target.length > customTargetPrefix.length)
  );
}

/** The targets used by more than one column (other than 'skip' and donor.name): the mapper marks them red. */
export function duplicateTargets(map: ImportMap): string[] {
  const seen = new Map<string, number>();
  for (const target of Object.values(map))
    if (target !== skipTarget && !joinableTargets.includes(target))
      seen.set(target, (seen.get(target) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([target]) => target);
}

/**
 * The mapping check used by the mapper UI and the server: the spec's message, or null when the
 * map can be uploaded. spec: "two columns mapped to the same target blocks the upload …; if the
 * nonprofit has child organizations, organization_name must be mapped". Amount, date and a
 * donor (name or email) must be mapped too: no match can be created without them.
 */
export function mappingProblem(map: ImportMap, hasChildren: boolean): string | null {
  const targets = Object.values(map);
  if (targets.some((t) => !isImportTarget(t))) return importMessages.unknownTarget;
  if (duplicateTargets(map).length > 0) return importMessages.duplicateTarget;
  if (hasChildren && !targets.includes('organization_name')) return importMessages.organizationNameRequired;
  if (!targets.includes('amount')) return importMessages.amountRequired;
  if (!targets.includes('donated_at')) return importMessages.dateRequired;
  if (!targets.includes('donor.name') && !targets.includes('donor.email'))
    return importMessages.donorRequired;
  return null;
}
