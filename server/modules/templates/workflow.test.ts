import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationLabel } from '../../../src/contract/donations.ts';
import { dayMs, manualClock } from '../../clock.ts';
import {
  companies,
  donationStatusHistory,
  donations,
  notifees,
  organizations,
  outbox,
  scheduledJobs,
} from '../../db/schema.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { scheduleDigests } from './digest.ts';
import { reminderSchedule } from './links.ts';
import { workflowBatchHandlers, workflowHandlers } from './workflow.ts';

let t: TestContext;
const clock = manualClock(new Date('2026-03-02T09:00:00Z'));
let writer = '';
let hope = 0;
const company: Record<string, number> = {};

const scheduler = () =>
  createScheduler({
    db: t.db,
    clock,
    logger: t.logger,
    handlers: workflowHandlers(t.config),
    batchHandlers: workflowBatchHandlers(t.config),
    beforeRound: scheduleDigests,
  });

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false }, clock });
  hope = (await demoOrganizationIds(t.db)).hopeHarbor;
  await readyForMatching(t.db, [hope]);
  const made = await t.db
    .insert(companies)
    .values([
      { name: 'Workflow Portal Co', match_method: 'csr' },
      // The gift (2026-02-20) must be matched within 30 days: by 2026-03-22.
      {
        name: 'Workflow Deadline Co',
        match_method: 'csr',
        deadline_rule: 'days-after-gift',
        deadline_days: 30,
      },
    ])
    .returning();
  for (const c of made) company[c.name] = c.id;
  writer = await signIn(t.app, 'writer@twofold.test');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(outbox);
  await t.db.delete(scheduledJobs);
});

let serial = 0;
async function createMatch(companyName = 'Workflow Portal Co') {
  serial += 1;
  const res = await call(t.app, 'POST', `/api/organization/${hope}/donation`, {
    token: writer,
    body: {
      id: 0,
      donated_at: '2026-02-20 12:00:00',
      amount: 100,
      donor: { name: 'Sam Steady', email: `sam${serial}@example.org` },
      company_id: company[companyName],
    },
  });
  expect(res.status).toBe(201);
  return res.json.donation as { id: number; status_id: number; donor: { email: string } };
}
const subjects = async (to: string) =>
  (await t.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.id))).map((m) => m.subject);
const statusOf = async (id: number) =>
  (await t.db.select({ s: donations.status_id }).from(donations).where(eq(donations.id, id)))[0]?.s;
const days = (n: number) => n * dayMs;

describe('reminders over weeks (one clock)', () => {
  it('sends the 1st and 2nd reminder at their intervals, then the match becomes Donor No Response', async () => {
    const d = await createMatch();
    expect(await subjects(d.donor.email)).toEqual(['Double your gift to Hope Harbor Foundation']);
    const s = scheduler();
    clock.advance(days(reminderSchedule.firstReminderDays) - 60_000);
    await s.runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1); // not yet
    clock.advance(60_000);
    await s.runDue();
    expect((await subjects(d.donor.email))[1]).toBe('Reminder: Workflow Portal Co can match your gift');
    clock.advance(days(reminderSchedule.secondReminderDays));
    await s.runDue();
    expect((await subjects(d.donor.email))[2]).toBe(
      'Last chance to double your gift to Hope Harbor Foundation',
    );
    expect(await statusOf(d.id)).toBe(7);
    // The match dialog's Email Communications tab lists the reminders with the initial email.
    const got = await call(t.app, 'GET', `/api/donation/${d.id}`, { token: writer });
    expect(got.json.donation.notifications.map((n: { subject: string }) => n.subject)).toEqual([
      'Last chance to double your gift to Hope Harbor Foundation',
      'Reminder: Workflow Portal Co can match your gift',
      'Double your gift to Hope Harbor Foundation',
    ]);
    // ... each named for what it is, as the tab labels them.
    expect(
      got.json.donation.notifications.map((n: { kind?: string; stage?: number }) => notificationLabel(n)),
    ).toEqual(['2nd reminder', '1st reminder', 'Initial email']);
    clock.advance(days(reminderSchedule.noResponseDays));
    await s.runDue();
    expect(await statusOf(d.id)).toBe(20);
    const [last] = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, d.id))
      .orderBy(desc(donationStatusHistory.id));
    expect(last).toMatchObject({ from_status_id: 7, to_status_id: 20, source: 'system' });
    // Running again later sends nothing more.
    clock.advance(days(30));
    await s.runDue();
    expect(await subjects(d.donor.email)).toHaveLength(3);
  });

  it('stops when the donor confirms: no reminder, no No Response', async () => {
    const d = await createMatch();
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.to, d.donor.email));
    const confirm = mail?.text.match(/(\/api\/email\/confirm\?t=\S+)/)?.[1] ?? '';
    await t.app.request(confirm, { method: 'POST' });
    expect(await statusOf(d.id)).toBe(28);
    clock.advance(days(40));
    await scheduler().runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1);
    expect(await statusOf(d.id)).toBe(28);
  });

  it('stops when staff move the match on', async () => {
    const d = await createMatch();
    await t.db.update(donations).set({ status_id: 4 }).where(eq(donations.id, d.id));
    clock.advance(days(40));
    await scheduler().runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1);
    expect(await statusOf(d.id)).toBe(4);
  });

  it('a reminder is sent once however many schedulers run, and a new process picks up what is due', async () => {
    const d = await createMatch();
    clock.advance(days(reminderSchedule.firstReminderDays));
    const ran = await Promise.all([scheduler().runDue(), scheduler().runDue(), scheduler().runDue()]);
    expect(ran.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await subjects(d.donor.email)).toHaveLength(2);
    // A "restart": a fresh scheduler finds the 2nd reminder's job in the database.
    clock.advance(days(reminderSchedule.secondReminderDays));
    await scheduler().runDue();
    expect(await subjects(d.donor.email)).toHaveLength(3);
  });

  it('scheduling is idempotent: the same job key is stored once', async () => {
    const d = await createMatch();
    const jobs = await t.db.select().from(scheduledJobs).where(eq(scheduledJobs.donation_id, d.id));
    expect(jobs.filter((j) => j.kind === 'reminder')).toHaveLength(1);
    const [job] = jobs;
    if (!job) throw new Error('no job');
    await t.db
      .insert(scheduledJobs)
      .values({ ...job, id: undefined })
      .onConflictDoNothing();
    expect(await t.db.select().from(scheduledJobs).where(eq(scheduledJobs.donation_id, d.id))).toHaveLength(
      jobs.length,
    );
  });
});

describe('deadline emails', () => {
  it("walking day by day: Match Deadline Approaching within 3 weeks of the deadline, 'Match About to Expire' a week before", async () => {
    clock.set(new Date('2026-02-21T09:00:00Z'));
    // Gift 2026-02-20, matched within 25 days: deadline 2026-03-17.
    await t.db
      .update(companies)
      .set({ deadline_days: 25 })
      .where(eq(companies.id, company['Workflow Deadline Co'] ?? 0));
    const d = await createMatch('Workflow Deadline Co');
    const jobs = await t.db
      .select()
      .from(scheduledJobs)
      .where(eq(scheduledJobs.donation_id, d.id))
      .orderBy(asc(scheduledJobs.run_at));
    expect(jobs.map((j) => [j.kind, j.run_at.toISOString().slice(0, 10)])).toEqual(
      expect.arrayContaining([
        ['deadline', '2026-02-24'],
        ['expire', '2026-03-10'],
      ]),
    );
    const s = scheduler();
    const sentOn: Array<[string, string]> = [['2026-02-21', 'Double your gift to Hope Harbor Foundation']];
    for (let day = 1; day <= 30; day += 1) {
      clock.advance(dayMs);
      await s.runDue();
      const all = await t.db
        .select()
        .from(outbox)
        .where(eq(outbox.to, d.donor.email))
        .orderBy(asc(outbox.id));
      for (const m of all.slice(sentOn.length))
        sentOn.push([clock.now().toISOString().slice(0, 10), m.subject]);
    }
    expect(sentOn).toEqual([
      ['2026-02-21', 'Double your gift to Hope Harbor Foundation'],
      ['2026-02-25', 'The deadline to match your gift to Hope Harbor Foundation is approaching'],
      ['2026-02-28', 'Reminder: Workflow Deadline Co can match your gift'],
      ['2026-03-07', 'Last chance to double your gift to Hope Harbor Foundation'],
      ['2026-03-11', 'Match About to Expire: your gift to Hope Harbor Foundation'],
    ]);
    // A week after the 2nd reminder, still no answer: Donor No Response.
    expect(await statusOf(d.id)).toBe(20);
  });

  it('no deadline email once the donor has answered', async () => {
    clock.set(new Date('2026-02-21T09:00:00Z'));
    const d = await createMatch('Workflow Deadline Co');
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.to, d.donor.email));
    await t.app.request(mail?.text.match(/(\/api\/email\/decline\?t=\S+)/)?.[1] ?? '', { method: 'POST' });
    expect(await statusOf(d.id)).toBe(21);
    clock.set(new Date('2026-03-16T09:00:00Z'));
    await scheduler().runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1);
  });
});

describe('notification emails to the organization', () => {
  it('tell the notification emails and the primary contact what needs action, at most weekly', async () => {
    clock.set(new Date('2026-05-04T09:00:00Z'));
    await t.db.delete(notifees).where(eq(notifees.org_id, hope));
    await t.db.insert(notifees).values({ org_id: hope, email: 'ops@hope.example' });
    await t.db
      .update(organizations)
      .set({ notify_contact: { name: 'Pat Primary', email: 'Pat@Hope.example' } })
      .where(eq(organizations.id, hope));
    const verify = {
      organization_id: hope,
      amount_cents: 5000,
      donated_at: new Date('2026-04-01'),
      status_id: 3,
    };
    await t.db.insert(donations).values([verify, verify, { ...verify, status_id: 23 }]);
    const s = scheduler();
    await s.runDue();
    const digests = () =>
      t.db
        .select()
        .from(outbox)
        .where(eq(outbox.subject, 'Hope Harbor Foundation: matches waiting for your action'));
    const first = await digests();
    expect(first.map((m) => m.to).sort()).toEqual(['ops@hope.example', 'pat@hope.example']);
    expect(first[0]?.text).toContain('2 matches to verify or sign (NPO to Verify/Sign)');
    expect(first[0]?.text).toContain('1 match held for a missing company (Missing Company Hold)');
    // Matches to verify or sign: the digest opens the verification queue.
    expect(first[0]?.text).toContain('http://portal.test/portal/verification');
    expect(first[0]?.text).toContain('Open the verification queue');
    for (let day = 1; day < 7; day += 1) {
      clock.advance(dayMs);
      await s.runDue();
    }
    expect(await digests()).toHaveLength(2); // nothing more within the week
    clock.advance(dayMs);
    await s.runDue();
    expect(await digests()).toHaveLength(4);
  });
});
