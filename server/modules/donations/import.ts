import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import {
  type ImportEmployerRow,
  type ImportMap,
  type ImportRowError,
  type ImportTestResponse,
  type ImportUploadResponse,
  importMessages,
  mappingProblem,
  maxImportBytes,
} from '../../../src/contract/donation-import.ts';
import { isStatusId, type StatusId, statuses, statusIdOf } from '../../../src/contract/statuses.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { anyOf, arrayParam, insertUnnest, nextIds, orgKey, orgKeyPairs, queryRows } from '../../db/rows.ts';
import {
  companies,
  donationEmployerEvents,
  donationStatusHistory,
  donations,
  donors,
  employerReviews,
  organizations,
} from '../../db/schema.ts';
import { flushSearchIndexes } from '../../db/search-indexes.ts';
import { HttpError } from '../../http/errors.ts';
import { consoleLogger, type Logger } from '../../http/logger.ts';
import { afterCommit } from '../../jobs/after-commit.ts';
import { campaignTermsOf } from '../campaigns/campaigns.service.ts';
import { identifyEmployers } from '../employers/identify.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { descendantIds } from '../permissions/permissions.service.ts';
import { type CompanyRow, estimateOf, mergeBelowMinimum, resolutionCompany } from './donations.service.ts';
import { readImportFile } from './import-files.ts';
import { type ImportRowValues, type ImportTable, parseMapField, proposeMap } from './import-parse.ts';
import type { MatchNotifier } from './match-notifier.ts';
import { resolveStatus } from './status-resolution.ts';

/**
 * The donation file import (spec: "POST /api/organization/{id}/donation/import-file/Test … Response:
 * map, sample, organization" and "…/Upload, form data: donations, type=Upload, opt_in, no_company,
 * map"). Test reads and checks every row and writes nothing; Upload creates the readable,
 * non-duplicate rows in one transaction, the way POST donation creates one match: donors found by
 * organization and email, the status resolved from the organization and the catalogue company,
 * a status-history row by the user.
 *
 * The options:
 * - opt_in (Test: sendOptInEmail): the donor must opt in before their company is contacted, so a
 *   match whose resolved status asks the donor to act (5 e-sign, 6 sign on paper, 7 submit in the
 *   company portal, 8 notify the company) starts at 24 Awaiting Donor Opt-In instead.
 * - no_company (Test: emailForEmployer): rows without a company are imported at 23 Missing
 *   Company Hold (the donor is emailed for their employer); without it they are reported as errors.
 */

export type ImportOptions = { optIn: boolean; noCompany: boolean };

/** The statuses that ask the donor to act, which opt_in holds at 24 Awaiting Donor Opt-In. */
export const donorActionStatuses: readonly number[] = [
  statusIdOf.donorToESign,
  statusIdOf.originalSignatureOnly,
  statusIdOf.donorToSubmitInPortal,
  statusIdOf.donorToNotifyCompany,
];

/** 24 Awaiting Donor Opt-In. */
const awaitingOptIn: StatusId = 24;

type OrgRow = {
  id: number;
  name: string;
  ein: string | null;
  deactivated: boolean;
  complete: boolean;
  type: string;
  employerThreshold: number;
  correctEmailTypos: boolean;
};

/** A row ready to be created. */
type Planned = ImportRowValues & {
  organizationId: number;
  company: CompanyRow | null;
  status: StatusId;
  /** What the employer identification answered (null: the file named a catalogue company id). */
  employer: ImportEmployerRow;
  /** A proposal below the threshold, for the review list. */
  review: { companyId: number; method: string; confidence: number; reason: string } | null;
};

type Plan = {
  table: ImportTable;
  map: ImportMap;
  organization: ImportTestResponse['organization'];
  hasChildren: boolean;
  ready: Planned[];
  duplicates: number;
  errors: ImportRowError[];
  threshold: number;
};

const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');

async function organizationTree(db: Queryable, orgId: number): Promise<OrgRow[]> {
  const ids = [orgId, ...(await descendantIds(db, orgId))];
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      ein: organizations.ein,
      deactivated: organizations.rule_deactivated,
      complete: organizations.complete,
      type: organizations.type,
      employerThreshold: organizations.employer_threshold,
      correctEmailTypos: organizations.correct_email_typos,
    })
    .from(organizations)
    .where(inArray(organizations.id, ids));
  // The organization itself first, then its chapters by name.
  return rows.sort((a, b) => (a.id === orgId ? -1 : b.id === orgId ? 1 : a.name.localeCompare(b.name)));
}

/** The organization a row goes to: its organization_id, organization_name or EIN, among the organization and its chapters. */
function routeRow(row: ImportRowValues, tree: OrgRow[], hasChildren: boolean): OrgRow | string {
  if (row.organizationId !== null) {
    const found = tree.find((o) => o.id === row.organizationId);
    return found ?? `Organization ${row.organizationId} is not this organization or one of its chapters`;
  }
  if (row.organizationName !== null) {
    const name = row.organizationName.toLowerCase();
    const found = tree.find((o) => o.name.trim().toLowerCase() === name);
    return (
      found ?? `Unknown organization '${row.organizationName}': not this organization or one of its chapters`
    );
  }
  if (row.ein !== null) {
    const found = tree.filter((o) => digits(o.ein) !== '' && digits(o.ein) === digits(row.ein));
    if (found.length === 1 && found[0]) return found[0];
    if (found.length === 0) return `EIN ${row.ein} is not this organization's or one of its chapters'`;
  }
  if (hasChildren) return 'Missing organization name';
  // biome-ignore lint/style/noNonNullAssertion: the tree always holds the organization itself.
  return tree[0]!;
}

/** What identifies a gift without a transaction id: organization, donor, amount and (UTC) day. */
const fingerprint = (org: number, email: string | null, name: string | null, cents: number, day: Date) =>
  [
    org,
    email ? `e:${email.toLowerCase()}` : `n:${(name ?? '').trim().toLowerCase()}`,
    cents,
    day.toISOString().slice(0, 10),
  ].join('\u0000');

const statusByName = new Map(Object.entries(statuses).map(([id, name]) => [name.toLowerCase(), Number(id)]));

/** Reads the file, applies the map, and sorts every row into ready, duplicate or error. */
async function plan(
  db: Queryable,
  orgId: number,
  file: File,
  mapText: string | undefined,
  options: ImportOptions,
): Promise<Plan> {
  // The body limit leaves room for the multipart envelope; the file itself gets exactly 10 MB.
  if (file.size > maxImportBytes) throw new HttpError(413, importMessages.tooLarge);
  // A file the Test just read is not read again by its Upload (import-files.ts).
  const { table, map, rows } = await readImportFile(
    orgId,
    file.name,
    new Uint8Array(await file.arrayBuffer()),
    (headers) =>
      mapText === undefined || mapText.trim() === '' ? proposeMap(headers) : parseMapField(mapText, headers),
  );
  const tree = await organizationTree(db, orgId);
  const self = tree.find((o) => o.id === orgId);
  if (!self) throw new HttpError(404, `Organization with id ${orgId} not found`);
  const hasChildren = tree.length > 1;
  const organization = {
    id: self.id,
    name: self.name,
    children: tree.filter((o) => o.id !== orgId).map((o) => ({ id: o.id, name: o.name })),
  };

  const errors: ImportRowError[] = [];
  const read: Array<ImportRowValues & { org: OrgRow }> = [];
  for (const values of rows) {
    if ('reason' in values) {
      errors.push({ row: values.line, reason: values.reason });
      continue;
    }
    const org = routeRow(values, tree, hasChildren);
    if (typeof org === 'string') errors.push({ row: values.line, reason: org });
    else read.push({ ...values, org });
  }

  // The employer of every row without a catalogue company id, in one statement (issue #31), with
  // the organization's settings: misspelt common email domains corrected, its threshold applied.
  const identifying = read.filter((r) => r.companyId === null);
  const answers = await identifyEmployers(
    db,
    identifying.map((r) => ({ employer: r.companyName, email: r.donorEmail })),
    { organizationId: orgId, correctEmails: self.correctEmailTypos },
  );
  const answerOf = new Map(identifying.map((r, i) => [r, answers[i]]));
  // One query for the catalogue companies numbered in the file or found for it.
  const ids = [
    ...new Set([
      ...read.flatMap((r) => (r.companyId !== null ? [r.companyId] : [])),
      ...answers.flatMap((a) => (a.company_id !== null ? [a.company_id] : [])),
    ]),
  ];
  const found = ids.length ? await db.select().from(companies).where(inArray(companies.id, ids)) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  const threshold = self.employerThreshold;
  for (const r of identifying) {
    const correction = answerOf.get(r)?.correction;
    if (correction) r.donorEmail = correction.to;
  }

  // One query for the transaction ids the organizations already hold: one probe of the unique
  // index per (organization, transaction id) pair of the file.
  const pairs = read.flatMap((r) => (r.transactionId ? [[r.org.id, r.transactionId] as const] : []));
  const existing = new Set<string>();
  if (pairs.length > 0) {
    const rows = await queryRows<{ org: number; transaction_id: string }>(
      db,
      sql`select k.org, k.transaction_id from ${orgKeyPairs(pairs, 'transaction_id')}
          cross join lateral (select 1 from ${donations} d
            where d.organization_id = k.org and d.transaction_id = k.transaction_id limit 1) as held`,
    );
    for (const r of rows) existing.add(orgKey(r.org, r.transaction_id));
  }

  // Rows without a transaction id are matched on what they say instead: the same organization,
  // donor (email, else name), amount and day as a match already stored. One query, bounded by the
  // file's days and amounts.
  const untracked = read.filter((r) => !r.transactionId);
  const stored = new Set<string>();
  if (untracked.length > 0) {
    const days = untracked.map((r) => r.donatedAt.getTime());
    const from = new Date(Math.min(...days) - 86_400_000);
    const to = new Date(Math.max(...days) + 86_400_000);
    const amounts = [...new Set(untracked.map((r) => r.amountCents))];
    const rows = await db
      .select({
        org: donations.organization_id,
        amount: donations.amount_cents,
        donated_at: donations.donated_at,
        name: donors.name,
        email: donors.email,
      })
      .from(donations)
      .leftJoin(donors, eq(donors.id, donations.donor_id))
      .where(
        and(
          inArray(
            donations.organization_id,
            tree.map((o) => o.id),
          ),
          anyOf(donations.amount_cents, amounts, 'int'),
          gte(donations.donated_at, from),
          lte(donations.donated_at, to),
        ),
      );
    for (const r of rows) stored.add(fingerprint(r.org, r.email, r.name, r.amount, r.donated_at));
  }

  const ready: Planned[] = [];
  let duplicates = 0;
  for (const row of read) {
    const fail = (reason: string) => errors.push({ row: row.line, reason });
    let company: CompanyRow | null = null;
    let employer: ImportEmployerRow;
    let review: Planned['review'] = null;
    if (row.companyId !== null) {
      company = byId.get(row.companyId) ?? null;
      if (!company) {
        fail(`Unknown company ID ${row.companyId}`);
        continue;
      }
      employer = {
        row: row.line,
        typed: row.companyName,
        email: row.donorEmail,
        company_id: company.id,
        company_name: company.name,
        confidence: 100,
        method: 'person',
        reason: `company ID ${company.id} given in the file`,
        no_employer: false,
        applied: true,
        needs_person: false,
        email_correction: null,
      };
    } else {
      const answer = answerOf.get(row);
      if (!answer) throw new Error('a row was not identified');
      const applied = answer.company_id !== null && answer.confidence >= threshold;
      if (applied && answer.company_id !== null) company = byId.get(answer.company_id) ?? null;
      else if (answer.company_id !== null && answer.method !== null)
        review = {
          companyId: answer.company_id,
          method: answer.method,
          confidence: answer.confidence,
          reason: answer.reason,
        };
      employer = {
        row: row.line,
        typed: row.companyName,
        email: row.donorEmail,
        company_id: answer.company_id,
        company_name: answer.company_name,
        confidence: answer.confidence,
        method: answer.method,
        reason: answer.reason,
        no_employer: answer.no_employer,
        applied: company !== null,
        needs_person: company === null,
        email_correction: answer.correction,
      };
    }
    if (!company && !row.companyName && !options.noCompany) {
      errors.push({
        row: row.line,
        reason:
          'Missing company: choose to import rows without a company to hold them at Missing Company Hold',
        kind: 'missing_company',
      });
      continue;
    }
    let status: StatusId;
    if (row.statusId !== null) {
      if (!isStatusId(row.statusId)) {
        fail(`Unknown status ID ${row.statusId}`);
        continue;
      }
      status = row.statusId;
    } else if (row.statusName !== null) {
      const id = statusByName.get(row.statusName.toLowerCase());
      if (id === undefined || !isStatusId(id)) {
        fail(`Unknown status '${row.statusName}'`);
        continue;
      }
      status = id;
    } else {
      status = resolveStatus({
        organization: row.org,
        company: resolutionCompany(company),
        amount_cents: row.amountCents,
        recurring: false,
      });
      if (options.optIn && donorActionStatuses.includes(status)) status = awaitingOptIn;
    }
    if (row.transactionId) {
      const key = orgKey(row.org.id, row.transactionId);
      if (existing.has(key)) {
        duplicates += 1;
        continue;
      }
      // A transaction id repeated further down the file is a duplicate of the first.
      existing.add(key);
    } else if (
      stored.has(fingerprint(row.org.id, row.donorEmail, row.donorName, row.amountCents, row.donatedAt))
    ) {
      duplicates += 1;
      continue;
    }
    ready.push({ ...row, organizationId: row.org.id, company, status, employer, review });
  }
  errors.sort((a, b) => a.row - b.row);
  return { table, map, organization, hasChildren, ready, duplicates, errors, threshold };
}

/** spec: "…/import-file/Test … Response: map, sample, organization". Nothing is written. */
export async function testImport(
  db: Queryable,
  orgId: number,
  file: File,
  mapText: string | undefined,
  options: ImportOptions,
): Promise<ImportTestResponse> {
  const result = await plan(db, orgId, file, mapText, options);
  return {
    map: result.map,
    headers: result.table.headers,
    original_headers: result.table.originalHeaders,
    sample: result.table.rows.slice(0, 5).map((r) => r.cells),
    rows: result.table.rows.length,
    errors: result.errors,
    ready: result.ready.length,
    duplicates: result.duplicates,
    organization: result.organization,
    employers: result.ready.map((r) => r.employer),
    employer_threshold: result.threshold,
  };
}

/** Finds or creates the donors of the rows (by organization and email; one without email is new). */
async function donorIds(tx: Tx, rows: Planned[]): Promise<number[]> {
  const keyOf = (r: Planned) => (r.donorEmail ? orgKey(r.organizationId, r.donorEmail) : null);
  const known = new Map<string, number>();
  // One probe of the donors' index per (organization, email) of the file.
  const pairs = rows.flatMap((r) => (r.donorEmail ? [[r.organizationId, r.donorEmail] as const] : []));
  if (pairs.length > 0) {
    const found = await queryRows<{ id: number; org: number; email: string }>(
      tx,
      sql`select found.id, k.org, k.email from ${orgKeyPairs(pairs, 'email')}
          cross join lateral (select d.id from ${donors} d
            where d.organization_id = k.org and d.email = k.email order by d.id limit 1) as found`,
    );
    for (const d of found) known.set(orgKey(d.org, d.email), d.id);
  }
  // As POST donation does, a known donor takes the name the file gives (the last row's).
  const renamed = new Map<number, { name: string; phone: string | null }>();
  for (const r of rows) {
    const key = keyOf(r);
    const id = key ? known.get(key) : undefined;
    if (id !== undefined && r.donorName) renamed.set(id, { name: r.donorName, phone: r.donorPhone });
  }
  if (renamed.size > 0) {
    const list = [...renamed];
    await tx.execute(
      sql`update ${donors} set name = v.name, phone = coalesce(v.phone, ${donors.phone}), updated_at = now()
          from unnest(${arrayParam(
            list.map(([id]) => id),
            'int',
          )}, ${arrayParam(
            list.map(([, v]) => v.name),
            'text',
          )}, ${arrayParam(
            list.map(([, v]) => v.phone),
            'text',
          )}) as v(id, name, phone) where ${donors.id} = v.id`,
    );
  }
  // New donors: one per email (the first row's name), one per row without an email.
  const fresh: Array<{ key: string | null; row: Planned }> = [];
  const pending = new Set<string>();
  for (const r of rows) {
    const key = keyOf(r);
    if (key && (known.has(key) || pending.has(key))) continue;
    if (key) pending.add(key);
    fresh.push({ key, row: r });
  }
  const newIds = await nextIds(tx, 'donors', fresh.length);
  if (fresh.length > 0)
    await tx.execute(
      insertUnnest(donors, [
        { column: donors.id, type: 'int', values: newIds },
        { column: donors.organization_id, type: 'int', values: fresh.map((f) => f.row.organizationId) },
        { column: donors.name, type: 'text', values: fresh.map((f) => f.row.donorName) },
        { column: donors.email, type: 'text', values: fresh.map((f) => f.row.donorEmail) },
        { column: donors.phone, type: 'text', values: fresh.map((f) => f.row.donorPhone) },
      ]),
    );
  const byRow = new Map<Planned, number>();
  fresh.forEach(({ key, row }, i) => {
    // biome-ignore lint/style/noNonNullAssertion: one id per new donor.
    const id = newIds[i]!;
    if (key) known.set(key, id);
    else byRow.set(row, id);
  });
  return rows.map((r) => {
    const key = keyOf(r);
    const id = key ? known.get(key) : byRow.get(r);
    if (id === undefined) throw new Error('a row has no donor');
    return id;
  });
}

/**
 * spec: "…/import-file/Upload". The map is checked first (the spec's mapping messages), then the
 * ready rows are created in one transaction: all of them or, on any failure, none.
 */
export async function uploadImport(
  db: Db,
  orgId: number,
  userId: number,
  file: File,
  mapText: string | undefined,
  options: ImportOptions,
  /**
   * Given, the donors of the new matches are emailed as POST donation does (one each a week):
   * their emails are recorded in the transaction and rendered into the outbox once it commits
   * (in the background; a failure there is logged to `logger` and retried by the mail worker).
   */
  notifier?: MatchNotifier,
  logger: Logger = consoleLogger,
): Promise<ImportUploadResponse> {
  if (mapText === undefined || mapText.trim() === '') throw new HttpError(400, importMessages.badMap);
  const result = await plan(db, orgId, file, mapText, options);
  const problem = mappingProblem(result.map, result.hasChildren);
  if (problem) throw new HttpError(400, problem);
  const rows = result.ready;
  let queued = 0;
  if (rows.length > 0)
    try {
      await db.transaction(async (tx) => {
        const donorIdOf = await donorIds(tx, rows);
        const terms = await campaignTermsOf(
          tx,
          rows.map((r) => r.organizationId),
          rows.flatMap((r) => (r.company ? [r.company.id] : [])),
        );
        // Every match and its first status-history row in one statement (lists, not a parameter
        // per value: no batches), with ids taken first so each row's id is known.
        const created = await nextIds(tx, 'donations', rows.length);
        const estimates = rows.map((r) =>
          estimateOf(
            r.status,
            { organization_id: r.organizationId, amount_cents: r.amountCents, donated_at: r.donatedAt },
            r.company,
            terms,
          ),
        );
        await tx.execute(
          sql`with created as (${insertUnnest(donations, [
            { column: donations.id, type: 'int', values: created },
            { column: donations.organization_id, type: 'int', values: rows.map((r) => r.organizationId) },
            { column: donations.donor_id, type: 'int', values: donorIdOf },
            { column: donations.company_id, type: 'int', values: rows.map((r) => r.company?.id ?? null) },
            {
              column: donations.company_name,
              type: 'text',
              values: rows.map((r) => r.company?.name ?? r.companyName),
            },
            { column: donations.amount_cents, type: 'int', values: rows.map((r) => r.amountCents) },
            { column: donations.matched_cents, type: 'int', values: estimates.map((e) => e.matched_cents) },
            { column: donations.campaign_id, type: 'int', values: estimates.map((e) => e.campaign_id) },
            { column: donations.donated_at, type: 'timestamptz', values: rows.map((r) => r.donatedAt) },
            { column: donations.transaction_id, type: 'text', values: rows.map((r) => r.transactionId) },
            { column: donations.status_id, type: 'int', values: rows.map((r) => r.status) },
            { column: donations.custom, type: 'jsonb', values: rows.map((r) => r.custom) },
            {
              column: donations.employer_method,
              type: 'text',
              values: rows.map((r) => (r.company ? r.employer.method : null)),
            },
            {
              column: donations.employer_confidence,
              type: 'int',
              values: rows.map((r) => (r.company ? r.employer.confidence : null)),
            },
            {
              column: donations.employer_reason,
              type: 'text',
              values: rows.map((r) => (r.company ? r.employer.reason : null)),
            },
          ])} returning ${sql.identifier('id')}, ${sql.identifier('status_id')})
          insert into ${donationStatusHistory} (donation_id, from_status_id, to_status_id, user_id)
          select id, null, status_id, ${userId}::int from created`,
        );
        await recordEmployers(tx, orgId, userId, rows, created);
        const belowMinimum: { id: number; row: Planned; donorId: number; company: CompanyRow }[] = [];
        rows.forEach((row, i) => {
          const id = created[i];
          const donorId = donorIdOf[i];
          if (
            row.status === statusIdOf.belowMinimum &&
            row.company &&
            id !== undefined &&
            donorId !== undefined
          )
            belowMinimum.push({ id, row, donorId, company: row.company });
        });
        belowMinimum.sort((a, b) => b.row.donatedAt.getTime() - a.row.donatedAt.getTime() || b.id - a.id);
        for (const m of belowMinimum)
          await mergeBelowMinimum(tx, m.row.organizationId, m.id, m.donorId, m.company, userId, 'staff');
        // Once for the whole upload: the weekly limit and its locks are read once.
        if (notifier) queued = (await notifier.notify(tx, created, { queue: true })).length;
        await webhookEvents.statusChanged(tx, created);
      });
      if (notifier && queued > 0)
        afterCommit(db, 'rendering queued donor emails', () => notifier.renderQueued(db), logger);
      // The contains filters' indexes took the new donors and matches into their pending lists.
      afterCommit(
        db,
        "merging the search indexes' pending lists",
        () => flushSearchIndexes(db, ['donors', 'donations']),
        logger,
      );
    } catch (error) {
      // Another upload of the same rows committed first: the unique transaction id refused ours.
      if (isUniqueViolation(error, 'donations_org_transaction_unique'))
        throw new HttpError(
          409,
          'Some of these donations were imported by another upload meanwhile. Test the file again.',
        );
      throw error;
    }
  return {
    message: importMessages.uploaded,
    created: rows.length,
    duplicates: result.duplicates,
    errors: result.errors,
    employers_found: rows.filter((r) => r.company && r.employer.method !== 'person').length,
    employers_to_review: rows.filter((r) => r.review).length,
  };
}

/**
 * The employer history of an upload's matches (issue #31), in three statements whatever its
 * size: each company found and how, each donor email corrected on the way in (the original
 * kept), and each proposal below the threshold put in the organization's review list.
 */
async function recordEmployers(tx: Tx, orgId: number, userId: number, rows: Planned[], ids: number[]) {
  const at = (i: number) => {
    const id = ids[i];
    if (id === undefined) throw new Error('a row has no match id');
    return id;
  };
  const found = rows.flatMap((r, i) => (r.company && r.employer.method ? [{ r, id: at(i) }] : []));
  const corrected = rows.flatMap((r, i) => (r.employer.email_correction ? [{ r, id: at(i) }] : []));
  const events = [
    ...found.map(({ r, id }) => ({
      id,
      kind: 'identified',
      company: r.company?.id ?? null,
      method: r.employer.method,
      confidence: r.employer.confidence,
      reason: r.employer.reason,
      from: null as string | null,
      to: null as string | null,
    })),
    ...corrected.map(({ r, id }) => ({
      id,
      kind: 'email_corrected',
      company: null,
      method: null,
      confidence: null,
      reason: `the donor's email ${r.employer.email_correction?.from} was corrected to ${r.employer.email_correction?.to}`,
      from: r.employer.email_correction?.from ?? null,
      to: r.employer.email_correction?.to ?? null,
    })),
  ];
  if (events.length > 0)
    await tx.execute(
      insertUnnest(donationEmployerEvents, [
        { column: donationEmployerEvents.donation_id, type: 'int', values: events.map((e) => e.id) },
        { column: donationEmployerEvents.kind, type: 'text', values: events.map((e) => e.kind) },
        { column: donationEmployerEvents.company_id, type: 'int', values: events.map((e) => e.company) },
        { column: donationEmployerEvents.method, type: 'text', values: events.map((e) => e.method) },
        { column: donationEmployerEvents.confidence, type: 'int', values: events.map((e) => e.confidence) },
        { column: donationEmployerEvents.reason, type: 'text', values: events.map((e) => e.reason) },
        { column: donationEmployerEvents.email_from, type: 'text', values: events.map((e) => e.from) },
        { column: donationEmployerEvents.email_to, type: 'text', values: events.map((e) => e.to) },
        { column: donationEmployerEvents.user_id, type: 'int', values: events.map(() => userId) },
      ]),
    );
  const reviews = rows.flatMap((r, i) =>
    r.review ? [{ review: r.review, id: at(i), org: r.organizationId }] : [],
  );
  if (reviews.length > 0)
    await tx.execute(
      insertUnnest(employerReviews, [
        { column: employerReviews.organization_id, type: 'int', values: reviews.map((r) => r.org ?? orgId) },
        { column: employerReviews.donation_id, type: 'int', values: reviews.map((r) => r.id) },
        { column: employerReviews.company_id, type: 'int', values: reviews.map((r) => r.review.companyId) },
        { column: employerReviews.method, type: 'text', values: reviews.map((r) => r.review.method) },
        { column: employerReviews.confidence, type: 'int', values: reviews.map((r) => r.review.confidence) },
        { column: employerReviews.reason, type: 'text', values: reviews.map((r) => r.review.reason) },
      ]),
    );
}

/** Checks the Upload call's own fields, then runs it. */
export function uploadType(type: string | undefined): void {
  if (type !== undefined && type !== 'Upload') throw new HttpError(400, "type must be 'Upload'");
}

/** True/false form values: 'true', '1', 'on', 'yes' are true. */
export function formFlag(value: string | undefined): boolean {
  return value !== undefined && ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
}
