import { asc, count, desc, eq, sql } from 'drizzle-orm';
import {
  type CompanyChange,
  type CompanyDetail,
  type CompanyList,
  type CompanyProgramme,
  type CompanySuggestion,
  type CompanySuggestionBody,
  type CompanyWithHistory,
  companiesPerPage,
  companyMessages,
  type ProgrammeField,
  programmeFields,
  programmeProblem,
} from '../../../src/contract/company-admin.ts';
import {
  companyLookupLimit,
  companyLookupMinLength,
  type PublicCompany,
} from '../../../src/contract/company-lookup.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import {
  type CompanyFieldChange,
  companies,
  companyChanges,
  companySuggestions,
  users,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

export const programmeMessages = {
  notFound: (id: number) => `Company with id ${id} not found`,
  suggestionNotFound: (id: number) => `Suggestion with id ${id} not found`,
  alreadyReviewed: 'This suggestion has already been reviewed.',
  tooShort: `Type at least ${companyLookupMinLength} characters to search companies.`,
  accepted: 'Suggestion accepted: the company is updated.',
  rejected: 'Suggestion rejected.',
  suggested: 'Thank you: your correction is waiting for review.',
  saved: 'Company saved.',
  unchanged: 'Nothing changed.',
} as const;

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

type CompanyRow = typeof companies.$inferSelect;

function toDetail(row: CompanyRow): CompanyDetail {
  return {
    id: row.id,
    name: row.name,
    ...programmeOf(row),
  };
}

function programmeOf(row: CompanyRow): CompanyProgramme {
  return {
    match_method: row.match_method as CompanyProgramme['match_method'],
    guide: row.guide,
    url: row.url,
    verify: row.verify as CompanyProgramme['verify'],
    program: row.program as CompanyProgramme['program'],
    minimum_match_cents: row.minimum_match_cents,
    maximum_match_cents: row.maximum_match_cents,
    match_ratio: Number(row.match_ratio),
    deadline_rule: row.deadline_rule as CompanyProgramme['deadline_rule'],
    deadline_days: row.deadline_days,
    csr_vendor: row.csr_vendor,
    forms_email: row.forms_email,
    forms_address: row.forms_address,
    categories: [...row.categories].sort((a, b) => a - b),
  };
}

/** The columns a programme is stored in (the ratio is text in the table). */
function columnsOf(p: Partial<CompanyProgramme>): Partial<typeof companies.$inferInsert> {
  const { match_ratio, categories, ...rest } = p;
  return {
    ...rest,
    ...(match_ratio === undefined ? {} : { match_ratio: String(match_ratio) }),
    ...(categories === undefined ? {} : { categories: [...new Set(categories)].sort((a, b) => a - b) }),
  };
}

const nameMatches = (text: string) =>
  sql`lower(${companies.name}) like ${`%${escapeLike(text.trim().toLowerCase())}%`}`;
/** Names starting with the text first, then by name. */
const startsFirst = (text: string) =>
  sql`case when lower(${companies.name}) like ${`${escapeLike(text.trim().toLowerCase())}%`} then 0 else 1 end`;

/** The screen's list: companies whose name contains the text (all without one), a page at a time. */
export async function listCompanies(
  db: Queryable,
  q: string | undefined,
  page: number,
): Promise<CompanyList> {
  const text = q?.trim() ?? '';
  const where = text ? nameMatches(text) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(companies)
      .where(where)
      .orderBy(...(text ? [startsFirst(text)] : []), asc(sql`lower(${companies.name})`), asc(companies.id))
      .limit(companiesPerPage)
      .offset((page - 1) * companiesPerPage),
    db.select({ n: count() }).from(companies).where(where),
  ]);
  return { companies: rows.map(toDetail), total: total?.n ?? 0, page, per_page: companiesPerPage };
}

async function findCompany(db: Queryable, id: number): Promise<CompanyRow> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row) throw new HttpError(404, programmeMessages.notFound(id));
  return row;
}

/** A company and the history of its programme, newest first. */
export async function companyWithHistory(db: Queryable, id: number): Promise<CompanyWithHistory> {
  const company = await findCompany(db, id);
  const rows = await db
    .select({
      id: companyChanges.id,
      created_at: companyChanges.created_at,
      changes: companyChanges.changes,
      suggestion_id: companyChanges.suggestion_id,
      user_id: users.id,
      user_name: users.name,
      user_email: users.email,
    })
    .from(companyChanges)
    .leftJoin(users, eq(users.id, companyChanges.user_id))
    .where(eq(companyChanges.company_id, id))
    .orderBy(desc(companyChanges.created_at), desc(companyChanges.id));
  const history: CompanyChange[] = rows.map((r) => ({
    id: r.id,
    created_at: r.created_at.toISOString(),
    user: r.user_id === null ? null : { id: r.user_id, name: r.user_name, email: r.user_email ?? '' },
    changes: r.changes,
    suggestion_id: r.suggestion_id,
  }));
  return { company: toDetail(company), history };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields whose values differ between the programme before and after. */
function diff(before: CompanyProgramme, after: CompanyProgramme): CompanyFieldChange[] {
  return programmeFields
    .filter((field) => !same(before[field], after[field]))
    .map((field) => ({ field, from: before[field], to: after[field] }));
}

/**
 * Applies a programme change in one transaction, locking the company row so two saves cannot
 * interleave, and writes the history row (who, when, each field's before and after).
 */
async function applyChange(
  tx: Queryable,
  companyId: number,
  change: Partial<CompanyProgramme>,
  userId: number,
  suggestionId: number | null,
): Promise<CompanyFieldChange[]> {
  const [locked] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update');
  if (!locked) throw new HttpError(404, programmeMessages.notFound(companyId));
  const before = programmeOf(locked);
  const after: CompanyProgramme = { ...before, ...change };
  after.categories = [...new Set(after.categories)].sort((a, b) => a - b);
  // A deadline in days only means something for that rule.
  if (after.deadline_rule !== 'days-after-gift') after.deadline_days = null;
  const problem = programmeProblem(after);
  if (problem) throw new HttpError(400, problem);
  const changes = diff(before, after);
  if (changes.length === 0) return changes;
  await tx.update(companies).set(columnsOf(after)).where(eq(companies.id, companyId));
  await tx
    .insert(companyChanges)
    .values({ company_id: companyId, user_id: userId, changes, suggestion_id: suggestionId });
  return changes;
}

/** A super user's save of the whole programme (the route allows super users only). */
export async function saveCompany(
  db: Db,
  id: number,
  programme: CompanyProgramme,
  userId: number,
): Promise<CompanyWithHistory & { message: string }> {
  const changes = await db.transaction((tx) => applyChange(tx, id, programme, userId, null));
  return {
    ...(await companyWithHistory(db, id)),
    message: changes.length ? programmeMessages.saved : programmeMessages.unchanged,
  };
}

/** A staff member's suggested correction, kept for review; only fields that differ from today's. */
export async function suggestCorrection(
  db: Queryable,
  companyId: number,
  body: CompanySuggestionBody,
  userId: number,
): Promise<{ message: string; suggestion_id: number }> {
  const company = await findCompany(db, companyId);
  const current = programmeOf(company);
  const proposed: Partial<Record<ProgrammeField, unknown>> = {};
  for (const field of programmeFields) {
    const value = body.proposed[field];
    if (value !== undefined && !same(value, current[field])) proposed[field] = value;
  }
  if (Object.keys(proposed).length === 0) throw new HttpError(400, companyMessages.nothingSuggested);
  const problem = programmeProblem({ ...current, ...(proposed as Partial<CompanyProgramme>) });
  if (problem) throw new HttpError(400, problem);
  const [row] = await db
    .insert(companySuggestions)
    .values({ company_id: companyId, user_id: userId, proposed, note: body.note || null })
    .returning({ id: companySuggestions.id });
  return { message: programmeMessages.suggested, suggestion_id: row?.id ?? 0 };
}

/** The review queue: pending suggestions, oldest first, each beside the company's values today. */
export async function pendingSuggestions(db: Queryable): Promise<{ suggestions: CompanySuggestion[] }> {
  const rows = await db
    .select({ suggestion: companySuggestions, company: companies, user: users })
    .from(companySuggestions)
    .innerJoin(companies, eq(companies.id, companySuggestions.company_id))
    .leftJoin(users, eq(users.id, companySuggestions.user_id))
    .where(eq(companySuggestions.status, 'pending'))
    .orderBy(asc(companySuggestions.created_at), asc(companySuggestions.id))
    .limit(200);
  return {
    suggestions: rows.map(({ suggestion, company, user }) => {
      const today = programmeOf(company) as Record<string, unknown>;
      const current = Object.fromEntries(
        Object.keys(suggestion.proposed).map((field) => [field, today[field]]),
      );
      return {
        id: suggestion.id,
        created_at: suggestion.created_at.toISOString(),
        company: { id: company.id, name: company.name },
        user: user ? { id: user.id, name: user.name, email: user.email } : null,
        proposed: suggestion.proposed,
        current,
        note: suggestion.note,
        status: suggestion.status as CompanySuggestion['status'],
      };
    }),
  };
}

async function lockPending(tx: Queryable, id: number) {
  const [row] = await tx.select().from(companySuggestions).where(eq(companySuggestions.id, id)).for('update');
  if (!row) throw new HttpError(404, programmeMessages.suggestionNotFound(id));
  if (row.status !== 'pending') throw new HttpError(409, programmeMessages.alreadyReviewed);
  return row;
}

/** Accept: the proposed values are applied (with history naming the suggestion), in one transaction. */
export async function acceptSuggestion(
  db: Db,
  id: number,
  reviewerId: number,
  note: string | null | undefined,
): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    await applyChange(tx, row.company_id, row.proposed as Partial<CompanyProgramme>, reviewerId, row.id);
    await closeSuggestion(tx, id, 'accepted', reviewerId, note);
  });
  return { message: programmeMessages.accepted };
}

/** Records the review of a pending suggestion (locked by the caller): who, when, and the note. */
async function closeSuggestion(
  tx: Tx,
  id: number,
  status: 'accepted' | 'rejected',
  reviewerId: number,
  note: string | null | undefined,
): Promise<void> {
  await tx
    .update(companySuggestions)
    .set({ status, reviewed_by: reviewerId, reviewed_at: new Date(), review_note: note || null })
    .where(eq(companySuggestions.id, id));
}

/** Reject, with the reviewer's note; the company is unchanged. */
export async function rejectSuggestion(
  db: Db,
  id: number,
  reviewerId: number,
  note: string | null | undefined,
): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    await lockPending(tx, id);
    await closeSuggestion(tx, id, 'rejected', reviewerId, note);
  });
  return { message: programmeMessages.rejected };
}

/**
 * The public lookup: companies whose name contains the text (names starting with it first), with
 * the public programme fields only — no verify method, vendor, categories or exclusions.
 */
export async function lookupCompanies(db: Queryable, q: string): Promise<{ companies: PublicCompany[] }> {
  const text = q.trim();
  if (text.length < companyLookupMinLength) throw new HttpError(400, programmeMessages.tooShort);
  const rows = await db
    .select()
    .from(companies)
    .where(nameMatches(text))
    .orderBy(startsFirst(text), asc(sql`lower(${companies.name})`), asc(companies.id))
    .limit(companyLookupLimit);
  return { companies: rows.map(toPublic) };
}

/** One company of the public lookup (the match request's `company-id`). */
export async function publicCompany(db: Queryable, id: number): Promise<PublicCompany> {
  return toPublic(await findCompany(db, id));
}

/** The public programme fields only. */
function toPublic(row: CompanyRow): PublicCompany {
  return {
    id: row.id,
    name: row.name,
    program: row.program,
    match_method: row.match_method,
    match_ratio: Number(row.match_ratio),
    minimum_match_cents: row.minimum_match_cents,
    maximum_match_cents: row.maximum_match_cents,
    deadline_rule: row.deadline_rule,
    deadline_days: row.deadline_days,
    guide: row.guide,
    url: row.url,
  };
}
