import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Host } from './network.ts';
import { hosts } from './network.ts';
import { type Proc, root } from './services.ts';
import { type Outcome, signIn, startTraffic } from './traffic.ts';

type Receiving = {
  received: string[];
  receivedAt: number[];
  busy: Map<string, number>;
  holds: { hold: (address: string) => void; release: () => void };
};

/** Whether every id received more than once was first received before `at` (in flight then). */
function firstBefore(r: Receiving, ids: string[], at: number): boolean {
  return ids.every((id) => {
    const first = r.received.indexOf(id);
    return first >= 0 && (r.receivedAt[first] ?? Infinity) <= at;
  });
}

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

async function waitForRows(q: Query, sql: string, what: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await q<{ n: number }>(sql);
    if ((row?.n ?? 0) === 0) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (${row?.n} left)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

export type ScenarioContext = {
  postgres: Proc;
  keep: boolean;
  lbUrl: string;
  databaseUrl: string;
  sink: Receiving;
  receiver: Receiving;
  receiverUrl: string;
  startApp: (host: Host) => Proc;
  appReady: (host: Host, p: Proc) => Promise<void>;
  /** Takes a host out of the load balancer (null: every host in). */
  drain: (host: Host | null) => Promise<void>;
};

let failures = 0;
let passes = 0;
function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (ok) passes++;
  else failures++;
}

/** The checks made so far: passed and failed. */
export const checkCounts = () => ({ passed: passes, failed: failures });

export async function runScenarios(ctx: ScenarioContext): Promise<number> {
  const db = new pg.Pool({ connectionString: ctx.databaseUrl, max: 4 });
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await db.query(sql, params)).rows as T[];

  console.log('\n1. Both app hosts start at once on an empty database');
  const app1 = ctx.startApp(hosts.app1);
  const app2 = ctx.startApp(hosts.app2);
  await Promise.all([ctx.appReady(hosts.app1, app1), ctx.appReady(hosts.app2, app2)]);
  const files = readdirSync(path.join(root, 'server/db/migrations')).filter((f) => f.endsWith('.sql')).length;
  const [applied] = await q<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
  check(applied?.n === files, `migrations applied once: ${applied?.n} rows for ${files} migration files`);
  const [orgs] = await q<{ n: number }>('select count(*)::int as n from organizations');
  const [usersCount] = await q<{ n: number }>(
    "select count(*)::int as n from users where email = 'admin@twofold.test'",
  );
  check(
    usersCount?.n === 1,
    `demo seeded once: ${orgs?.n} organizations, admin@twofold.test ${usersCount?.n} time(s)`,
  );
  const health = await fetch(`${ctx.lbUrl}/api/health/ready`);
  check(health.status === 200, `ready through nginx (${health.status})`);

  // Setup as an admin would: the organization ready for matching, a webhook to the receiver.
  await q(
    "update organizations set complete = true, rule_deactivated = false, type = 'non-profit' where id = 1",
  );
  const token = await signIn(ctx.lbUrl, 'admin@twofold.test');
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = (await (
    await fetch(`${ctx.lbUrl}/api/organization/1/webhook`, { method: 'POST', headers: auth, body: '{}' })
  ).json()) as { webhooks: { id: number }[] };
  const hook = created.webhooks.at(-1);
  const put = await fetch(`${ctx.lbUrl}/api/webhook/${hook?.id}`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ url: ctx.receiverUrl.replace(/^http:\/\//, ''), event: 'status' }),
  });
  check(put.status === 200, `webhook to the receiver set through nginx (${put.status})`);

  console.log(
    '\n2. Mixed traffic through nginx; one app host killed (SIGKILL) mid-import, mid-mail and mid-webhook burst',
  );
  const traffic = startTraffic(ctx.lbUrl, token, {
    readers: 4,
    importRows: 40,
    imports: true,
    verifies: true,
    runId: 'kill',
  });
  // The victim is app1, and the moment is made rather than waited for: the SMTP sink and the
  // webhook receiver stop answering app1 (its mail and webhook workers are then certainly
  // mid-send, each with a claimed row not yet recorded), and the kill comes the moment app1 also
  // has an import's transaction open. Only that last one is a matter of timing, and imports run
  // back to back through both hosts, so it comes within a second or so.
  const victimName = 'app1' as const;
  const victimAddress = hosts[victimName].address;
  let state = '';
  let caught = false;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  ctx.sink.holds.hold(victimAddress);
  ctx.receiver.holds.hold(victimAddress);
  const waitUntil = Date.now() + 60_000;
  while (!caught && Date.now() < waitUntil) {
    const [pending] = await q<{ mail: number; hooks: number }>(
      "select (select count(*)::int from outbox where status = 'pending') as mail, (select count(*)::int from webhook_deliveries where status = 'pending') as hooks",
    );
    const writers = await q<{ addr: string }>(
      // An import's transaction holds a row-exclusive lock on donors (it inserts the new donors)
      // until it commits; no other call of this traffic writes donors.
      "select distinct host(a.client_addr) as addr from pg_locks l join pg_stat_activity a on a.pid = l.pid where a.datname = current_database() and l.relation = 'donors'::regclass and l.mode = 'RowExclusiveLock' and a.client_addr is not null",
    );
    const importing = writers.some((w) => w.addr === victimAddress);
    const mailing = (ctx.sink.busy.get(victimAddress) ?? 0) > 0;
    const posting = (ctx.receiver.busy.get(victimAddress) ?? 0) > 0;
    state = `${victimName}: import transaction ${importing ? 'open' : 'not open'}, ${ctx.sink.busy.get(victimAddress) ?? 0} email(s) on the wire, ${ctx.receiver.busy.get(victimAddress) ?? 0} webhook(s) on the wire; mail pending ${pending?.mail}, webhook deliveries pending ${pending?.hooks}`;
    caught = importing && mailing && posting;
    if (!caught) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  check(caught, `caught ${victimName} mid-import, mid-email and mid-webhook (${state})`);
  const dead = app1;
  const survivor = app2;
  const killedAt = performance.now();
  dead.child.kill('SIGKILL');
  await dead.exited;
  // The held answers now go to dead connections; the sink and receiver keep what they took in.
  ctx.sink.holds.release();
  ctx.receiver.holds.release();
  console.log(`  killed ${victimName} (${state})`);
  // Traffic goes on through the survivor for a while, then stops.
  await new Promise((resolve) => setTimeout(resolve, 8000));
  await traffic.stop();
  const inFlight = (o: Outcome) => o.start <= killedAt && o.end >= killedAt;
  const notInFlight = traffic.outcomes.filter((o) => !inFlight(o));
  const failedOutside = notInFlight.filter((o) => o.status < 200 || o.status >= 300);
  const cut = traffic.outcomes.filter((o) => inFlight(o) && (o.status < 200 || o.status >= 300));
  check(
    failedOutside.length === 0,
    `${notInFlight.length} requests not in flight at the kill: ${failedOutside.length} failed` +
      (failedOutside.length
        ? ` (${failedOutside
            .slice(0, 5)
            .map((o) => `${o.kind} ${o.status} ${o.detail ?? ''}`)
            .join('; ')})`
        : ''),
  );
  console.log(
    `  ${traffic.outcomes.length - notInFlight.length} requests in flight at the kill, ${cut.length} of them cut (${cut.map((o) => `${o.kind} ${o.status}`).join(', ') || 'none'})`,
  );

  // Imports: all rows of an import or none (one transaction); every import answered 200 has them all.
  let partial = 0;
  let answeredWithout = 0;
  for (const imp of traffic.imports) {
    const [row] = await q<{ n: number }>(
      'select count(*)::int as n from donations d join donors o on o.id = d.donor_id where o.email like $1',
      [`${imp.tag}-%`],
    );
    const n = row?.n ?? 0;
    if (n !== 0 && n !== imp.rows) partial++;
    if (imp.status === 200 && n !== imp.rows) answeredWithout++;
  }
  const killedImports = traffic.imports.filter((i) => i.start <= killedAt && i.end >= killedAt);
  check(killedImports.length > 0, `an import was in flight at the kill (${killedImports.length})`);
  check(
    partial === 0 && answeredWithout === 0,
    `${traffic.imports.length} imports of 40 rows (${killedImports.length} in flight at the kill, answered ${killedImports.map((i) => i.status).join(', ') || '-'}): ${partial} half-written, ${answeredWithout} answered 200 without their rows`,
  );

  // The survivor sends what the dead host had claimed once its lease runs out.
  const drainStart = performance.now();
  await waitForRows(
    q,
    "select count(*)::int as n from outbox where status <> 'sent'",
    'the outbox to drain',
    420_000,
  );
  await waitForRows(
    q,
    "select count(*)::int as n from webhook_deliveries where status = 'pending'",
    'webhook deliveries to finish',
    240_000,
  );
  const drained = (performance.now() - drainStart) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const mail = await q<{ message_id: string; attempts: number }>(
    "select '<outbox-' || id || '-' || floor(extract(epoch from created_at) * 1000)::bigint || '@twofold.test>' as message_id, attempts from outbox",
  );
  const smtp = countBy(ctx.sink.received);
  const lostMail = mail.filter((m) => !smtp.has(m.message_id));
  const twiceMail = mail.filter((m) => (smtp.get(m.message_id) ?? 0) > 1);
  const retaken = mail.filter((m) => m.attempts >= 2).length;
  check(
    lostMail.length === 0,
    `emails: ${mail.length} queued, ${smtp.size} distinct delivered to the SMTP sink, ${lostMail.length} lost (drained in ${drained.toFixed(1)} s)`,
  );
  check(retaken > 0, `emails the dead host had claimed, sent by the survivor after the lease: ${retaken}`);
  check(
    twiceMail.every((m) => m.attempts >= 2) &&
      firstBefore(
        ctx.sink,
        twiceMail.map((m) => m.message_id),
        killedAt,
      ),
    `emails delivered twice: ${twiceMail.length}, each one the dead host was sending at the kill (accepted by the SMTP server, not yet recorded), sent again with the same Message-ID`,
  );
  const deliveries = await q<{ message_id: string; status: string; attempts: number }>(
    'select message_id, status, attempts from webhook_deliveries',
  );
  const hooks = countBy(ctx.receiver.received);
  const lostHooks = deliveries.filter((d) => d.status === 'delivered' && !hooks.has(d.message_id));
  const undelivered = deliveries.filter((d) => d.status !== 'delivered');
  const twiceHooks = deliveries.filter((d) => (hooks.get(d.message_id) ?? 0) > 1);
  const retakenHooks = deliveries.filter((d) => d.attempts >= 2).length;
  check(
    lostHooks.length === 0 && undelivered.length === 0,
    `webhooks: ${deliveries.length} deliveries, ${hooks.size} distinct received, ${undelivered.length} not delivered, ${lostHooks.length} lost`,
  );
  check(
    retakenHooks > 0,
    `webhook deliveries the dead host had claimed, delivered by the survivor after the lease: ${retakenHooks}`,
  );
  check(
    twiceHooks.every((d) => d.attempts >= 2) &&
      firstBefore(
        ctx.receiver,
        twiceHooks.map((d) => d.message_id),
        killedAt,
      ),
    `webhooks received twice: ${twiceHooks.length}, each one the dead host was posting at the kill (received, answer not yet recorded), posted again with the same webhook-id, by which receivers dedupe`,
  );

  console.log(`\n3. The killed host comes back`);
  const back = ctx.startApp(hosts[victimName]);
  await ctx.appReady(hosts[victimName], back);
  check(true, `${victimName} ready again`);

  console.log('\n4. A rolling restart (SIGTERM, graceful) through both hosts under traffic');
  const rolling = startTraffic(ctx.lbUrl, token, {
    readers: 4,
    importRows: 50,
    imports: true,
    verifies: true,
    runId: 'roll',
  });
  const current: Record<'app1' | 'app2', Proc> = { app1: back, app2: survivor };
  for (const name of ['app1', 'app2'] as const) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const p = current[name];
    // As docs/deploy.md says: out of the load balancer, then SIGTERM (in-flight requests finish),
    // start, ready, back in.
    await ctx.drain(hosts[name]);
    p.child.kill('SIGTERM');
    const code = await p.exited;
    const next = ctx.startApp(hosts[name]);
    await ctx.appReady(hosts[name], next);
    await ctx.drain(null);
    current[name] = next;
    console.log(`  ${name}: out of nginx, stopped gracefully (exit ${code}), started, ready, back in`);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await rolling.stop();
  const failedRolling = rolling.outcomes.filter((o) => o.status < 200 || o.status >= 300);
  check(
    failedRolling.length === 0,
    `${rolling.outcomes.length} requests (${rolling.imports.length} imports) during the rolling restart: ${failedRolling.length} failed` +
      (failedRolling.length
        ? ` (${failedRolling
            .slice(0, 5)
            .map((o) => `${o.kind} ${o.status} ${o.detail ?? ''}`)
            .join('; ')})`
        : ''),
  );

  if (failures > 0) {
    for (const p of [ctx.postgres, app1, app2, back, ...Object.values(current)]) {
      const errors = p.output
        .join('')
        .split('\n')
        .filter(
          (l) => /error|exception|\b500\b|deadlock|DETAIL|Process \d+/i.test(l) && !/AWS|node >=22/.test(l),
        );
      if (errors.length) console.log(`--- ${p.name}: error lines\n${errors.slice(-20).join('\n')}`);
    }
  }

  if (ctx.keep) {
    console.log(`\nCluster kept: ${ctx.lbUrl} (Ctrl-C to take it down)`);
    await new Promise(() => {});
  }
  await db.end();
  return failures;
}
