import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { importMessages, maxImportBytes } from '../../../src/contract/donation-import.ts';
import { textProblem } from '../../../src/contract/fields.ts';
import {
  maxPayoutLines,
  type PayoutBatchesResponse,
  type PayoutChoice,
  type PayoutConfirmResponse,
  type PayoutMap,
  type PayoutPreviewLine,
  type PayoutPreviewResponse,
  payoutMapProblem,
  payoutMessages,
  type payoutTargets,
  proposePayoutMap,
  recogniseVendor,
  skipTarget,
} from '../../../src/contract/payouts.ts';
import { statusIdOf, statusName } from '../../../src/contract/statuses.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import {
  companies,
  donationStatusHistory,
  donations,
  donors,
  payoutBatches,
  payoutLines,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { billingStateColumns } from '../billing/bills.ts';
import { moveMatches } from '../donations/donations.service.ts';
import { type ImportTable, parseAmountCents, parseGiftDate } from '../donations/import-parse.ts';
import { readUploadedTableOffThread } from '../donations/table-reader.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { descendantIds } from '../permissions/permissions.service.ts';
import {
  classify,
  type MatchCandidate,
  type PayoutLineValues,
  rankCandidates,
  type Scored,
} from './payout-match.ts';

/**
 * Payouts received: a disbursement report read (with the donation import's file handling), each
 * line matched to a match request (payout-match.ts), shown before anything changes, then
 * confirmed. Each confirmed line is stored with a hash of its values, so a line (or a whole
 * report) confirmed again changes nothing.
 */

type Unreadable = { line: number; reason: string };
export type ParsedLine = (PayoutLineValues & { hash: string }) | (Unreadable & { hash: string });
export type ParsedReport = {
  table: ImportTable;
  map: PayoutMap;
  vendor: string | null;
  problem: string | null;
  lines: ParsedLine[];
  reportHash: string;
};

const day = (date: Date) => date.toISOString().slice(0, 10);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function parseMap(text: string | undefined, headers: string[]): PayoutMap {
  if (text === undefined || text.trim() === '') return proposePayoutMap(headers);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, payoutMessages.badMap);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, payoutMessages.badMap);
  const given = value as Record<string, unknown>;
  const map: PayoutMap = {};
  for (const header of headers) {
    const target = Object.hasOwn(given, header) ? given[header] : skipTarget;
    if (typeof target !== 'string') throw new HttpError(400, payoutMessages.badMap);
    map[header] = target;
  }
  return map;
}

/** One line's values by the map, or why it cannot be read. */
function readLine(
  row: ImportTable['rows'][number],
  map: PayoutMap,
  defaultPaidAt: string,
): PayoutLineValues | Unreadable {
  const v: Partial<Record<(typeof payoutTargets)[number], string>> = {};
  for (const [header, target] of Object.entries(map)) {
    if (target === skipTarget) continue;
    const cell = (row.cells[header] ?? '').trim();
    if (cell) v[target as (typeof payoutTargets)[number]] = cell;
  }
  const fail = (reason: string) => ({ line: row.line, reason });
  for (const text of Object.values(v)) {
    const problem = textProblem(text ?? '');
    if (problem) return fail(problem);
    if ((text ?? '').length > 200) return fail('A value is too long (at most 200 characters)');
  }
  const amount = parseAmountCents(v.amount ?? '');
  if (typeof amount === 'string') return fail(amount);
  if (amount === 0) return fail('Amount paid is zero');
  const gift = v.gift_amount ? parseAmountCents(v.gift_amount) : null;
  if (typeof gift === 'string') return fail(`Gift amount: ${gift}`);
  const donated = v.donated_at ? parseGiftDate(v.donated_at) : null;
  if (typeof donated === 'string') return fail(donated);
  const paid = v.paid_at ? parseGiftDate(v.paid_at) : null;
  if (typeof paid === 'string') return fail(paid.replace('Donation date', 'Payment date'));
  const name =
    v.donor_name ??
    ([v.donor_first_name, v.donor_last_name].filter(Boolean).join(' ').replace(/\s+/g, ' ') || null);
  const email = v.donor_email?.toLowerCase() ?? null;
  if (!name && !email) return fail('Missing donor name and email');
  return {
    line: row.line,
    donorName: name,
    donorEmail: email,
    company: v.company ?? null,
    amountCents: amount,
    giftCents: gift,
    donatedAt: donated ? day(donated) : null,
    paidAt: paid ? day(paid) : defaultPaidAt,
    transactionId: v.transaction_id ?? null,
  };
}

/**
 * Reads a report: its table, map (given, or the vendor's / usual headers'), and its lines with a
 * hash each. Identical lines of one report count apart (their occurrence is in the hash).
 */
export async function parseReport(
  file: File,
  mapText: string | undefined,
  defaultPaidAt: string,
): Promise<ParsedReport> {
  if (file.size > maxImportBytes) throw new HttpError(413, importMessages.tooLarge);
  const table = await readUploadedTableOffThread(file.name, new Uint8Array(await file.arrayBuffer()), {
    rows: maxPayoutLines,
    message: `A payout report is limited to ${maxPayoutLines.toLocaleString('en-US')} lines`,
  });
  const map = parseMap(mapText, table.headers);
  const vendor = recogniseVendor(table.headers);
  const problem = payoutMapProblem(map);
  const seen = new Map<string, number>();
  const lines: ParsedLine[] = problem
    ? []
    : table.rows.map((row) => {
        const values = readLine(row, map, defaultPaidAt);
        const { line: _line, ...content } = values;
        const key = JSON.stringify(content);
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        return { ...values, hash: sha256(`${key}#${n}`) } as ParsedLine;
      });
  return { table, map, vendor, problem, lines, reportHash: sha256(lines.map((l) => l.hash).join('\n')) };
}

const isValid = (line: ParsedLine): line is PayoutLineValues & { hash: string } => !('reason' in line);

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * The unpaid matches of the organization's family that a report's lines may pay: those of donors
 * with a line's email or name, and those with a line's transaction id. Three indexed lookups (in
 * chunks), whatever the size of the organization.
 */
export async function candidatesFor(
  db: Queryable,
  orgIds: number[],
  lines: readonly PayoutLineValues[],
): Promise<Map<number, MatchCandidate[]>> {
  const emails = [...new Set(lines.map((l) => l.donorEmail).filter((e): e is string => !!e))];
  const names = [
    ...new Set(
      lines
        .map((l) => l.donorName?.toLowerCase().replace(/\s+/g, ' ').trim())
        .filter((n): n is string => !!n),
    ),
  ];
  const transactionIds = [...new Set(lines.map((l) => l.transactionId).filter((t): t is string => !!t))];
  const donorIds = new Set<number>();
  for (const part of chunks(emails, 5000))
    for (const d of await db
      .select({ id: donors.id })
      .from(donors)
      .where(and(inArray(donors.organization_id, orgIds), inArray(donors.email, part))))
      donorIds.add(d.id);
  for (const part of chunks(names, 5000))
    for (const d of await db
      .select({ id: donors.id })
      .from(donors)
      .where(and(inArray(donors.organization_id, orgIds), inArray(sql`lower(${donors.name})`, part))))
      donorIds.add(d.id);
  const select = () =>
    db
      .select({
        id: donations.id,
        donor_id: donations.donor_id,
        donor_name: donors.name,
        donor_email: donors.email,
        company_name: sql<string | null>`coalesce(${companies.name}, ${donations.company_name})`,
        amount_cents: donations.amount_cents,
        matched_cents: donations.matched_cents,
        donated_at: donations.donated_at,
        transaction_id: donations.transaction_id,
        status_id: donations.status_id,
      })
      .from(donations)
      .leftJoin(donors, eq(donors.id, donations.donor_id))
      .leftJoin(companies, eq(companies.id, donations.company_id));
  const found = new Map<number, Awaited<ReturnType<ReturnType<typeof select>['where']>>[number]>();
  for (const part of chunks([...donorIds], 5000))
    for (const row of await select().where(
      and(inArray(donations.donor_id, part), isNull(donations.paid_cents)),
    ))
      found.set(row.id, row);
  for (const part of chunks(transactionIds, 5000))
    for (const row of await select().where(
      and(
        inArray(donations.organization_id, orgIds),
        inArray(donations.transaction_id, part),
        isNull(donations.paid_cents),
      ),
    ))
      found.set(row.id, row);
  // Indexed by what a line can name: email, lowercased name, transaction id.
  const byKey = new Map<string, MatchCandidate[]>();
  const add = (key: string, c: MatchCandidate) => {
    const list = byKey.get(key);
    if (list) list.push(c);
    else byKey.set(key, [c]);
  };
  for (const row of found.values()) {
    const c: MatchCandidate = {
      id: row.id,
      donor_name: row.donor_name,
      donor_email: row.donor_email,
      company_name: row.company_name,
      amount_cents: row.amount_cents,
      matched_cents: row.matched_cents,
      donated_day: day(row.donated_at),
      transaction_id: row.transaction_id,
      status_id: row.status_id,
    };
    if (c.donor_email) add(`e:${c.donor_email}`, c);
    if (c.donor_name) add(`n:${c.donor_name.toLowerCase().replace(/\s+/g, ' ').trim()}`, c);
    if (c.transaction_id) add(`t:${c.transaction_id}`, c);
  }
  const result = new Map<number, MatchCandidate[]>();
  for (const line of lines) {
    const keys = [
      line.donorEmail && `e:${line.donorEmail}`,
      line.donorName && `n:${line.donorName.toLowerCase().replace(/\s+/g, ' ').trim()}`,
      line.transactionId && `t:${line.transactionId}`,
    ].filter((k): k is string => !!k);
    const unique = new Map<number, MatchCandidate>();
    for (const key of keys) for (const c of byKey.get(key) ?? []) unique.set(c.id, c);
    result.set(line.line, [...unique.values()]);
  }
  return result;
}

type Assessed = {
  line: ParsedLine;
  outcome: PayoutPreviewLine['outcome'];
  ranked: Scored[];
  reason: string | null;
};

/** Every line's outcome: recorded before, invalid, or matched / ambiguous / unmatched with its candidates. */
export async function assess(db: Queryable, orgId: number, report: ParsedReport): Promise<Assessed[]> {
  const orgIds = [orgId, ...(await descendantIds(db, orgId))];
  const recorded = new Map<string, string>();
  for (const part of chunks(
    report.lines.map((l) => l.hash),
    5000,
  ))
    for (const r of await db
      .select({
        hash: payoutLines.line_hash,
        donation_id: payoutLines.donation_id,
        at: payoutLines.created_at,
      })
      .from(payoutLines)
      .where(and(eq(payoutLines.organization_id, orgId), inArray(payoutLines.line_hash, part))))
      recorded.set(r.hash, `Recorded on ${day(r.at)}${r.donation_id ? ` (match ${r.donation_id})` : ''}`);
  const open = report.lines.filter((l) => isValid(l) && !recorded.has(l.hash)) as Array<
    PayoutLineValues & { hash: string }
  >;
  const candidates = await candidatesFor(db, orgIds, open);
  return report.lines.map((line) => {
    const earlier = recorded.get(line.hash);
    if (earlier) return { line, outcome: 'recorded', ranked: [], reason: earlier };
    if (!isValid(line)) return { line, outcome: 'invalid', ranked: [], reason: line.reason };
    const ranked = rankCandidates(line, candidates.get(line.line) ?? []);
    return { line, outcome: classify(ranked), ranked, reason: null };
  });
}

const dollars = (cents: number | null) => (cents === null ? null : cents / 100);

/** The preview: what confirming would do to each line. Writes nothing. */
export async function previewPayouts(
  db: Db,
  orgId: number,
  file: File,
  mapText: string | undefined,
  paidAt: string,
): Promise<PayoutPreviewResponse> {
  const report = await parseReport(file, mapText, paidAt);
  const [batch] = await db
    .select({ id: payoutBatches.id })
    .from(payoutBatches)
    .where(and(eq(payoutBatches.organization_id, orgId), eq(payoutBatches.report_hash, report.reportHash)));
  const assessed = await assess(db, orgId, report);
  const counts = { matched: 0, ambiguous: 0, unmatched: 0, recorded: 0, invalid: 0 };
  const lines = assessed.map(({ line, outcome, ranked, reason }): PayoutPreviewLine => {
    counts[outcome] += 1;
    const v = isValid(line) ? line : null;
    return {
      line: line.line,
      donor_name: v?.donorName ?? null,
      donor_email: v?.donorEmail ?? null,
      company: v?.company ?? null,
      amount: v ? dollars(v.amountCents) : null,
      gift_amount: v ? dollars(v.giftCents) : null,
      donated_at: v?.donatedAt ?? null,
      paid_at: v?.paidAt ?? null,
      transaction_id: v?.transactionId ?? null,
      outcome,
      reason,
      candidates: ranked.map(({ candidate: c, score }) => ({
        donation_id: c.id,
        score,
        donor_name: c.donor_name,
        donor_email: c.donor_email,
        company_name: c.company_name,
        amount: c.amount_cents / 100,
        matched: c.matched_cents / 100,
        donated_at: c.donated_day,
        status_name: statusName(c.status_id),
      })),
    };
  });
  return {
    vendor: report.vendor,
    headers: report.table.headers.map((header, i) => ({
      header,
      original: report.table.originalHeaders[i] ?? header,
    })),
    map: report.map,
    problem: report.problem,
    recorded: batch !== undefined && counts.recorded === lines.length,
    lines,
    counts,
  };
}

function parseChoices(text: string | undefined): Map<number, PayoutChoice> {
  const choices = new Map<number, PayoutChoice>();
  if (text === undefined || text.trim() === '') return choices;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, payoutMessages.badChoices);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, payoutMessages.badChoices);
  for (const [key, choice] of Object.entries(value)) {
    const line = Number(key);
    const ok =
      choice === 'create' ||
      choice === 'skip' ||
      (typeof choice === 'number' && Number.isInteger(choice) && choice >= 1 && choice <= 2_147_483_647);
    if (!/^\d{1,9}$/.test(key) || !ok) throw new HttpError(400, payoutMessages.badChoices);
    choices.set(line, choice as PayoutChoice);
  }
  return choices;
}

/**
 * Confirms a report: in one transaction, the matched lines (and the ones staff picked a match
 * for) mark their match Match Completed with the amount and day paid; lines chosen 'create'
 * become completed matches of their own (external: inert); the lines applied are stored. A line
 * recorded before is left as it is, so the same report confirmed twice changes nothing.
 */
export async function confirmPayouts(
  db: Db,
  orgId: number,
  userId: number,
  input: { file: File; map: string | undefined; paidAt: string; choices: string | undefined },
  now: Date,
): Promise<PayoutConfirmResponse> {
  const report = await parseReport(input.file, input.map, input.paidAt);
  if (report.problem) throw new HttpError(400, report.problem);
  const choices = parseChoices(input.choices);
  return db.transaction(async (tx) => {
    const assessed = await assess(tx, orgId, report);
    const orgIds = [orgId, ...(await descendantIds(tx, orgId))];
    type Pay = {
      line: PayoutLineValues & { hash: string };
      donationId: number | null;
      outcome: 'matched' | 'picked' | 'created';
      score: number | null;
    };
    const pays: Pay[] = [];
    let skipped = 0;
    let alreadyRecorded = 0;
    for (const { line, outcome, ranked } of assessed) {
      if (outcome === 'recorded') {
        alreadyRecorded += 1;
        continue;
      }
      if (!isValid(line)) {
        skipped += 1;
        continue;
      }
      const choice = choices.get(line.line);
      const best = ranked[0];
      if (choice === 'skip' || (choice === undefined && (outcome !== 'matched' || !best))) skipped += 1;
      else if (choice === 'create') pays.push({ line, donationId: null, outcome: 'created', score: null });
      else if (typeof choice === 'number')
        pays.push({
          line,
          donationId: choice,
          outcome: choice === best?.candidate.id && outcome === 'matched' ? 'matched' : 'picked',
          score: ranked.find((r) => r.candidate.id === choice)?.score ?? null,
        });
      else if (best)
        pays.push({ line, donationId: best.candidate.id, outcome: 'matched', score: best.score });
    }
    const payer = new Map<number, number>();
    for (const p of pays) {
      if (p.donationId === null) continue;
      const other = payer.get(p.donationId);
      if (other !== undefined) throw new HttpError(400, payoutMessages.samePayment(other, p.line.line));
      payer.set(p.donationId, p.line.line);
    }
    // The matches paid: the organization's, locked, and not paid already.
    const ids = [...payer.keys()];
    const rows = [];
    for (const part of chunks(ids, 5000))
      rows.push(
        ...(await tx
          .select({ ...billingStateColumns, paid_cents: donations.paid_cents })
          .from(donations)
          .where(and(inArray(donations.id, part), inArray(donations.organization_id, orgIds)))
          .for('update')),
      );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, line] of payer) {
      const row = byId.get(id);
      if (!row) throw new HttpError(400, payoutMessages.notAMatch(line));
      if (row.paid_cents !== null) throw new HttpError(409, payoutMessages.alreadyPaid(line));
    }
    const [batch] = await tx
      .insert(payoutBatches)
      .values({
        organization_id: orgId,
        file_name: input.file.name.slice(0, 200),
        vendor: report.vendor,
        report_hash: report.reportHash,
        user_id: userId,
      })
      .onConflictDoUpdate({
        target: [payoutBatches.organization_id, payoutBatches.report_hash],
        set: { updated_at: now },
      })
      .returning({ id: payoutBatches.id });
    if (!batch) throw new Error('payout batch insert returned nothing');
    const created = await createMatches(
      tx,
      orgId,
      userId,
      pays.filter((p) => p.outcome === 'created').map((p) => p.line),
    );
    for (const p of pays) if (p.outcome === 'created') p.donationId = created.get(p.line.line) ?? null;
    for (const part of chunks(pays, 1000)) {
      const inserted = await tx
        .insert(payoutLines)
        .values(
          part.map((p) => ({
            batch_id: batch.id,
            organization_id: orgId,
            line_hash: p.line.hash,
            line: p.line.line,
            donor_name: p.line.donorName,
            donor_email: p.line.donorEmail,
            company_name: p.line.company,
            paid_cents: p.line.amountCents,
            paid_at: p.line.paidAt,
            donation_id: p.donationId,
            outcome: p.outcome,
            score: p.score,
          })),
        )
        .onConflictDoNothing()
        .returning({ hash: payoutLines.line_hash });
      // A line another confirmation recorded meanwhile is not applied twice.
      if (inserted.length !== part.length)
        throw new HttpError(409, 'This report was confirmed meanwhile. Upload it again to see what is left.');
    }
    const paying = pays.filter((p) => p.outcome !== 'created' && p.donationId !== null);
    for (const part of chunks(paying, 1000)) {
      const values = sql.join(
        part.map((p) => sql`(${p.donationId}::int, ${p.line.amountCents}::int, ${p.line.paidAt}::date)`),
        sql`, `,
      );
      await tx.execute(
        sql`update ${donations} set paid_cents = v.cents, paid_at = v.day, updated_at = now() from (values ${values}) as v(id, cents, day) where ${donations.id} = v.id`,
      );
    }
    await moveMatches(
      tx,
      userId,
      paying
        .map((p) => byId.get(p.donationId ?? 0))
        .filter((r) => r !== undefined && r.status_id !== statusIdOf.matchCompleted) as typeof rows,
      statusIdOf.matchCompleted,
      now,
    );
    const paid = pays.reduce((sum, p) => sum + p.line.amountCents, 0);
    await tx
      .update(payoutBatches)
      .set({
        lines: sql`${payoutBatches.lines} + ${pays.length}`,
        completed: sql`${payoutBatches.completed} + ${paying.length}`,
        created: sql`${payoutBatches.created} + ${created.size}`,
        paid_cents: sql`${payoutBatches.paid_cents} + ${paid}`,
      })
      .where(eq(payoutBatches.id, batch.id));
    const parts = [
      `${paying.length} ${paying.length === 1 ? 'match' : 'matches'} completed`,
      ...(created.size > 0
        ? [`${created.size} new completed ${created.size === 1 ? 'match' : 'matches'}`]
        : []),
      ...(alreadyRecorded > 0 ? [`${alreadyRecorded} already recorded`] : []),
      ...(skipped > 0 ? [`${skipped} skipped`] : []),
    ];
    return {
      batch_id: batch.id,
      completed: paying.length,
      created: created.size,
      skipped,
      already_recorded: alreadyRecorded,
      paid: paid / 100,
      message: `${parts.join(', ')}.`,
    };
  });
}

/**
 * Lines nobody asked a match for (companies sometimes match gifts on their own): each becomes a
 * Match Completed request, marked external (inert), with its donor (found by email, else new) and
 * the catalogue company of that name when there is one.
 */
async function createMatches(
  tx: Tx,
  orgId: number,
  userId: number,
  lines: ReadonlyArray<PayoutLineValues>,
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  for (const line of lines) {
    const [known] = line.donorEmail
      ? await tx
          .select({ id: donors.id })
          .from(donors)
          .where(and(eq(donors.organization_id, orgId), eq(donors.email, line.donorEmail)))
          .limit(1)
      : [];
    const donorId =
      known?.id ??
      (
        await tx
          .insert(donors)
          .values({ organization_id: orgId, name: line.donorName, email: line.donorEmail })
          .returning({ id: donors.id })
      )[0]?.id ??
      null;
    const [company] = line.company
      ? await tx
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(sql`lower(${companies.name}) = ${line.company.toLowerCase()}`)
          .limit(1)
      : [];
    const [row] = await tx
      .insert(donations)
      .values({
        organization_id: orgId,
        donor_id: donorId,
        company_id: company?.id ?? null,
        company_name: company?.name ?? line.company,
        amount_cents: line.giftCents ?? line.amountCents,
        matched_cents: line.amountCents,
        donated_at: new Date(`${line.donatedAt ?? line.paidAt}T12:00:00Z`),
        status_id: statusIdOf.matchCompleted,
        inert: 1,
        paid_cents: line.amountCents,
        paid_at: line.paidAt,
        custom: { payout: { line: line.line } },
      })
      .returning({ id: donations.id });
    if (!row) throw new Error('donation insert returned nothing');
    await tx.insert(donationStatusHistory).values({
      donation_id: row.id,
      from_status_id: null,
      to_status_id: statusIdOf.matchCompleted,
      user_id: userId,
      reason: 'Paid by the company without a request (payout report)',
    });
    ids.set(line.line, row.id);
  }
  if (ids.size > 0) await webhookEvents.statusChanged(tx, [...ids.values()]);
  return ids;
}

/** The reports confirmed, newest first. */
export async function listBatches(db: Db, orgId: number): Promise<PayoutBatchesResponse> {
  const rows = await db
    .select()
    .from(payoutBatches)
    .where(eq(payoutBatches.organization_id, orgId))
    .orderBy(desc(payoutBatches.created_at), desc(payoutBatches.id))
    .limit(100);
  return {
    batches: rows.map((b) => ({
      id: b.id,
      file_name: b.file_name,
      vendor: b.vendor,
      lines: b.lines,
      completed: b.completed,
      created: b.created,
      paid: Number(b.paid_cents) / 100,
      created_at: b.created_at.toISOString(),
    })),
  };
}
