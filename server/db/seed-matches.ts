import { count, eq, inArray, sql } from 'drizzle-orm';
import { HttpError } from '../http/errors.ts';
import { confirmDonations, createDonation } from '../modules/donations/donations.service.ts';
import type { Db } from './client.ts';
import { campaigns, companies, donations, organizations, users } from './schema.ts';
import { demoOrganizationNames } from './seed.ts';
import { demoCompanies } from './seed-companies.ts';

const firstNames = [
  'Ava',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jade',
  'Kofi',
  'Lena',
];
const lastNames = ['Smith', 'Garcia', 'Chen', 'Okafor', 'Novak', 'Patel', 'Kim', 'Rossi', 'Dubois', 'Silva'];

/**
 * The demo portal's matches: 72 gifts to Hope Harbor, its two chapters and Maple Street over the
 * last year, from donors at companies of every match method (and a few with no company or an
 * employer outside the catalogue), created through the same path as the API so each has its
 * resolved status and history; some then confirmed Submitted (Hope Harbor's count on its bill
 * for the month: it is on a per-match plan) or No Charge. Runs only when none of
 * these organizations has a match yet, so a restart adds nothing and a user's data is never touched.
 * Not part of the test seed: tests make the matches they need.
 */
export async function seedDemoMatches(db: Db, now = new Date()): Promise<void> {
  const names = Object.values(demoOrganizationNames);
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.name, names));
  const orgIds = orgs.map((o) => o.id);
  if (orgIds.length === 0) return;
  const [existing] = await db
    .select({ n: count() })
    .from(donations)
    .where(inArray(donations.organization_id, orgIds));
  if ((existing?.n ?? 0) > 0) return;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@twofold.test'));
  if (!admin) return;

  const catalogue = demoCompanies();
  await seedDemoCampaign(db, orgs, catalogue[0]?.name, now);
  const created: number[] = [];
  for (let i = 0; i < 72; i++) {
    const org = orgs[i % orgs.length];
    if (!org) continue;
    const first = firstNames[i % firstNames.length] ?? 'Alex';
    const last = lastNames[(i * 7) % lastNames.length] ?? 'Doe';
    const company =
      i % 12 === 5
        ? null
        : i % 12 === 9
          ? 'Bluebird Family Bakery'
          : (catalogue[(i * 37) % catalogue.length]?.name ?? null);
    const donatedAt = new Date(now.getTime() - ((i * 5) % 360) * 86_400_000 - (i % 9) * 3_600_000);
    const made = await createDonation(db, org.id, admin.id, {
      transaction_id: `demo-${1000 + i}`,
      donated_at: donatedAt.toISOString(),
      amount: [25, 50, 100, 250, 500, 1200, 75, 150][i % 8] ?? 50,
      donor: { name: `${first} ${last}`, email: `${first}.${last}${i}@example.org`.toLowerCase() },
      company_name: company,
      company_id: null,
      ...(i % 10 === 7 ? { custom: { 'In honor of': 'Grandma Rose', Campaign: 'Spring Drive' } } : {}),
      ...(i % 15 === 3 ? { recurring_id: `rec-${i}` } : {}),
    }).catch((error: unknown) => {
      // Another process starting at the same moment seeded this one (its transaction id is taken).
      if (error instanceof HttpError && error.status === 409) return null;
      throw error;
    });
    if (!made) return;
    created.push(made.donation.id);
  }
  const submitted = created.filter((_, i) => i % 6 === 1);
  // Never one of the submitted: a match on a bill is refunded, not marked No Charge.
  const noCharge = created.filter((_, i) => i % 17 === 4 && i % 6 !== 1);
  if (submitted.length)
    await confirmDonations(db, admin.id, { donation_ids: submitted, status: 'submitted' });
  if (noCharge.length) await confirmDonations(db, admin.id, { donation_ids: noCharge, status: 'no-charge' });
}

/**
 * Hope Harbor's demo campaign (issue 12): a 2:1 match for this month (UTC) from the catalogue's
 * first company, so the first demo gift, made today at that company, shows a doubled estimate.
 */
async function seedDemoCampaign(
  db: Db,
  orgs: ReadonlyArray<{ id: number; name: string }>,
  companyName: string | undefined,
  now: Date,
): Promise<void> {
  const hope = orgs.find((o) => o.name === demoOrganizationNames.hopeHarbor);
  if (!hope || !companyName) return;
  const [company] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(sql`lower(${companies.name}) = ${companyName.toLowerCase()}`);
  if (!company) return;
  const day = (d: Date) => d.toISOString().slice(0, 10);
  await db.insert(campaigns).values({
    organization_id: hope.id,
    company_id: company.id,
    name: 'Harbor Lights Double Match',
    start_date: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
    end_date: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))),
    match_ratio: '2:1',
    message: `${companyName} doubles every gift to Hope Harbor this month.`,
  });
}
