import * as XLSX from '@e965/xlsx';
import { stringify } from 'csv-stringify/sync';
import { asc, sql } from 'drizzle-orm';
import { CompanyProgramme, programmeProblem } from '../../../src/contract/company-admin.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { companies, companyAliases, companyChanges, companyDomains } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { readTable } from '../donations/import-parse.ts';
import { isFreeMailDomain } from '../employers/identify.ts';

/**
 * The catalogue as a file (issue #31): super users export it and import it as CSV or XLSX with
 * the same columns both ways (docs/companies-catalogue.md). An import is checked row by row and
 * writes nothing unless every row is valid; then, in one transaction, companies are created or
 * updated by name (any case) with a history row each, so the same file a second time changes
 * nothing.
 */

/** The columns, in file order. Lists (domains, aliases, categories) are separated by ';'. */
export const catalogueColumns = [
  'name',
  'domains',
  'aliases',
  'parent',
  'program',
  'match_method',
  'verify',
  'match_ratio',
  'minimum_match',
  'maximum_match',
  'deadline_rule',
  'deadline_days',
  'csr_vendor',
  'url',
  'guide',
  'forms_email',
  'forms_address',
  'categories',
] as const;

/** The most rows an import takes. */
const maxCatalogueRows = 50_000;

type Row = typeof companies.$inferSelect;

const dollars = (cents: number | null) =>
  cents === null ? '' : (cents / 100).toFixed(2).replace(/\.00$/, '');

async function catalogueRows(db: Queryable) {
  const [rows, domains, aliases] = await Promise.all([
    db
      .select()
      .from(companies)
      .orderBy(asc(sql`lower(${companies.name})`)),
    db.select().from(companyDomains).orderBy(asc(companyDomains.domain)),
    db
      .select()
      .from(companyAliases)
      .orderBy(asc(sql`lower(${companyAliases.alias})`)),
  ]);
  const nameOf = new Map(rows.map((r) => [r.id, r.name]));
  const list = (items: { company_id: number; value: string }[]) => {
    const out = new Map<number, string[]>();
    for (const i of items) out.set(i.company_id, [...(out.get(i.company_id) ?? []), i.value]);
    return out;
  };
  const domainsOf = list(domains.map((d) => ({ company_id: d.company_id, value: d.domain })));
  const aliasesOf = list(aliases.map((a) => ({ company_id: a.company_id, value: a.alias })));
  return rows.map((r: Row) => [
    r.name,
    (domainsOf.get(r.id) ?? []).join('; '),
    (aliasesOf.get(r.id) ?? []).join('; '),
    r.parent_id === null ? '' : (nameOf.get(r.parent_id) ?? ''),
    r.program,
    r.match_method ?? '',
    r.verify ?? '',
    r.match_ratio,
    dollars(r.minimum_match_cents),
    dollars(r.maximum_match_cents),
    r.deadline_rule,
    r.deadline_days === null ? '' : String(r.deadline_days),
    r.csr_vendor ?? '',
    r.url ?? '',
    r.guide ?? '',
    r.forms_email ?? '',
    r.forms_address ?? '',
    [...r.categories].sort((a, b) => a - b).join('; '),
  ]);
}

/** The whole catalogue as a CSV or XLSX download. */
export async function exportCatalogue(db: Queryable, format: 'csv' | 'xlsx'): Promise<Response> {
  const rows = [[...catalogueColumns], ...(await catalogueRows(db))];
  if (format === 'csv')
    return new Response(stringify(rows), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="companies.csv"',
      },
    });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Companies');
  const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  return new Response(bytes, {
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': 'attachment; filename="companies.xlsx"',
    },
  });
}

const listOf = (text: string) =>
  text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
const textOrNull = (text: string) => text.trim() || null;

function centsOf(text: string, column: string, problems: string[]): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!t) return null;
  if (!/^\d+(\.\d{1,2})?$/.test(t)) {
    problems.push(`${column} is not an amount in dollars: '${text}'`);
    return null;
  }
  return Math.round(Number(t) * 100);
}

type Planned = { line: number; name: string; programme: CompanyProgramme; parent: string | null };

/** Reads and checks every row; the problems name the row and the column. */
function planRows(file: { name: string; bytes: Uint8Array }) {
  const table = readTable(file.name, file.bytes, {
    rows: maxCatalogueRows,
    message: `At most ${maxCatalogueRows} companies a file`,
  });
  const missing = catalogueColumns.filter((c) => !table.headers.includes(c));
  if (missing.length) throw new HttpError(400, `The file lacks the column(s) ${missing.join(', ')}`);
  const errors: { row: number; reason: string }[] = [];
  const planned: Planned[] = [];
  const names = new Set<string>();
  for (const { line, cells } of table.rows) {
    const cell = (c: (typeof catalogueColumns)[number]) => (cells[c] ?? '').trim();
    const problems: string[] = [];
    const name = cell('name').replace(/\s+/g, ' ');
    if (!name) problems.push('name is required');
    else if (names.has(name.toLowerCase())) problems.push(`${name} is in the file twice`);
    names.add(name.toLowerCase());
    const days = cell('deadline_days');
    const candidate = {
      match_method: textOrNull(cell('match_method')),
      guide: textOrNull(cell('guide')),
      url: textOrNull(cell('url')),
      verify: textOrNull(cell('verify')),
      program: cell('program') || 'matching',
      minimum_match_cents: centsOf(cell('minimum_match'), 'minimum_match', problems),
      maximum_match_cents: centsOf(cell('maximum_match'), 'maximum_match', problems),
      match_ratio: Number(cell('match_ratio') || '1'),
      deadline_rule: cell('deadline_rule') || 'none',
      deadline_days: days ? Number(days) : null,
      csr_vendor: textOrNull(cell('csr_vendor')),
      forms_email: textOrNull(cell('forms_email')),
      forms_address: textOrNull(cell('forms_address')),
      categories: listOf(cell('categories')).map(Number),
      domains: listOf(cell('domains')).map((d) => d.toLowerCase().replace(/^www\./, '')),
      aliases: listOf(cell('aliases')),
    };
    const parsed = CompanyProgramme.safeParse(candidate);
    for (const d of candidate.domains)
      if (isFreeMailDomain(d))
        problems.push(`domains: ${d} is a free-mail or ISP domain: it names no employer`);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problems.push(`${String(issue.path[0] ?? 'row')}: ${issue.message}`);
    else {
      const problem = programmeProblem(parsed.data);
      if (problem) problems.push(problem);
    }
    if (problems.length) errors.push({ row: line, reason: problems.join('; ') });
    else if (parsed.success)
      planned.push({ line, name, programme: parsed.data, parent: textOrNull(cell('parent')) });
  }
  // A domain names one company: within the file.
  const domainRow = new Map<string, string>();
  for (const p of planned)
    for (const d of p.programme.domains ?? []) {
      const other = domainRow.get(d);
      if (other) errors.push({ row: p.line, reason: `domains: ${d} is also ${other}'s` });
      domainRow.set(d, p.name);
    }
  return { planned, errors };
}

export type CatalogueImportResult = {
  message: string;
  created: number;
  updated: number;
  unchanged: number;
  errors: { row: number; reason: string }[];
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Imports a catalogue file: all rows valid, then all written in one transaction; else nothing. */
export async function importCatalogue(
  db: Db,
  userId: number,
  file: File,
  by: AuditBy,
): Promise<CatalogueImportResult> {
  const { planned, errors } = planRows({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  if (errors.length) throw new CatalogueFileError(errors);
  return db.transaction(async (tx) => {
    const existing = await tx.select().from(companies);
    const byName = new Map(existing.map((c) => [c.name.toLowerCase(), c]));
    // Parents are named: a company of the catalogue or of the file.
    const fileNames = new Set(planned.map((p) => p.name.toLowerCase()));
    const problems: { row: number; reason: string }[] = [];
    for (const p of planned) {
      if (!p.parent) continue;
      const key = p.parent.toLowerCase();
      if (!byName.has(key) && !fileNames.has(key))
        problems.push({ row: p.line, reason: `parent: no company named ${p.parent}` });
      if (key === p.name.toLowerCase())
        problems.push({ row: p.line, reason: 'parent: a company cannot be its own parent' });
    }
    const domainOwner = new Map(
      (
        await tx.select({ domain: companyDomains.domain, id: companyDomains.company_id }).from(companyDomains)
      ).map((d) => [d.domain, d.id]),
    );
    for (const p of planned)
      for (const d of p.programme.domains ?? []) {
        const owner = domainOwner.get(d);
        const self = byName.get(p.name.toLowerCase())?.id;
        const ownerName = existing.find((c) => c.id === owner)?.name;
        // Another company's domain, unless the file moves it away from that company too.
        const moved =
          ownerName &&
          planned.some(
            (q) =>
              q.name.toLowerCase() === ownerName.toLowerCase() && !(q.programme.domains ?? []).includes(d),
          );
        if (owner !== undefined && owner !== self && !moved)
          problems.push({ row: p.line, reason: `domains: ${d} is already ${ownerName}'s` });
      }
    if (problems.length) throw new CatalogueFileError(problems.sort((a, b) => a.row - b.row));

    let created = 0;
    let updated = 0;
    let unchanged = 0;
    // The companies already counted as created or updated.
    const touched = new Set<number>();
    const idOf = new Map(existing.map((c) => [c.name.toLowerCase(), c.id]));
    // First every company without its parent, then the parents (a parent may come later in the file).
    for (const p of planned) {
      const { domains = [], aliases = [], parent_id: _parent, match_ratio, ...fields } = p.programme;
      const columns = {
        ...fields,
        match_ratio: String(match_ratio),
        categories: [...new Set(fields.categories)].sort((a, b) => a - b),
      };
      const current = byName.get(p.name.toLowerCase());
      if (!current) {
        const [row] = await tx
          .insert(companies)
          .values({ name: p.name, ...columns })
          .returning({ id: companies.id });
        if (!row) throw new Error('company insert returned nothing');
        idOf.set(p.name.toLowerCase(), row.id);
        await writeWritings(tx, row.id, domains, aliases);
        touched.add(row.id);
        await tx.insert(companyChanges).values({
          company_id: row.id,
          user_id: userId,
          changes: [{ field: 'created', from: null, to: 'catalogue import' }],
        });
        created += 1;
        continue;
      }
      const before = await writingsOf(tx, current.id);
      const changes = [
        ...Object.entries(columns)
          .filter(([k, v]) => !same((current as Record<string, unknown>)[k], v))
          .map(([field, to]) => ({ field, from: (current as Record<string, unknown>)[field], to })),
        ...(same(before.domains, [...new Set(domains)].sort())
          ? []
          : [{ field: 'domains', from: before.domains, to: [...new Set(domains)].sort() }]),
        ...(same(
          before.aliases,
          [...aliases].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
        )
          ? []
          : [{ field: 'aliases', from: before.aliases, to: aliases }]),
      ];
      if (changes.length === 0) {
        unchanged += 1;
        continue;
      }
      await tx.update(companies).set(columns).where(sql`${companies.id} = ${current.id}`);
      await writeWritings(tx, current.id, domains, aliases);
      await tx.insert(companyChanges).values({ company_id: current.id, user_id: userId, changes });
      touched.add(current.id);
      updated += 1;
    }
    for (const p of planned) {
      const id = idOf.get(p.name.toLowerCase());
      const parentId = p.parent ? (idOf.get(p.parent.toLowerCase()) ?? null) : null;
      const current = byName.get(p.name.toLowerCase());
      if (id === undefined || (current?.parent_id ?? null) === parentId) continue;
      await tx.update(companies).set({ parent_id: parentId }).where(sql`${companies.id} = ${id}`);
      if (current) {
        await tx.insert(companyChanges).values({
          company_id: id,
          user_id: userId,
          changes: [{ field: 'parent_id', from: current.parent_id, to: parentId }],
        });
        // A company counted unchanged above whose parent changed is updated after all.
        if (!touched.has(id)) {
          touched.add(id);
          unchanged -= 1;
          updated += 1;
        }
      }
    }
    // Parents one level deep, as the Companies dialog keeps them.
    const [nested] = await tx
      .execute(
        sql`select c.name from ${companies} c join ${companies} p on p.id = c.parent_id where p.parent_id is not null limit 1`,
      )
      .then((r) => (r as unknown as { rows: { name: string }[] }).rows);
    if (nested)
      throw new HttpError(400, `${nested.name}'s parent is itself a subsidiary: parents are one level deep`);
    // The whole import is one catalogue edit (no organization: see recordCatalogueEdit).
    await recordBy(tx, by, {
      kind: 'catalogue.edited',
      organizationId: null,
      summary: `Imported the company catalogue from ${file.name.slice(0, 200)}: ${created} created, ${updated} updated`,
      details: { file: file.name.slice(0, 200), created, updated, unchanged },
    });
    return { message: 'Catalogue imported', created, updated, unchanged, errors: [] };
  });
}

async function writingsOf(tx: Tx, id: number) {
  const [domains, aliases] = await Promise.all([
    tx
      .select({ v: companyDomains.domain })
      .from(companyDomains)
      .where(sql`${companyDomains.company_id} = ${id}`),
    tx
      .select({ v: companyAliases.alias })
      .from(companyAliases)
      .where(sql`${companyAliases.company_id} = ${id}`),
  ]);
  return {
    domains: domains.map((d) => d.v).sort(),
    aliases: aliases.map((a) => a.v).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
  };
}

async function writeWritings(tx: Tx, id: number, domains: string[], aliases: string[]) {
  await tx.delete(companyDomains).where(sql`${companyDomains.company_id} = ${id}`);
  await tx.delete(companyAliases).where(sql`${companyAliases.company_id} = ${id}`);
  const uniqueDomains = [...new Set(domains)];
  if (uniqueDomains.length)
    await tx.insert(companyDomains).values(uniqueDomains.map((domain) => ({ company_id: id, domain })));
  const seen = new Set<string>();
  const uniqueAliases = aliases.filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
  if (uniqueAliases.length)
    await tx.insert(companyAliases).values(uniqueAliases.map((alias) => ({ company_id: id, alias })));
}

/** A file with invalid rows: 400 with every row's problem, nothing written. */
export class CatalogueFileError extends HttpError {
  constructor(readonly rows: { row: number; reason: string }[]) {
    super(
      400,
      `Nothing was imported: ${rows.length} ${rows.length === 1 ? 'row has a problem' : 'rows have problems'}. ${rows
        .slice(0, 20)
        .map((r) => `Row ${r.row}: ${r.reason}`)
        .join(' ')}`,
    );
  }
}
