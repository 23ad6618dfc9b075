import { parseArgs } from 'node:util';
import { demoOrganizationNames } from '../server/db/seed.ts';
import { statusGroupIds, statusGroups } from '../src/contract/statuses.ts';
import { type CapturedStatement, mib, ms, openBenchApp, percentile } from './shared.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    database: { type: 'string', default: 'twofold_bench' },
    /** Leave out the report download (minutes at a million matches) to time only the dashboard's calls. */
    'no-download': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const { pool, app, capture } = await openBenchApp(values.database);

const login = await app.request('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
});
if (login.status !== 200) throw new Error(`sign-in failed (${login.status}): run bench/generate.ts first`);
const token = ((await login.json()) as { access_token: string }).access_token;
const headers = { authorization: `Bearer ${token}` };

const orgId = (
  await pool.query<{ id: number }>('select id from organizations where name = $1', [
    demoOrganizationNames.hopeHarbor,
  ])
).rows[0]?.id;
if (!orgId) throw new Error('Hope Harbor is missing: run bench/generate.ts first');
const sizes = await pool.query<{ total: string; family: string }>(
  `select (select count(*) from donations) as total,
          (select count(*) from donations d join organizations o on o.id = d.organization_id
            where o.id = $1 or o.parent_id = $1) as family`,
  [orgId],
);
console.log(
  `Database ${values.database}: ${Number(sizes.rows[0]?.total).toLocaleString('en-US')} matches; Hope Harbor and its chapters hold ${Number(sizes.rows[0]?.family).toLocaleString('en-US')}.`,
);
console.log(
  `Each figure: ${runs} runs after 3 warm-ups, one at a time, in-process app.request (no socket).\n`,
);

const day = (d: Date) => d.toISOString().slice(0, 10);
const today = new Date();
const daysAgo = (n: number) => day(new Date(today.getTime() - n * 86_400_000));
const ranges: Array<[string, string, string]> = [
  ['year to date', `${today.getUTCFullYear()}-01-01`, day(today)],
  ['last 90 days', daysAgo(90), day(today)],
  ['last 7 days', daysAgo(7), day(today)],
  ['all time (2000 to today)', '2000-01-01', day(today)],
];

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

console.log('Matching Overview: GET /api/organization/{id}/statistics (Hope Harbor with its chapters)');
console.log(
  '"before sql" reads every day row of the range; the app reads whole months from the monthly totals, the edges by day',
);
console.log('range                         api p50    api p95    sql p50    ratio  before sql p50');
const familyIds = (
  await pool.query<{ id: number }>('select id from organizations where id = $1 or parent_id = $1', [orgId])
).rows.map((r) => r.id);
/** The statistics as they were read before the monthly totals: every day row of the range. */
const dayStatistics = (from: string, to: string): CapturedStatement => ({
  query: `select organization_id, ${statusGroupIds
    .map((g) => {
      const inGroup = `status_id in (${statusGroups[g].statuses.join(', ')})`;
      return `coalesce(sum(count) filter (where ${inGroup}), 0)::bigint, coalesce(sum(amount_cents) filter (where ${inGroup}), 0)::bigint, coalesce(sum(matched_cents) filter (where ${inGroup}), 0)::bigint`;
    })
    .join(', ')}
            from donation_day_stats where organization_id = any($1) and day >= $2 and day <= $3 group by organization_id`,
  params: [familyIds, from, to],
});
for (const [label, from, to] of ranges) {
  const url = `/api/organization/${orgId}/statistics?from=${from}&to=${to}&report=by_status`;
  capture.statements.length = 0;
  capture.on = true;
  const check = await app.request(url, { headers });
  capture.on = false;
  if (check.status !== 200) throw new Error(`${label}: ${check.status} ${await check.text()}`);
  const statements = [...capture.statements];
  const api = await time(async () => (await app.request(url, { headers })).text());
  const direct = await time(() => Promise.all(statements.map((s) => pool.query(s.query, s.params))));
  const old = dayStatistics(from, to);
  const before = await time(() => pool.query(old.query, old.params));
  const p50 = percentile(api, 50);
  console.log(
    `${label.padEnd(28)} ${ms(p50).padStart(9)} ${ms(percentile(api, 95)).padStart(10)} ${ms(percentile(direct, 50)).padStart(10)} ${(p50 / percentile(direct, 50)).toFixed(2).padStart(8)} ${ms(percentile(before, 50)).padStart(14)}`,
  );
}

console.log(
  '\nBelow the tiles: GET /api/organization/{id}/statistics/insights (trend, forecast, ageing, top companies)',
);
console.log(
  'before: the top companies scanned from the matches, the trend and ageing from every day row, the forecast from every awaiting match (its history row by row) without its partial index',
);
console.log(
  'after:  as the app sends them (whole months from the monthly totals and the pre-added awaiting days, the edges by day or by match, the index in place)',
);
console.log('"sql" replays the statements one after another on one connection; "api" is the whole call.');
console.log('range                        before sql p50  after sql p50   api p50    api p95');
const orgIds = (
  await pool.query<{ id: number }>('select id from organizations where id = $1 or parent_id = $1', [orgId])
).rows.map((r) => r.id);
/** The top companies as they were read before the monthly totals: every match of the range. */
const scanCompanies = (from: string, to: string): CapturedStatement => ({
  query: `select coalesce(c.name, nullif(trim(d.company_name), '')) as name, sum(d.matched_cents) as requested,
                 sum(d.matched_cents) filter (where d.status_id in (1, 4, 28)) as submitted, count(*)::int as count
            from donations d left join companies c on c.id = d.company_id
           where d.organization_id = any($1) and d.donated_at >= $2::date and d.donated_at < $3::date + 1
             and coalesce(c.name, nullif(trim(d.company_name), '')) is not null
           group by 1 order by 2 desc, 1 limit 10`,
  params: [orgIds, from, to],
});
/** The forecast as it was read before donation_awaiting_payment_stats: every awaiting match of the range. */
const scanForecast = (from: string, to: string): CapturedStatement => ({
  query: `with awaiting as (
            select id, company_id, matched_cents, updated_at from donations
             where organization_id = any($1) and donated_at >= $2::date and donated_at < $3::date + 1 and status_id in (4, 28)
          ), sent as (
            select h.donation_id, max(h.at) as at from donation_status_history h join awaiting a on a.id = h.donation_id
             where h.to_status_id in (4, 28) group by h.donation_id
          ), delays as (
            select past.company_id,
                   percentile_cont(0.5) within group (order by extract(epoch from done.at - submitted.at) / 86400) as days
              from donations past
              join donation_status_history submitted on submitted.donation_id = past.id and submitted.to_status_id = 4
              join donation_status_history done on done.donation_id = past.id and done.to_status_id = 1 and done.at >= submitted.at
             where past.company_id in (select distinct company_id from awaiting where company_id is not null)
             group by past.company_id having count(*) >= 3
          )
          select to_char(greatest(coalesce(sent.at, a.updated_at) + coalesce(delays.days, 60) * interval '1 day', now()) at time zone 'UTC', 'YYYY-MM') as month,
                 sum(a.matched_cents) as expected, count(*) as count
            from awaiting a left join sent on sent.donation_id = a.id left join delays on delays.company_id = a.company_id
           group by 1 order by 1`,
  params: [orgIds, from, to],
});
/** The trend and the ageing as they were read before the monthly totals: every day row of the range. */
const dayTrend = (from: string, to: string): CapturedStatement => ({
  query: `select to_char(day, 'YYYY-MM') as month, coalesce(sum(matched_cents), 0)::bigint as requested,
                 coalesce(sum(matched_cents) filter (where status_id in (1, 4, 28)), 0)::bigint as submitted,
                 coalesce(sum(count), 0)::int as count
            from donation_day_stats where organization_id = any($1) and day >= $2 and day <= $3
           group by 1 having sum(count) > 0 order by 1`,
  params: [orgIds, from, to],
});
const dayAgeing = (from: string, to: string): CapturedStatement => ({
  query: `select case when $3::date - day <= 30 then '0-30' when $3::date - day <= 90 then '31-90' else '90+' end as bucket,
                 status_id, coalesce(sum(count), 0)::int as count, coalesce(sum(matched_cents), 0)::bigint as matched
            from donation_day_stats
           where organization_id = any($1) and day >= $2 and day <= $3 and status_id in (2, 6, 7, 8, 24, 3, 5, 25)
           group by 1, 2`,
  params: [orgIds, from, to],
});
const client = await pool.connect();
const replay = async (statements: CapturedStatement[]) => {
  for (const s of statements) await client.query(s.query, s.params);
};
for (const [label, from, to] of ranges) {
  const url = `/api/organization/${orgId}/statistics/insights?from=${from}&to=${to}`;
  capture.statements.length = 0;
  capture.on = true;
  const check = await app.request(url, { headers });
  capture.on = false;
  if (check.status !== 200) throw new Error(`${label}: ${check.status} ${await check.text()}`);
  const after = [...capture.statements];
  // The app's statements, known by what they select: the companies, the trend, the ageing.
  const before = after.flatMap((s) =>
    s.query.includes('where name is not null')
      ? [scanCompanies(from, to)]
      : s.query.includes('sent_day')
        ? [] // the forecast, replaced below by its scan of the awaiting matches
        : s.query.includes("to_char(month, 'YYYY-MM')") || s.query.includes('::text as bucket')
          ? [] // the trend and the ageing, replaced below by their reads of the day rows
          : [s],
  );
  if (before.length !== after.length - 3)
    throw new Error('the insights statements changed: update the bench');
  before.push(dayTrend(from, to), dayAgeing(from, to), scanForecast(from, to));
  await client.query('begin');
  await client.query('drop index donations_awaiting_payment_idx');
  const beforeSql = await time(() => replay(before));
  await client.query('rollback');
  const afterSql = await time(() => replay(after));
  const api = await time(async () => (await app.request(url, { headers })).text());
  console.log(
    `${label.padEnd(28)} ${ms(percentile(beforeSql, 50)).padStart(14)} ${ms(percentile(afterSql, 50)).padStart(13)} ${ms(percentile(api, 50)).padStart(9)} ${ms(percentile(api, 95)).padStart(10)}`,
  );
}
client.release();

if (values['no-download']) {
  await pool.end();
  process.exit(0);
}

console.log(
  '\nReport download: csv-token?report_id= then the streamed CSV (every match of the family, full_org)',
);
for (const [label, sort_field, ascending] of [
  ['sorted by id', 'donations.id', true],
  ['sorted by donor name, descending', 'users.name', false],
] as const) {
  const saved = await app.request(`/api/organization/${orgId}/reports`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Bench ${label}`,
      scope: 'full_org',
      columns: {
        'donations.id': 'ID',
        'donations.donated_at': 'Donated',
        'donations.amount': 'Amount',
        'users.name': 'Donor',
        'users.email': 'Email',
        'companies.name': 'Company',
        'statuses.name': 'Status',
        'organizations.name': 'Organization',
      },
      filters: { include_inert: true },
      sort_field,
      ascending,
    }),
  });
  const reportId = ((await saved.json()) as { report: { id: number } }).report.id;
  const started = performance.now();
  const link = (await (
    await app.request(`/api/donation/${orgId}/csv-token?report_id=${reportId}`, { headers })
  ).json()) as {
    url: string;
  };
  const response = await app.request(link.url);
  const reader = response.body?.getReader();
  let bytes = 0;
  let rows = 0;
  let firstByte = 0;
  let peak = process.memoryUsage().rss;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (!firstByte) firstByte = performance.now() - started;
    bytes += chunk.value.byteLength;
    for (const b of chunk.value) if (b === 10) rows++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const total = performance.now() - started;
  console.log(
    `${label.padEnd(34)} ${(rows - 1).toLocaleString('en-US')} rows, ${mib(bytes)}, first byte ${ms(firstByte)}, total ${(total / 1000).toFixed(1)} s, peak RSS ${mib(peak)}`,
  );
  await pool.query('delete from reports where id = $1', [reportId]);
}
await pool.end();
