/**
 * Employer identification (issue #31), measured through the real server: the labelled evaluation
 * set (server/modules/employers/evaluation-set.ts, 1,220 generated gift records) imported as a
 * donation platform's CSV export into a demo organization on a fresh embedded database, Test then
 * Upload as the import dialog does, and the companies the created matches name scored against the
 * labels. Prints employers found of those findable (goal ≥ 95%), wrong employers named (goal ≤ 1%
 * of those named) and the time per 1,000 records.
 *
 *   npm run bench:employers                    (PGlite)
 *   TEST_DB=postgres npm run bench:employers   (a throwaway database on DATABASE_URL)
 *
 * It reads only what every build has (the import routes and donations.company_id), so the same
 * file measures a build without the identification service ("before").
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { companies, donations, organizations } from '../server/db/schema.ts';
import { afterCommitSettled } from '../server/jobs/after-commit.ts';
import { evaluationSet, scoreEvaluation } from '../server/modules/employers/evaluation-set.ts';
import { signIn } from '../server/test-helpers.ts';
import { createTestContext, testDb } from '../server/testing.ts';

const t = await createTestContext({ config: { logRequests: false } });
try {
  const [org] = await t.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.name, 'Maple Street PTA'));
  if (!org) throw new Error('the demo seed has no Maple Street PTA');
  await t.db
    .update(organizations)
    .set({ complete: true, rule_deactivated: false })
    .where(eq(organizations.id, org.id));
  const token = await signIn(t.app, 'admin@twofold.test');
  const set = evaluationSet();
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const lines = ['Donor Name,Donor Email,Gift Amount,Donation Date,Employer,Transaction ID'];
  for (const [i, r] of set.entries())
    lines.push(
      [quote(r.donorName), quote(r.donorEmail), '50.00', '2026-03-01', quote(r.employer), `ev-${i}`].join(
        ',',
      ),
    );
  const csv = `${lines.join('\r\n')}\r\n`;
  const map = JSON.stringify({
    donor_name: 'donor.name',
    donor_email: 'donor.email',
    gift_amount: 'amount',
    donation_date: 'donated_at',
    employer: 'company.name',
    transaction_id: 'transaction_id',
  });
  const call = async (kind: 'Test' | 'Upload') => {
    const form = new FormData();
    form.set('donations', new File([csv], 'evaluation.csv', { type: 'text/csv' }));
    form.set('map', map);
    form.set(kind === 'Test' ? 'emailForEmployer' : 'no_company', 'true');
    if (kind === 'Upload') form.set('type', 'Upload');
    const started = performance.now();
    const res = await t.app.request(`/api/organization/${org.id}/donation/import-file/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const elapsed = performance.now() - started;
    const body = (await res.json()) as {
      created?: number;
      ready?: number;
      errors?: unknown[];
      message?: string;
    };
    if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${JSON.stringify(body)}`);
    return { elapsed, body };
  };
  const test = await call('Test');
  const upload = await call('Upload');
  await afterCommitSettled(t.db);
  if (upload.body.created !== set.length)
    throw new Error(
      `Upload created ${upload.body.created} of ${set.length} (errors: ${JSON.stringify(upload.body.errors)})`,
    );
  const rows = await t.db
    .select({ tx: donations.transaction_id, company: companies.name })
    .from(donations)
    .innerJoin(companies, eq(companies.id, donations.company_id))
    .where(and(eq(donations.organization_id, org.id), isNotNull(donations.company_id)));
  const byTx = new Map(rows.map((r) => [r.tx, r.company]));
  const score = scoreEvaluation(
    set,
    set.map((_, i) => byTx.get(`ev-${i}`) ?? null),
  );
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log('kind                  records  right  wrong');
  for (const [kind, k] of Object.entries(score.byKind))
    console.log(
      `${kind.padEnd(20)}  ${String(k.records).padStart(7)}  ${String(k.right).padStart(5)}  ${String(k.wrong).padStart(5)}`,
    );
  const per1000 = (ms: number) => `${((ms * 1000) / set.length).toFixed(0)} ms`;
  console.log(
    `\nEmployers found of those findable: ${score.found} of ${score.findable} = ${pct(score.foundShare)} (goal ≥ 95%: ${score.foundShare >= 0.95 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `Wrong employers named: ${score.wrong} of ${score.named} named = ${pct(score.wrongShare)} (goal ≤ 1%: ${score.wrongShare <= 0.01 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `Time per 1,000 records (${testDb === 'postgres' ? 'PostgreSQL' : 'PGlite'}, app in-process): Test ${per1000(test.elapsed)}, Upload ${per1000(upload.elapsed)} (${set.length} records: Test ${test.elapsed.toFixed(0)} ms, Upload ${upload.elapsed.toFixed(0)} ms)`,
  );
} finally {
  await t.close();
}
