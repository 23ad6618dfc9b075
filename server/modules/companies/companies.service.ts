import { and, asc, ne, sql } from 'drizzle-orm';
import {
  type CompanySearchEntry,
  companySearchLimit,
  companySearchMinLength,
} from '../../../src/contract/companies.ts';
import type { Queryable } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

export const companyMessages = {
  tooShort: `Type at least ${companySearchMinLength} characters to search companies.`,
} as const;

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * spec: the company search (at least 3 characters). Names starting with the text come first,
 * then names containing it, each by name; at most 20. `exclude` leaves out companies without a
 * matching program; `other` appends spec's 'Other' entry: the typed text, with no company.
 */
export async function searchCompanyNames(
  db: Queryable,
  text: string,
  options: { exclude: boolean; other: boolean },
): Promise<{ names: CompanySearchEntry[] }> {
  const typed = text.trim();
  if (typed.length < companySearchMinLength) throw new HttpError(400, companyMessages.tooShort);
  const lowered = typed.toLowerCase();
  const name = sql`lower(${companies.name})`;
  const rows = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(
      and(
        sql`${name} like ${`%${escapeLike(lowered)}%`}`,
        options.exclude ? ne(companies.program, 'none') : undefined,
      ),
    )
    .orderBy(
      sql`case when ${name} like ${`${escapeLike(lowered)}%`} then 0 else 1 end`,
      asc(name),
      asc(companies.id),
    )
    .limit(companySearchLimit);
  const names: CompanySearchEntry[] = rows.map((row) => ({
    name: row.name,
    company: { id: row.id, name: row.name },
    company_id: row.id,
  }));
  if (options.other) names.push({ name: typed, company: null, company_id: null });
  return { names };
}
