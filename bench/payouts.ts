/**
 * Matching a payout report: a 20,000-line Benevity report against the matches of a database of
 * 1,000,000 (bench/generate.ts), through the preview call (in-process app.request: upload, parse,
 * candidate lookups, scoring) and, beside it, the matching alone (the service on parsed lines).
 *
 *   npx tsx bench/generate.ts --database bench_payouts
 *   npx tsx bench/payouts.ts --database bench_payouts [--lines 20000] [--runs 3]
 *
 * Of the lines, 80% copy a real unpaid match of Hope Harbor's family (donor, email, company,
 * estimated match, gift day), 10% drop the email and the day (some become ambiguous), 10% name
 * donors nobody has (unmatched). Nothing is written: the preview changes nothing.
 */
import { parseArgs } from 'node:util';
import { demoOrganizationNames } from '../server/db/seed.ts';
import { assess, parseReport } from '../server/modules/payouts/payouts.service.ts';
import { mib, ms, openBenchApp } from './shared.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'bench_payouts' },
    lines: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '3' },
  },
});
const lineCount = Number(values.lines);
const runs = Number(values.runs);
const { pool, db, app } = await openBenchApp(values.database);

const login = await app.request('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
});
if (login.status !== 200) throw new Error(`sign-in failed (${login.status}): run bench/generate.ts first`);
const token = ((await login.json()) as { access_token: string }).access_token;
const orgId = (
  await pool.query<{ id: number }>('select id from organizations where name = $1', [
    demoOrganizationNames.hopeHarbor,
  ])
).rows[0]?.id;
if (!orgId) throw new Error('Hope Harbor is missing: run bench/generate.ts first');
const total = (await pool.query<{ n: string }>('select count(*) as n from donations')).rows[0]?.n;

const sample = await pool.query<{
  name: string | null;
  email: string | null;
  company: string | null;
  matched_cents: number;
  amount_cents: number;
  day: string;
  transaction_id: string | null;
}>(
  `select dn.name, dn.email, coalesce(c.name, d.company_name) as company, d.matched_cents, d.amount_cents,
          to_char(d.donated_at at time zone 'UTC', 'YYYY-MM-DD') as day, d.transaction_id
     from donations d
     join organizations o on o.id = d.organization_id
     left join donors dn on dn.id = d.donor_id
     left join companies c on c.id = d.company_id
    where (o.id = $1 or o.parent_id = $1) and d.paid_cents is null and dn.id is not null
    order by d.id
    limit $2`,
  [orgId, Math.ceil(lineCount * 0.9)],
);
const money = (cents: number) => (cents / 100).toFixed(2);
const csvCell = (text: string | null) => `"${(text ?? '').replaceAll('"', '""')}"`;
const rows: string[] = [
  'Company,Donation Date,Donor First Name,Donor Last Name,Email,Transaction ID,Total Donation to be Acknowledged,Match Amount',
];
for (let i = 0; i < lineCount; i++) {
  const real = sample.rows[i % Math.max(1, sample.rows.length)];
  const kind = i % 10;
  if (!real || kind === 9) {
    rows.push(
      [
        csvCell('Nobody Corp'),
        '2025-03-01',
        csvCell('Unknown'),
        csvCell(`Person ${i}`),
        csvCell(`nobody${i}@example.org`),
        '',
        '25.00',
        '25.00',
      ].join(','),
    );
    continue;
  }
  const [first, ...rest] = (real.name ?? 'Anonymous Donor').split(' ');
  rows.push(
    [
      csvCell(real.company),
      kind === 8 ? '' : real.day,
      csvCell(first ?? ''),
      csvCell(rest.join(' ')),
      csvCell(kind === 8 ? '' : real.email),
      csvCell(real.transaction_id),
      money(real.amount_cents),
      money(real.matched_cents || real.amount_cents),
    ].join(','),
  );
}
const csv = `${rows.join('\n')}\n`;
const file = () => new File([csv], 'benevity-bench.csv', { type: 'text/csv' });

console.log(
  `Database ${values.database}: ${Number(total).toLocaleString('en-US')} matches. Report: ${lineCount.toLocaleString('en-US')} lines (${mib(csv.length)}), ${sample.rows.length.toLocaleString('en-US')} of them copied from real matches.\n`,
);

for (let run = 1; run <= runs; run++) {
  let started = performance.now();
  const report = await parseReport(file(), undefined, '2026-01-15');
  const parsed = performance.now() - started;
  started = performance.now();
  const assessed = await assess(db, orgId, report);
  const matched = performance.now() - started;
  const counts: Record<string, number> = {};
  for (const a of assessed) counts[a.outcome] = (counts[a.outcome] ?? 0) + 1;

  const form = new FormData();
  form.set('report', file());
  form.set('paid_at', '2026-01-15');
  started = performance.now();
  const response = await app.request(`/api/organization/${orgId}/payouts/preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await response.arrayBuffer();
  const preview = performance.now() - started;
  if (response.status !== 200) throw new Error(`preview answered ${response.status}`);
  console.log(
    `run ${run}: parse ${ms(parsed)}, match ${ms(matched)} (${JSON.stringify(counts)}); whole preview call ${ms(preview)}`,
  );
}
await pool.end();
