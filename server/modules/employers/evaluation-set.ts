import { demoCompanies } from '../../db/seed-companies.ts';

/**
 * The alias the demo catalogue gives a company ('AB Bank' for Acme Bank: seed-companies.ts),
 * written out here so the set also runs against a build that has no aliases ("before").
 */
const initialsAlias = (name: string) => {
  const words = name.split(' ');
  return `${words.map((w) => w[0] ?? '').join('')} ${words[words.length - 1] ?? ''}`;
};

/**
 * The labelled evaluation set of employer identification (issue #31): gift records shaped like
 * real donation-platform exports, each with the demo catalogue company it must end at, or null
 * when it must NOT be identified. Built from a seeded generator, so every run is the same set;
 * read by `identify.evaluation.test.ts` (the goals, asserted) and `bench/employers.ts` (the
 * figures, through the import).
 *
 * It depends only on the demo catalogue's names and the shape of its urls, so the benchmark can
 * measure the import of a build without this module's service ("before").
 */

export type EvaluationKind =
  | 'exact'
  | 'suffix'
  | 'the-company'
  | 'typo'
  | 'office'
  | 'alias'
  | 'work-email'
  | 'subdomain-email'
  | 'email-and-name'
  | 'free-mail'
  | 'misspelt-free-mail'
  | 'no-employer'
  | 'blank'
  | 'unknown'
  | 'ambiguous';

export type EvaluationRecord = {
  kind: EvaluationKind;
  donorName: string;
  donorEmail: string;
  employer: string;
  /** The catalogue company it must end at; null: it must not be identified. */
  expected: string | null;
};

/** mulberry32: a small seeded generator (the same sequence every run). */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firstNames = [
  'Jane',
  'Omar',
  'Li',
  'Maria',
  'Sam',
  'Priya',
  'Noah',
  'Ava',
  'Kenji',
  'Zoe',
  'Luis',
  'Ines',
];
const lastNames = ['Doe', 'Haddad', 'Chen', 'Garcia', 'Okafor', 'Patel', 'Smith', 'Novak', 'Sato', 'Brown'];
const freeDomains = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'aol.com',
  'icloud.com',
  'comcast.net',
  'verizon.net',
];
const misspeltFree = ['gmial.com', 'yaho.com', 'hotmial.com', 'gmal.com', 'outlok.com'];
const suffixes = [
  ', Inc.',
  ' Inc',
  ' LLC',
  ', L.L.C.',
  ' Ltd.',
  ' Corp.',
  ' Corporation',
  ' Co.',
  ' GmbH',
  ' plc',
  ' Company',
];
const offices = [
  ' - Seattle Office',
  ', HR Dept.',
  ' (Finance Department)',
  ' - Downtown Branch',
  ' / Research Division',
  ' Chicago Office',
  ' HQ',
];
const noEmployer = [
  'Retired',
  'retired',
  'Self-employed',
  'Self Employed',
  'N/A',
  'n/a',
  'NA',
  'None',
  'Student',
  'Unemployed',
  'Homemaker',
  'Stay at home mom',
  'Not employed',
  '-',
];
/** Companies the catalogue does not have: some share a word with one it does. */
const unknownFirst = [
  'Zephyr',
  'Nimbus',
  'Vortex',
  'Obsidian',
  'Saffron',
  'Tundra',
  'Acme',
  'Summit',
  'Harbor',
];
const unknownSecond = ['Robotics', 'Aerospace', 'Textiles', 'Shipping', 'Furniture', 'Brewing', 'Apparel'];
/** The first words the catalogue has 15 companies each of: alone, they name none of them. */
const ambiguousTexts = (firsts: string[]) => firsts.flatMap((f) => [f, `${f} Inc`, `The ${f} Company`]);

/** One plain typing mistake in a word of five letters or more: a dropped, doubled, swapped or wrong letter. */
function misspell(name: string, random: () => number): string {
  const words = name.split(' ');
  const candidates = words.map((w, i) => ({ w, i })).filter(({ w }) => w.length >= 6);
  const pick = candidates[Math.floor(random() * candidates.length)] ?? { w: words[0] ?? name, i: 0 };
  const w = pick.w;
  // Not the first letter: people rarely get that wrong.
  const at = 1 + Math.floor(random() * (w.length - 2));
  const kind = Math.floor(random() * 4);
  const letters = 'aeiourstnl';
  const typo =
    kind === 0
      ? w.slice(0, at) + w.slice(at + 1)
      : kind === 1
        ? w.slice(0, at) + w[at] + w.slice(at)
        : kind === 2
          ? w.slice(0, at) + (w[at + 1] ?? '') + w[at] + w.slice(at + 2)
          : w.slice(0, at) + letters[Math.floor(random() * letters.length)] + w.slice(at + 1);
  words[pick.i] = typo;
  return words.join(' ');
}

const slug = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

/** The evaluation set: at least 1,000 records of every kind, the same every run. */
export function evaluationSet(seed = 31): EvaluationRecord[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const names = demoCompanies().map((c) => c.name);
  const firsts = [...new Set(names.map((n) => n.split(' ')[0] ?? n))];
  const records: EvaluationRecord[] = [];
  let n = 0;
  const person = () => {
    n += 1;
    const first = pick(firstNames);
    const last = pick(lastNames);
    return { donorName: `${first} ${last}`, local: `${first}.${last}${n}`.toLowerCase() };
  };
  const add = (
    kind: EvaluationKind,
    count: number,
    make: () => Omit<EvaluationRecord, 'kind' | 'donorName'> & { donorName?: string },
  ) => {
    for (let i = 0; i < count; i++) {
      const r = make();
      records.push({ kind, donorName: r.donorName ?? person().donorName, ...r });
    }
  };
  const freeEmail = (local: string) => `${local}@${pick(freeDomains)}`;

  add('exact', 100, () => {
    const name = pick(names);
    const p = person();
    return { donorName: p.donorName, donorEmail: freeEmail(p.local), employer: name, expected: name };
  });
  add('suffix', 150, () => {
    const name = pick(names);
    const p = person();
    const cased = random() < 0.3 ? name.toUpperCase() : random() < 0.5 ? name.toLowerCase() : name;
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: `${cased}${pick(suffixes)}`,
      expected: name,
    };
  });
  add('the-company', 60, () => {
    const name = pick(names);
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: random() < 0.5 ? `The ${name} Company` : `The ${name}`,
      expected: name,
    };
  });
  add('typo', 150, () => {
    const name = pick(names);
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: misspell(name, random),
      expected: name,
    };
  });
  add('office', 60, () => {
    const name = pick(names);
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: `${name}${pick(offices)}`,
      expected: name,
    };
  });
  add('alias', 70, () => {
    const name = pick(names);
    const p = person();
    const alias = initialsAlias(name);
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: random() < 0.3 ? alias.toLowerCase() : random() < 0.5 ? `${alias}, Inc.` : alias,
      expected: name,
    };
  });
  add('work-email', 120, () => {
    const name = pick(names);
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: `${p.local}@${slug(name)}.example.com`,
      employer: '',
      expected: name,
    };
  });
  add('subdomain-email', 50, () => {
    const name = pick(names);
    const p = person();
    const sub = pick(['eu', 'mail', 'corp', 'us.mail']);
    return {
      donorName: p.donorName,
      donorEmail: `${p.local}@${sub}.${slug(name)}.example.com`,
      employer: '',
      expected: name,
    };
  });
  add('email-and-name', 60, () => {
    const name = pick(names);
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: `${p.local}@${slug(name)}.example.com`,
      employer: random() < 0.5 ? name : `${name}, Inc.`,
      expected: name,
    };
  });
  add('free-mail', 100, () => {
    const p = person();
    return { donorName: p.donorName, donorEmail: freeEmail(p.local), employer: '', expected: null };
  });
  add('misspelt-free-mail', 20, () => {
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: `${p.local}@${pick(misspeltFree)}`,
      employer: '',
      expected: null,
    };
  });
  add('no-employer', 80, () => {
    const p = person();
    // Half of them write from a work address: 'Retired' still wins (the address is old).
    const email = random() < 0.5 ? freeEmail(p.local) : `${p.local}@${slug(pick(names))}.example.com`;
    return { donorName: p.donorName, donorEmail: email, employer: pick(noEmployer), expected: null };
  });
  add('blank', 40, () => {
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: random() < 0.5 ? freeEmail(p.local) : '',
      employer: '',
      expected: null,
    };
  });
  add('unknown', 100, () => {
    const p = person();
    const employer = `${pick(unknownFirst)} ${pick(unknownSecond)}${random() < 0.3 ? pick(suffixes) : ''}`;
    return { donorName: p.donorName, donorEmail: freeEmail(p.local), employer, expected: null };
  });
  add('ambiguous', 40, () => {
    const p = person();
    return {
      donorName: p.donorName,
      donorEmail: freeEmail(p.local),
      employer: pick(ambiguousTexts(firsts)),
      expected: null,
    };
  });
  return records;
}

/** What a run scored: the goals are found ≥ 95% of the findable, wrong ≤ 1% of the named. */
export type EvaluationScore = {
  records: number;
  findable: number;
  found: number;
  named: number;
  wrong: number;
  foundShare: number;
  wrongShare: number;
  /** Per kind: records, found (or correctly left unnamed), wrong. */
  byKind: Record<string, { records: number; right: number; wrong: number }>;
};

/** Scores the companies a run named (null: none) against the set. */
export function scoreEvaluation(
  set: readonly EvaluationRecord[],
  named: ReadonlyArray<string | null>,
): EvaluationScore {
  let findable = 0;
  let found = 0;
  let namedCount = 0;
  let wrong = 0;
  const byKind: EvaluationScore['byKind'] = {};
  set.forEach((r, i) => {
    const answer = named[i] ?? null;
    const kind = byKind[r.kind] ?? { records: 0, right: 0, wrong: 0 };
    byKind[r.kind] = kind;
    kind.records += 1;
    if (r.expected !== null) findable += 1;
    if (answer !== null) namedCount += 1;
    if (answer !== null && answer === r.expected) found += 1;
    if (answer !== null && answer !== r.expected) {
      wrong += 1;
      kind.wrong += 1;
    }
    if (answer === r.expected) kind.right += 1;
  });
  return {
    records: set.length,
    findable,
    found,
    named: namedCount,
    wrong,
    foundShare: findable ? found / findable : 0,
    wrongShare: namedCount ? wrong / namedCount : 0,
    byKind,
  };
}
