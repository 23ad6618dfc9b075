import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MatchSchedule, ScheduledEmailsResponse } from '../../../src/contract/email-schedule.ts';
import { dayMs, manualClock } from '../../clock.ts';
import {
  companies,
  donations,
  emailScheduleActions,
  notifees,
  outbox,
  permissions,
  scheduledJobs,
  users,
} from '../../db/schema.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { scheduleDigests } from '../templates/digest.ts';
import { reminderSchedule } from '../templates/links.ts';
import { workflowBatchHandlers, workflowHandlers } from '../templates/workflow.ts';

let t: TestContext;
const start = new Date('2026-03-02T09:00:00Z');
const clock = manualClock(start);
const tokens = { writer: '', reader: '', outsider: '' };
let hope = 0;
let portalCo = 0;
let deadlineCo = 0;

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
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  await readyForMatching(t.db, [hope]);
  const made = await t.db
    .insert(companies)
    .values([
      { name: 'Schedule Portal Co', match_method: 'csr' },
      // A gift of 2026-02-20 to be matched within 60 days: by 2026-04-21.
      {
        name: 'Schedule Deadline Co',
        match_method: 'csr',
        deadline_rule: 'days-after-gift',
        deadline_days: 60,
      },
    ])
    .returning();
  portalCo = made[0]?.id ?? 0;
  deadlineCo = made[1]?.id ?? 0;
  tokens.writer = await signIn(t.app, 'writer@twofold.test');
  tokens.reader = await signIn(t.app, 'reader@twofold.test');
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'schedule-outsider@example.org',
      name: 'Outsider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db
    .insert(permissions)
    .values({ org_id: demo.mapleStreet, user_id: outsider?.id ?? 0, level: 'admin' });
  tokens.outsider = await signIn(t.app, 'schedule-outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());
beforeEach(async () => {
  clock.set(start);
  await t.db.delete(donations);
  await t.db.delete(outbox);
  await t.db.delete(scheduledJobs);
});

let serial = 0;
async function createMatch(companyId = portalCo) {
  serial += 1;
  const res = await call(t.app, 'POST', `/api/organization/${hope}/donation`, {
    token: tokens.writer,
    body: {
      id: 0,
      donated_at: '2026-02-20 12:00:00',
      amount: 100,
      donor: { name: 'Robin Schedule', email: `robin${serial}@example.org` },
      company_id: companyId,
    },
  });
  expect(res.status).toBe(201);
  return res.json.donation as { id: number; donor: { email: string } };
}

const subjects = async (to: string) =>
  (await t.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.id))).map((m) => m.subject);

async function scheduleOf(id: number, token = tokens.writer): Promise<MatchSchedule> {
  const res = await call(t.app, 'GET', `/api/donation/${id}/email-schedule`, { token });
  expect(res.status).toBe(200);
  return res.json as MatchSchedule;
}
const act = (id: number, jobId: number, action: 'send' | 'skip', token = tokens.writer) =>
  call(t.app, 'POST', `/api/donation/${id}/email-schedule/${jobId}/${action}`, { token });

describe("a match's email schedule", () => {
  it('lists the 1st reminder and the deadline emails with dates and versions, and the scheduler sends exactly that', async () => {
    const d = await createMatch(deadlineCo);
    const before = await scheduleOf(d.id);
    expect(before.sent.map((s) => [s.label, s.template?.name, s.template?.version])).toEqual([
      ['Initial email', 'CSR vendor portal', 'Default'],
    ]);
    expect(
      before.scheduled.map((s) => [s.label, s.due_at.slice(0, 10), s.template?.type, s.actionable]),
    ).toEqual([
      ['1st reminder', '2026-03-09', 7, true],
      // 21 days before 2026-04-21 (23:59 UTC) and 7 days before it.
      ['Deadline approaching', '2026-03-31', 102, true],
      ['About to expire', '2026-04-14', 102, true],
    ]);
    const first = before.scheduled[0];
    if (!first) throw new Error('no 1st reminder');

    // A minute before the listed time nothing goes; at it, the reminder does.
    const s = scheduler();
    clock.set(new Date(Date.parse(first.due_at) - 60_000));
    await s.runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1);
    clock.set(new Date(first.due_at));
    await s.runDue();
    expect((await subjects(d.donor.email))[1]).toBe('Reminder: Schedule Deadline Co can match your gift');

    const after = await scheduleOf(d.id);
    expect(after.sent.map((x) => x.label)).toEqual(['Initial email', '1st reminder']);
    expect(after.sent[1]?.template?.version).toBe('Default');
    expect(after.scheduled.map((x) => [x.label, x.due_at.slice(0, 10)])).toEqual([
      ['2nd reminder', '2026-03-16'],
      ['Deadline approaching', '2026-03-31'],
      ['About to expire', '2026-04-14'],
    ]);
  });

  it('sends the next email now through the scheduler’s path, once however often it is clicked, with its history', async () => {
    const d = await createMatch();
    clock.advance(2 * dayMs);
    const [first] = (await scheduleOf(d.id)).scheduled;
    if (!first) throw new Error('no 1st reminder');
    const [a, b] = await Promise.all([act(d.id, first.id, 'send'), act(d.id, first.id, 'send')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await subjects(d.donor.email)).toEqual([
      'Double your gift to Hope Harbor Foundation',
      'Reminder: Schedule Portal Co can match your gift',
    ]);
    const again = await act(d.id, first.id, 'send');
    expect(again.status).toBe(200);
    expect(await subjects(d.donor.email)).toHaveLength(2);
    const after = again.json as MatchSchedule;
    expect(after.sent.map((s) => s.label)).toEqual(['Initial email', '1st reminder']);
    // The 2nd reminder is planned from the reminder that went, as the scheduler would.
    expect(after.scheduled.map((s) => [s.label, s.due_at])).toEqual([
      [
        '2nd reminder',
        new Date(clock.now().getTime() + reminderSchedule.secondReminderDays * dayMs).toISOString(),
      ],
    ]);
    expect(after.history).toEqual([
      expect.objectContaining({
        action: 'send_now',
        label: '1st reminder',
        at: clock.now().toISOString(),
        user: 'Wren Castillo',
      }),
    ]);
    // The scheduler does not send it a second time on its original day (initial + 7 days).
    clock.advance(5 * dayMs);
    await scheduler().runDue();
    expect(await subjects(d.donor.email)).toHaveLength(2);
  });

  it('refuses to send a follow-up within a day of the last email (the scheduler’s spacing), changing nothing', async () => {
    const d = await createMatch();
    const [first] = (await scheduleOf(d.id)).scheduled;
    const res = await act(d.id, first?.id ?? 0, 'send');
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/less than a day ago/);
    expect(await subjects(d.donor.email)).toHaveLength(1);
    expect((await scheduleOf(d.id)).scheduled[0]).toEqual(first);
    expect(await t.db.select().from(emailScheduleActions)).toEqual([]);
  });

  it('refuses to send what the scheduler would not: the donor already answered', async () => {
    const d = await createMatch();
    clock.advance(2 * dayMs);
    await t.db.update(donations).set({ status_id: 28 }).where(eq(donations.id, d.id));
    const [first] = (await scheduleOf(d.id)).scheduled;
    const res = await act(d.id, first?.id ?? 0, 'send');
    expect(res.status).toBe(409);
    expect(await subjects(d.donor.email)).toHaveLength(1);
  });

  it('skips the 1st reminder: nothing goes on its day, the 2nd reminder follows a week after it', async () => {
    const d = await createMatch();
    const [first] = (await scheduleOf(d.id)).scheduled;
    if (!first) throw new Error('no 1st reminder');
    const res = await act(d.id, first.id, 'skip');
    expect(res.status).toBe(200);
    const skipped = res.json as MatchSchedule;
    const secondDue = new Date(
      Date.parse(first.due_at) + reminderSchedule.secondReminderDays * dayMs,
    ).toISOString();
    expect(skipped.scheduled.map((s) => [s.label, s.due_at])).toEqual([['2nd reminder', secondDue]]);
    expect(skipped.history.map((h) => [h.action, h.label, h.user])).toEqual([
      ['skip', '1st reminder', 'Wren Castillo'],
    ]);
    // A second click answers the same and adds nothing.
    expect((await act(d.id, first.id, 'skip')).json).toEqual(skipped);
    // Once skipped it cannot be sent.
    expect((await act(d.id, first.id, 'send')).status).toBe(409);

    const s = scheduler();
    clock.set(new Date(first.due_at));
    await s.runDue();
    expect(await subjects(d.donor.email)).toHaveLength(1);
    clock.set(new Date(secondDue));
    await s.runDue();
    expect((await subjects(d.donor.email))[1]).toBe(
      'Last chance to double your gift to Hope Harbor Foundation',
    );
    // After the 2nd reminder the sequence goes on as always: No Response a week later.
    const [noResponse] = (await scheduleOf(d.id)).scheduled;
    expect([noResponse?.kind, noResponse?.actionable]).toEqual(['no-response', false]);
    // A status change, not an email: neither sent early nor skipped.
    for (const action of ['send', 'skip'] as const) {
      const refused = await act(d.id, noResponse?.id ?? 0, action);
      expect([refused.status, refused.json.message]).toEqual([
        409,
        'Only a scheduled reminder or deadline email can be sent now or skipped.',
      ]);
    }
  });

  it('lets readers see but not act; another organization’s staff and other matches’ jobs are refused', async () => {
    const d = await createMatch();
    const other = await createMatch();
    clock.advance(2 * dayMs);
    const seen = await scheduleOf(d.id, tokens.reader);
    const job = seen.scheduled[0]?.id ?? 0;
    expect((await act(d.id, job, 'send', tokens.reader)).status).toBe(403);
    expect((await act(d.id, job, 'skip', tokens.reader)).status).toBe(403);
    const outsider = await call(t.app, 'GET', `/api/donation/${d.id}/email-schedule`, {
      token: tokens.outsider,
    });
    expect(outsider.status).toBe(404);
    expect((await act(d.id, job, 'send', tokens.outsider)).status).toBe(404);
    // A job of another match, named under this one, is not found.
    expect((await act(other.id, job, 'send')).status).toBe(404);
    expect(await subjects(d.donor.email)).toHaveLength(1);
    expect((await scheduleOf(d.id)).scheduled[0]?.id).toBe(job);
  });
});

describe("the organization's scheduled emails", () => {
  it('counts what goes out by day and template, filters, and includes the weekly staff email', async () => {
    const a = await createMatch();
    const b = await createMatch();
    await createMatch(deadlineCo);
    await t.db.delete(notifees).where(eq(notifees.org_id, hope));
    await t.db.insert(notifees).values({ org_id: hope, email: 'staff-weekly@example.org' });
    // A match waiting on the staff makes the weekly email due.
    await t.db.insert(donations).values({
      organization_id: hope,
      amount_cents: 5000,
      donated_at: new Date('2026-02-01'),
      status_id: 2,
    });

    const res = await call(t.app, 'GET', `/api/organization/${hope}/scheduled-emails`, {
      token: tokens.reader,
    });
    expect(res.status).toBe(200);
    const view = res.json as ScheduledEmailsResponse;
    expect([view.from, view.to]).toEqual(['2026-03-02', '2026-03-31']);
    const day = (d: string) => view.days.find((x) => x.day === d)?.groups ?? [];
    expect(day('2026-03-09').map((g) => [g.template, g.label, g.count, g.matches.map((m) => m.id)])).toEqual([
      ['7', '1st reminder', 3, expect.arrayContaining([a.id, b.id])],
      // Two recipients: the notification email and the primary contact.
      ['digest', 'Hope Harbor Foundation', 2, []],
    ]);
    expect(day('2026-03-31').map((g) => [g.template, g.label, g.count])).toEqual([
      ['102', 'Deadline approaching', 1],
    ]);
    const weekly = view.days.flatMap((d) => d.groups.filter((g) => g.template === 'digest').map(() => d.day));
    expect(weekly).toEqual(['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30']);
    expect(view.total).toBe(view.days.reduce((n, d) => n + d.count, 0));

    const filtered = await call(
      t.app,
      'GET',
      `/api/organization/${hope}/scheduled-emails?template=102&from=2026-03-20&to=2026-04-30`,
      { token: tokens.reader },
    );
    expect(
      (filtered.json as ScheduledEmailsResponse).days.map((d) => [d.day, d.groups.map((g) => g.label)]),
    ).toEqual([
      ['2026-03-31', ['Deadline approaching']],
      ['2026-04-14', ['About to expire']],
    ]);

    // What the view said goes out on the 9th is what the scheduler sends on the 9th.
    clock.set(new Date('2026-03-09T09:00:00Z'));
    const s = scheduler();
    await s.runDue();
    const sentOn9th = (await t.db.select().from(outbox)).filter((m) => /^Reminder:/.test(m.subject)).length;
    expect(sentOn9th).toBe(3);
  });

  it('refuses a bad range or another organization’s chapter, and other organizations', async () => {
    const bad = (q: string) =>
      call(t.app, 'GET', `/api/organization/${hope}/scheduled-emails?${q}`, { token: tokens.reader });
    expect((await bad('from=2026-03-10&to=2026-03-01')).status).toBe(400);
    expect((await bad('from=2026-01-01&to=2026-12-31')).status).toBe(400);
    expect((await bad('from=2026-02-30')).status).toBe(400);
    const { mapleStreet } = await demoOrganizationIds(t.db);
    expect((await bad(`chapter=${mapleStreet}`)).status).toBe(400);
    const outsider = await call(t.app, 'GET', `/api/organization/${hope}/scheduled-emails`, {
      token: tokens.outsider,
    });
    expect(outsider.status).toBe(404);
  });
});
