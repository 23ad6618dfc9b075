import mailSpellChecker from '@zootools/email-spell-checker';
import damerau from 'damerau-levenshtein';
import { sql } from 'drizzle-orm';
import freeMailDomains from 'email-providers/all.json' with { type: 'json' };
import commonMailDomains from 'email-providers/common.json' with { type: 'json' };
import type { EmailCorrection, EmployerAnswer, EmployerMethod } from '../../../src/contract/employers.ts';
import type { Queryable } from '../../db/client.ts';
import { arrayParam, queryRows } from '../../db/rows.ts';
import { yieldingMap } from '../../jobs/yielding.ts';

/**
 * Employer identification (issue #31): the one place that decides which catalogue company a gift
 * record's donor works for. The import, `POST /api/v1/matches`, the public match request and the
 * staff screens all call `identifyEmployers`; none has rules of its own.
 *
 * In: the typed employer, the donor's email and (given an organization) the donor's earlier gifts
 * there. Out: a company or none, with a confidence (percent), the method and a reason a person can
 * read. A batch of any size is one database statement (`candidates`), so an import of thousands of
 * rows costs one round trip, not one per row.
 *
 * The rules:
 * - Email: free-mail and ISP domains (the maintained `email-providers` list) never identify; a
 *   company's domain or any subdomain of it does (the longest registered suffix wins).
 * - Typed text: compared by `employer_key()` (migration 0032: case, punctuation, 'The', legal
 *   suffixes ignored) and trigram similarity (pg_trgm), so both databases answer alike; office and
 *   department words, and what follows them, are dropped first. 'Retired', 'Self-employed', 'N/A'
 *   and the like say there is no employer. Two companies about equally close is no answer.
 * - A subsidiary (a company with a parent) is answered as its parent, whose program matches it.
 * - Signals that agree raise the confidence; an email domain and a typed name that disagree
 *   leave the domain's company below any threshold, for a person to decide.
 * - The donor's earlier gifts at the organization answer only when nothing else does.
 */

export type EmployerRecord = {
  /** The employer as typed. */
  employer?: string | null;
  email?: string | null;
};

export type EmployerOptions = {
  /** The donor's earlier gifts are read at this organization (and only with it). */
  organizationId?: number;
  /** Correct a plainly misspelt common email domain (the organization's setting). */
  correctEmails?: boolean;
};

export type Identified = EmployerAnswer & {
  /** The donor's email as it should be stored (corrected when `correction` is set). */
  email: string | null;
  correction: EmailCorrection | null;
};

const freeMail = new Set<string>(freeMailDomains);
const commonMail = new Set<string>(commonMailDomains);

/**
 * Words that say "no employer". Compared with the whole typed text, lowercased, punctuation as
 * spaces, so 'N/A', 'n.a.' and 'Self-Employed' are found.
 */
const noEmployerTexts = new Set([
  'retired',
  'retiree',
  'self employed',
  'selfemployed',
  'self',
  'own business',
  'business owner',
  'n a',
  'na',
  'none',
  'no',
  'nil',
  'null',
  'nobody',
  'no employer',
  'not employed',
  'not applicable',
  'not working',
  'unemployed',
  'student',
  'full time student',
  'homemaker',
  'home maker',
  'housewife',
  'househusband',
  'stay at home',
  'stay at home mom',
  'stay at home dad',
  'stay at home parent',
  'sahm',
  'disabled',
  'volunteer',
  'freelance',
  'freelancer',
  'independent contractor',
  'contractor',
  'consultant',
  'unknown',
  'x',
]);
/** Texts that begin with these are no employer too ('Retired teacher', 'Student at UW'). */
const noEmployerStarts = ['retired ', 'self employed ', 'student ', 'unemployed ', 'homemaker '];

/** Office and department words: a segment holding one is where in the company, not which one. */
const officeWords =
  /\b(office|offices|dept|department|division|branch|headquarters|hq|campus|plant|site|store|location|team|unit|region|regional|lab|labs|subsidiary)\b/i;

const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** 'Retired', 'N/A', 'Student'…: the record says the donor has no employer. */
export function saysNoEmployer(typed: string): boolean {
  const p = plain(typed);
  // Only punctuation ('-', '?', '--'): nothing that could name a company.
  if (p === '') return true;
  return noEmployerTexts.has(p) || noEmployerStarts.some((s) => `${p} `.startsWith(s));
}

/**
 * The part of the typed employer that names the company: parenthesised notes go, and so does a
 * segment after a dash, comma, slash, '|' or '@' that holds an office or department word
 * ('Acme Analytics - Seattle Office', 'Acme Analytics, Finance Dept.'), or the office word and the
 * word before it at the end ('Acme Analytics Seattle Office'). Legal suffixes are left to
 * `employer_key()`.
 */
export function employerCore(typed: string): string {
  let text = typed.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ').trim();
  const segments = text.split(/\s+[-–—|/@]\s+|\s*[,;]\s*/);
  const kept: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (i > 0 && officeWords.test(segment)) break;
    kept.push(segment);
  }
  text = kept.join(', ');
  const words = text.split(/\s+/);
  const last = words.length - 1;
  if (last >= 2 && officeWords.test(words[last] ?? ''))
    words.splice(last >= 3 ? last - 1 : last, last >= 3 ? 2 : 1);
  return words.join(' ').trim();
}

/** The domain of an email, lowercased, or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : null;
}

/** The domain and each parent domain of two labels or more: a subdomain counts as its company's. */
export function domainSuffixes(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** Free-mail or ISP: never an employer's domain. */
export const isFreeMailDomain = (domain: string) => freeMail.has(domain);

/**
 * A plainly misspelt common mail domain ('gmial.com', 'yaho.com', 'hotmial.com'): one edit (a
 * transposed pair counts as one) from a common provider's domain, which the spell checker also
 * proposes. Anything further is left alone: 'acme.com' is not 'me.com'.
 */
export function correctEmail(email: string, known?: Map<string, string | null>): EmailCorrection | null {
  const domain = emailDomain(email);
  if (!domain || commonMail.has(domain)) return null;
  // The spelling of a domain is judged once per batch (`known`): an import names the same
  // few domains again and again, and the checker's distances are its costliest part.
  let corrected = known?.get(domain);
  if (corrected === undefined) {
    corrected = correctedDomain(domain);
    known?.set(domain, corrected);
  }
  if (corrected === null) return null;
  const at = email.lastIndexOf('@');
  return { from: email, to: `${email.slice(0, at)}@${corrected}` };
}

/** The common mail domain a misspelt one stands for, or null (the checker judges domains alone). */
function correctedDomain(domain: string): string | null {
  const suggestion = mailSpellChecker.run({ email: `someone@${domain}` });
  if (!suggestion || !commonMail.has(suggestion.domain)) return null;
  return damerau(domain, suggestion.domain).steps === 1 ? suggestion.domain : null;
}

/** One catalogue candidate for one record, as the candidates statement returns it. */
type Candidate = {
  i: number;
  via: 'domain' | 'name' | 'alias' | 'history';
  company_id: number;
  company_name: string;
  parent_id: number | null;
  parent_name: string | null;
  /** What matched: the domain, the catalogue name or alias, the earlier gift's company. */
  matched: string;
  /** Name and alias: the matched text's key and the typed key (employer_key()). */
  matched_key: string | null;
  typed_key: string | null;
  /** Name and alias: their word score (`wordScore`); 1 for a domain; history: the share of earlier gifts. */
  score: number;
  /** history: how many earlier gifts; domain: the matched domain's length. */
  weight: number;
};

/** The edits a word may be from another and still be it: none up to 4 letters, 1 up to 7, then 2. */
const editBudget = (length: number) => (length <= 4 ? 0 : length <= 7 ? 1 : 2);

/** How alike two words are: 1 the same, less per edit within the budget, 0 beyond it. */
function wordLikeness(a: string, b: string): number {
  if (a === b) return 1;
  const steps = damerau(a, b).steps;
  return steps <= editBudget(Math.max(a.length, b.length)) ? 1 - 0.05 * steps - 0.05 : 0;
}

/**
 * How well a typed key names a catalogue key (both employer_key()), 0 to 1: each catalogue word
 * paired with the likest typed word (a misspelt word still counts, a different word does not),
 * then the pairs over the words of both (Dice), so a missing or extra word costs. Pg_trgm finds
 * the candidates; this ranks them by words, so 'Smumit Insurance' is Summit Insurance, not every
 * company whose name ends in Insurance. Run-together words ('acmeanalytics') are compared whole.
 */
export function wordScore(catalogueKey: string, typedKey: string): number {
  if (catalogueKey === typedKey) return 1;
  const joined = wordLikeness(catalogueKey.replace(/ /g, ''), typedKey.replace(/ /g, ''));
  const catalogue = catalogueKey.split(' ').filter(Boolean);
  const typed = typedKey.split(' ').filter(Boolean);
  const unused = new Set(typed.keys());
  let sum = 0;
  for (const word of catalogue) {
    let best = 0;
    let at = -1;
    for (const i of unused) {
      const likeness = wordLikeness(word, typed[i] ?? '');
      if (likeness > best) {
        best = likeness;
        at = i;
      }
    }
    if (at >= 0) unused.delete(at);
    sum += best;
  }
  const dice = catalogue.length + typed.length ? (2 * sum) / (catalogue.length + typed.length) : 0;
  return Math.max(dice, joined === 1 ? 0.98 : joined * 0.95);
}

/** The lowest word score that is still worth showing a person (below: no answer). */
const minimumScore = 0.6;
/** Two companies closer than this are "equally close": no answer. */
const tieMargin = 0.06;

/** Every candidate of a batch in one statement: domains, names, aliases, earlier gifts. */
async function candidates(
  db: Queryable,
  typed: Array<{ i: number; core: string }>,
  domains: Array<{ i: number; domain: string }>,
  emails: Array<{ i: number; email: string }>,
  organizationId: number | undefined,
): Promise<Candidate[]> {
  if (typed.length === 0 && domains.length === 0 && emails.length === 0) return [];
  const history =
    organizationId !== undefined && emails.length > 0
      ? sql`union all
          select e.i, 'history' as via, d.company_id, c.name as matched, null, null,
            count(*)::real / sum(count(*)) over (partition by e.i) as score, count(*)::int as weight
          from unnest(${arrayParam(
            emails.map((e) => e.i),
            'int',
          )}, ${arrayParam(
            emails.map((e) => e.email),
            'text',
          )}) as e(i, email)
          join donors o on o.organization_id = ${organizationId} and o.email = e.email
          join donations d on d.donor_id = o.id and d.company_id is not null
          join companies c on c.id = d.company_id
          group by e.i, d.company_id, c.name`
      : sql``;
  return queryRows<Candidate>(
    db,
    sql`with k as materialized (
          select t.i, employer_key(t.core) as key
          from unnest(${arrayParam(
            typed.map((t) => t.i),
            'int',
          )}, ${arrayParam(
            typed.map((t) => t.core),
            'text',
          )}) as t(i, core)
          where employer_key(t.core) <> ''
        ), fuzzy as materialized (
          -- Only a text that is no catalogue name or alias exactly is looked up by trigrams: an
          -- exact one is sure (only another exact one could doubt it), and the trigram index is
          -- the costly part.
          select k.i, k.key from k
          where not exists (select 1 from companies c where c.name_key = k.key)
            and not exists (select 1 from company_aliases a where a.alias_key = k.key)
        ), found as (
          select d.i, 'domain' as via, cd.company_id, cd.domain as matched, null as matched_key,
            null as typed_key, 1::real as score, length(cd.domain) as weight
          from unnest(${arrayParam(
            domains.map((d) => d.i),
            'int',
          )}, ${arrayParam(
            domains.map((d) => d.domain),
            'text',
          )}) as d(i, domain)
          join company_domains cd on cd.domain = d.domain
          union all
          select k.i, 'name', c.id, c.name, c.name_key, k.key, 0, 0
          from k join companies c on c.name_key = k.key
          union all
          select k.i, 'alias', a.company_id, a.alias, a.alias_key, k.key, 0, 0
          from k join company_aliases a on a.alias_key = k.key
          union all
          select f.i, 'name', c.id, c.name, c.name_key, f.key, 0, 0
          from fuzzy f join companies c on c.name_key % f.key
          union all
          select f.i, 'alias', a.company_id, a.alias, a.alias_key, f.key, 0, 0
          from fuzzy f join company_aliases a on a.alias_key % f.key
          ${history}
        )
        select f.i, f.via, f.company_id, c.name as company_name, c.parent_id, p.name as parent_name,
          f.matched, f.matched_key, f.typed_key, f.score::float8 as score, f.weight
        from found f
        join companies c on c.id = f.company_id
        left join companies p on p.id = c.parent_id`,
  );
}

/** The company a candidate answers with: a subsidiary's parent. */
const finalCompany = (c: Candidate) =>
  c.parent_id !== null && c.parent_name !== null
    ? { id: c.parent_id, name: c.parent_name, via: ` (part of ${c.parent_name}, whose program matches it)` }
    : { id: c.company_id, name: c.company_name, via: '' };

type Partial = {
  companyId: number;
  companyName: string;
  confidence: number;
  method: EmployerMethod;
  reason: string;
};

const none = (reason: string, noEmployer = false): EmployerAnswer => ({
  company_id: null,
  company_name: null,
  confidence: 0,
  method: null,
  reason,
  no_employer: noEmployer,
});

const quote = (text: string) => `'${text.trim().replace(/\s+/g, ' ')}'`;

/** The best domain answer of a record: the longest registered domain it falls under. */
function byDomain(found: Candidate[], domain: string): Partial | null {
  const best = found.filter((c) => c.via === 'domain').sort((a, b) => b.weight - a.weight)[0];
  if (!best) return null;
  const company = finalCompany(best);
  const sub = best.matched !== domain;
  return {
    companyId: company.id,
    companyName: company.name,
    confidence: sub ? 97 : 99,
    method: 'domain',
    reason: sub
      ? `email domain ${domain}, part of ${best.matched}${company.via}`
      : `email domain ${domain}${company.via}`,
  };
}

/** The best name or alias answer, or why there is none ('ambiguous'). */
function byName(found: Candidate[], typed: string): Partial | { ambiguous: string } | null {
  // The best score per answered company (a name and an alias of one company are one candidate).
  const best = new Map<number, { c: Candidate; score: number }>();
  for (const c of found) {
    if (c.via !== 'name' && c.via !== 'alias') continue;
    c.score = wordScore(c.matched_key ?? '', c.typed_key ?? '');
    const id = finalCompany(c).id;
    const held = best.get(id);
    // An exact name beats an exact alias of the same company (its reason is plainer).
    if (!held || c.score > held.score || (c.score === held.score && c.via === 'name'))
      best.set(id, { c, score: c.score });
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score);
  const first = ranked[0];
  if (!first || first.score < minimumScore) return null;
  const second = ranked[1];
  if (second && first.score - second.score < tieMargin)
    return {
      ambiguous: `typed ${quote(typed)} is as close to ${finalCompany(first.c).name} as to ${finalCompany(second.c).name}`,
    };
  const company = finalCompany(first.c);
  const exact = first.score >= 0.999;
  // The word score as a percent (a misspelling is never as sure as the name: at most 94); a close
  // runner-up takes off what its margin lacks of 0.3.
  // Typed exactly as a catalogue name or alias, only another exact one (a tie, above) doubts it.
  let confidence = exact ? (first.c.via === 'name' ? 97 : 95) : Math.round(100 * first.score);
  if (second && !exact) confidence -= Math.max(0, Math.round((0.3 - (first.score - second.score)) * 100));
  confidence = Math.min(exact ? confidence : 94, Math.max(1, confidence));
  const alias = first.c.via === 'alias';
  const reason = alias
    ? exact
      ? `alias ${quote(first.c.matched)} of ${first.c.company_name}${company.via}`
      : `typed ${quote(typed)}, close to alias ${quote(first.c.matched)} of ${first.c.company_name}${company.via}`
    : exact
      ? `typed ${quote(typed)}, the name of ${first.c.company_name}${company.via}`
      : `typed ${quote(typed)}, close to ${first.c.company_name}${company.via}`;
  return {
    companyId: company.id,
    companyName: company.name,
    confidence,
    method: alias ? 'alias' : 'name',
    reason,
  };
}

/** The donor's earlier gifts: the company most of them named. */
function byHistory(found: Candidate[]): Partial | null {
  const ranked = found
    .filter((c) => c.via === 'history')
    .sort((a, b) => b.weight - a.weight || b.score - a.score);
  const first = ranked[0];
  if (!first) return null;
  const company = finalCompany(first);
  const all = first.score >= 0.999;
  return {
    companyId: company.id,
    companyName: company.name,
    confidence: all ? 90 : Math.round(40 + 40 * first.score),
    method: 'history',
    reason:
      first.weight === 1
        ? `the donor's earlier gift named ${first.company_name}${company.via}`
        : all
          ? `the donor's ${first.weight} earlier gifts named ${first.company_name}${company.via}`
          : `${first.weight} of the donor's earlier gifts named ${first.company_name}${company.via}`,
  };
}

const answer = (p: Partial): EmployerAnswer => ({
  company_id: p.companyId,
  company_name: p.companyName,
  confidence: p.confidence,
  method: p.method,
  reason: p.reason,
  no_employer: false,
});

/**
 * Identifies the employer of each record (same order). One statement for the whole batch; no
 * writes. See the rules above.
 */
export async function identifyEmployers(
  db: Queryable,
  records: readonly EmployerRecord[],
  options: EmployerOptions = {},
): Promise<Identified[]> {
  // Both passes over the records are CPU work (spell-checking emails, fuzzy name matching):
  // they give the event loop back every few milliseconds (yieldingMap), and since an import
  // names the same employers and domains again and again, each distinct domain's spelling and
  // each distinct typed text's name match are worked out once per batch.
  const domainSpelling = new Map<string, string | null>();
  const prepared = await yieldingMap(records, (r, i) => {
    const typed = (r.employer ?? '').trim();
    const rawEmail = (r.email ?? '').trim().toLowerCase() || null;
    const correction = rawEmail && options.correctEmails ? correctEmail(rawEmail, domainSpelling) : null;
    const email = correction ? correction.to : rawEmail;
    const domain = email ? emailDomain(email) : null;
    const noEmployer = typed !== '' && saysNoEmployer(typed);
    const core = typed !== '' && !noEmployer ? employerCore(typed) : '';
    return { i, typed, email, correction, domain, noEmployer, core };
  });
  // Each distinct typed text is looked up once (an import names the same employers again and
  // again); its candidates carry a negative index, -1 for the first text, apart from the records'.
  const cores = [...new Set(prepared.flatMap((p) => (p.core ? [p.core] : [])))];
  const coreIndex = new Map(cores.map((core, at) => [core, -(at + 1)]));
  const typed = cores.map((core, at) => ({ i: -(at + 1), core }));
  const domains = prepared.flatMap((p) =>
    p.domain && !freeMail.has(p.domain) && !p.noEmployer
      ? domainSuffixes(p.domain)
          .filter((d) => !freeMail.has(d))
          .map((domain) => ({ i: p.i, domain }))
      : [],
  );
  const emails = prepared.flatMap((p) => (p.email && !p.noEmployer ? [{ i: p.i, email: p.email }] : []));
  const rows = await candidates(db, typed, domains, emails, options.organizationId);
  const byRecord = new Map<number, Candidate[]>();
  for (const row of rows) {
    const list = byRecord.get(row.i) ?? [];
    list.push(row);
    byRecord.set(row.i, list);
  }

  const nameAnswers = new Map<string, ReturnType<typeof byName>>();
  return yieldingMap(prepared, (p) => {
    const found = [...(byRecord.get(p.i) ?? []), ...(byRecord.get(coreIndex.get(p.core) ?? 0) ?? [])];
    const extra = { email: p.email, correction: p.correction };
    if (p.noEmployer) return { ...none(`typed ${quote(p.typed)}: no employer`, true), ...extra };
    const domain = p.domain ? byDomain(found, p.domain) : null;
    // A record's name and alias candidates are its typed text's alone (the core's index), so the
    // answer is the same for every record that typed the same text.
    let name: ReturnType<typeof byName> = null;
    if (p.core) {
      if (!nameAnswers.has(p.typed))
        nameAnswers.set(p.typed, byName(byRecord.get(coreIndex.get(p.core) ?? 0) ?? [], p.typed));
      name = nameAnswers.get(p.typed) ?? null;
    }
    const named = name && 'companyId' in name ? name : null;
    if (domain && named) {
      if (domain.companyId === named.companyId)
        return {
          ...answer({ ...domain, confidence: 99, reason: `${domain.reason}; ${named.reason}` }),
          ...extra,
        };
      // Two signals naming different companies: a person decides (the domain is the likelier).
      return {
        ...answer({ ...domain, confidence: 60, reason: `${domain.reason}, but ${named.reason}` }),
        ...extra,
      };
    }
    if (domain) return { ...answer(domain), ...extra };
    if (named) return { ...answer(named), ...extra };
    const history = byHistory(found);
    // Typed text that names no catalogue company may be a new employer: an earlier gift's company
    // is then only a suggestion.
    if (history)
      return {
        ...answer(p.typed ? { ...history, confidence: Math.min(history.confidence, 60) } : history),
        ...extra,
      };
    if (name && 'ambiguous' in name) return { ...none(name.ambiguous), ...extra };
    const why =
      p.typed && p.domain && freeMail.has(p.domain)
        ? `typed ${quote(p.typed)} names no catalogue company; ${p.domain} is a free-mail domain`
        : p.typed
          ? `typed ${quote(p.typed)} names no catalogue company`
          : p.domain && freeMail.has(p.domain)
            ? `${p.domain} is a free-mail domain and no employer was typed`
            : p.domain
              ? `email domain ${p.domain} is no catalogue company's and no employer was typed`
              : 'no employer typed and no email';
    return { ...none(why), ...extra };
  });
}

/** One record: the batch of one. */
export async function identifyEmployer(
  db: Queryable,
  record: EmployerRecord,
  options: EmployerOptions = {},
): Promise<Identified> {
  const [result] = await identifyEmployers(db, [record], options);
  if (!result) throw new Error('identifyEmployers answered no record');
  return result;
}
