import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
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
  companyAliases,
  companyChanges,
  companyDomains,
  companySuggestions,
  users,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { isFreeMailDomain } from '../employers/identify.ts';

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

/** How a company is written besides its name (issue #31): its email domains and aliases. */
type Writings = { domains: string[]; aliases: string[] };
const noWritings: Writings = { domains: [], aliases: [] };

/** The domains and aliases of the companies, in one query each. */
async function writingsOf(db: Queryable, ids: readonly number[]): Promise<Map<number, Writings>> {
  const out = new Map<number, Writings>(ids.map((id) => [id, { domains: [], aliases: [] }]));
  if (ids.length === 0) return out;
  const [domains, aliases] = await Promise.all([
    db
      .select({ id: companyDomains.company_id, value: companyDomains.domain })
      .from(companyDomains)
      .where(inArray(companyDomains.company_id, [...ids]))
      .orderBy(asc(companyDomains.domain)),
    db
      .select({ id: companyAliases.company_id, value: companyAliases.alias })
      .from(companyAliases)
      .where(inArray(companyAliases.company_id, [...ids]))
      .orderBy(asc(sql`lower(${companyAliases.alias})`)),
  ]);
  for (const d of domains) out.get(d.id)?.domains.push(d.value);
  for (const a of aliases) out.get(a.id)?.aliases.push(a.value);
  return out;
}

function toDetail(row: CompanyRow, writings: Writings = noWritings): CompanyDetail {
  return {
    id: row.id,
    name: row.name,
    ...programmeOf(row, writings),
  };
}

function programmeOf(row: CompanyRow, writings: Writings = noWritings): CompanyProgramme {
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
    domains: writings.domains,
    aliases: writings.aliases,
    parent_id: row.parent_id,
  };
}

/** The columns a programme is stored in (the ratio is text in the table). */
function columnsOf(p: Partial<CompanyProgramme>): Partial<typeof companies.$inferInsert> {
  const { match_ratio, categories, domains: _domains, aliases: _aliases, ...rest } = p;
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
  const writings = await writingsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    companies: rows.map((r) => toDetail(r, writings.get(r.id))),
    total: total?.n ?? 0,
    page,
    per_page: companiesPerPage,
  };
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
  return { company: toDetail(company, (await writingsOf(db, [id])).get(id)), history };
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
  const before = programmeOf(locked, (await writingsOf(tx, [companyId])).get(companyId));
  const after: CompanyProgramme = { ...before, ...change };
  after.categories = [...new Set(after.categories)].sort((a, b) => a - b);
  after.domains = normalDomains(after.domains ?? []);
  after.aliases = normalAliases(after.aliases ?? []);
  await checkWritings(tx, companyId, after);
  // A deadline in days only means something for that rule.
  if (after.deadline_rule !== 'days-after-gift') after.deadline_days = null;
  const problem = programmeProblem(after);
  if (problem) throw new HttpError(400, problem);
  const changes = diff(before, after);
  if (changes.length === 0) return changes;
  await tx.update(companies).set(columnsOf(after)).where(eq(companies.id, companyId));
  if (!same(before.domains, after.domains)) {
    await tx.delete(companyDomains).where(eq(companyDomains.company_id, companyId));
    if (after.domains.length)
      await tx
        .insert(companyDomains)
        .values(after.domains.map((domain) => ({ company_id: companyId, domain })));
  }
  if (!same(before.aliases, after.aliases)) {
    await tx.delete(companyAliases).where(eq(companyAliases.company_id, companyId));
    if (after.aliases.length)
      await tx
        .insert(companyAliases)
        .values(after.aliases.map((alias) => ({ company_id: companyId, alias })));
  }
  await tx
    .insert(companyChanges)
    .values({ company_id: companyId, user_id: userId, changes, suggestion_id: suggestionId });
  return changes;
}

/** Domains as stored: lowercased, without 'www.' or a final dot, each once, sorted. */
const normalDomains = (list: readonly string[]) =>
  [
    ...new Set(
      list.map((d) =>
        d
          .trim()
          .toLowerCase()
          .replace(/^www\./, '')
          .replace(/\.$/, ''),
      ),
    ),
  ].sort();

/** Aliases trimmed, each once whatever its case, sorted as the catalogue lists them. */
function normalAliases(list: readonly string[]) {
  const seen = new Map<string, string>();
  for (const a of list) {
    const alias = a.trim().replace(/\s+/g, ' ');
    if (alias && !seen.has(alias.toLowerCase())) seen.set(alias.toLowerCase(), alias);
  }
  return [...seen.values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

/**
 * The catalogue's rules for how a company is written (issue #31): a free-mail or ISP domain names
 * no employer, a domain belongs to one company, and parents are one level deep (a parent is no
 * subsidiary, a subsidiary has none of its own).
 */
async function checkWritings(tx: Queryable, companyId: number, p: CompanyProgramme) {
  for (const domain of p.domains ?? []) {
    if (isFreeMailDomain(domain))
      throw new HttpError(400, `${domain} is a free-mail or ISP domain: it names no employer.`);
  }
  if (p.domains?.length) {
    const [taken] = await tx
      .select({ domain: companyDomains.domain, name: companies.name })
      .from(companyDomains)
      .innerJoin(companies, eq(companies.id, companyDomains.company_id))
      .where(and(inArray(companyDomains.domain, p.domains), ne(companyDomains.company_id, companyId)))
      .limit(1);
    if (taken) throw new HttpError(400, `The domain ${taken.domain} is already ${taken.name}'s.`);
  }
  if (p.parent_id !== null && p.parent_id !== undefined) {
    if (p.parent_id === companyId) throw new HttpError(400, 'A company cannot be its own parent.');
    const [parent] = await tx.select().from(companies).where(eq(companies.id, p.parent_id));
    if (!parent) throw new HttpError(400, `Parent company with id ${p.parent_id} not found`);
    if (parent.parent_id !== null)
      throw new HttpError(400, `${parent.name} is itself a subsidiary: choose its parent instead.`);
    const [child] = await tx
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.parent_id, companyId))
      .limit(1);
    if (child)
      throw new HttpError(400, `This company is the parent of ${child.name}: it cannot have a parent.`);
  }
}

/** A super user's save of the whole programme (the route allows super users only). */
/**
 * A catalogue edit in the audit log: recorded with no organization (the catalogue is every
 * organization's), so super users see it in any organization's log and admins never do.
 */
async function recordCatalogueEdit(
  tx: Queryable,
  by: AuditBy,
  companyId: number,
  changes: CompanyFieldChange[],
  suggestionId: number | null,
): Promise<void> {
  if (changes.length === 0) return;
  const [company] = await tx
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  const fields = changes.map((c) => c.field);
  const how = suggestionId === null ? 'Edited' : 'Accepted a suggested correction to';
  await recordBy(tx, by, {
    kind: 'catalogue.edited',
    organizationId: null,
    summary: `${how} ${company?.name ?? `company ${companyId}`}: ${fields.join(', ')}`,
    details: { company_id: companyId, company: company?.name ?? null, fields, suggestion_id: suggestionId },
  });
}

export async function saveCompany(
  db: Db,
  id: number,
  programme: CompanyProgramme,
  userId: number,
  by: AuditBy,
): Promise<CompanyWithHistory & { message: string }> {
  const changes = await db.transaction(async (tx) => {
    const made = await applyChange(tx, id, programme, userId, null);
    await recordCatalogueEdit(tx, by, id, made, null);
    return made;
  });
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
  const current = programmeOf(company, (await writingsOf(db, [companyId])).get(companyId));
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
  const writings = await writingsOf(
    db,
    rows.map((r) => r.company.id),
  );
  return {
    suggestions: rows.map(({ suggestion, company, user }) => {
      const today = programmeOf(company, writings.get(company.id)) as Record<string, unknown>;
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
  by: AuditBy,
): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    const changes = await applyChange(
      tx,
      row.company_id,
      row.proposed as Partial<CompanyProgramme>,
      reviewerId,
      row.id,
    );
    await recordCatalogueEdit(tx, by, row.company_id, changes, row.id);
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
