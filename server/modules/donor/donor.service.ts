import { eq } from 'drizzle-orm';
import type { DeadlineRule, MatchMethod, VerifyMethod } from '../../../src/contract/companies.ts';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  type DonorMatch,
  type DonorMatchUpdate,
  type DonorMatchUpdateResponse,
  type DonorSessionResponse,
  donorMatchUpdatePath,
  donorMessages,
  donorTexts,
  matchDeadline,
  type NextStepsCompany,
} from '../../../src/contract/donor.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import type { Queryable } from '../../db/client.ts';
import { companies, donations, donors, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { donorLinkMail } from '../../mail/templates.ts';
import { consumeToken, issueToken, signDonorToken } from '../auth/tokens.ts';
import { updateDonation } from '../donations/donations.service.ts';
import { logoUrl } from '../organization/logo-url.ts';

/**
 * spec is silent on the lifetime. A donor reads the email when they get to it, not within
 * minutes like a staff member signing in: a day. It still works only once.
 */
const donorLinkLifetimeMs = 24 * 60 * 60 * 1000;

const lower = (email: string) => email.trim().toLowerCase();
const dollars = (cents: number | null) => (cents === null ? null : cents / 100);

/** A company row as the donor sees it: its policy facts and the deadline for this gift. */
export function nextStepsCompany(company: typeof companies.$inferSelect, donatedAt: Date): NextStepsCompany {
  return {
    id: company.id,
    name: company.name,
    match_method: company.match_method as MatchMethod | null,
    guide: company.guide,
    url: company.url,
    verify: company.verify as VerifyMethod | null,
    minimum_match: dollars(company.minimum_match_cents),
    maximum_match: dollars(company.maximum_match_cents),
    match_ratio: Number(company.match_ratio),
    deadline: matchDeadline(
      company.deadline_rule as DeadlineRule,
      company.deadline_days,
      donatedAt.toISOString().slice(0, 10),
    ),
  };
}

async function loadMatch(db: Queryable, donationId: number) {
  const [row] = await db
    .select({
      donation: donations,
      donor_name: donors.name,
      donor_email: donors.email,
      company: companies,
      organization_name: organizations.name,
      organization_logo: organizations.file_logo,
    })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(eq(donations.id, donationId));
  return row;
}
type MatchRow = NonNullable<Awaited<ReturnType<typeof loadMatch>>>;

function toDonorMatch(row: MatchRow, publicUrl: string): DonorMatch {
  const { donation } = row;
  return {
    id: donation.id,
    donor: { name: row.donor_name, email: row.donor_email ?? '' },
    company: row.company ? nextStepsCompany(row.company, donation.donated_at) : null,
    company_id: donation.company_id,
    company_name: donation.company_name,
    amount: donation.amount_cents / 100,
    donated_at: donation.donated_at.toISOString(),
    status: { id: donation.status_id, name: statusName(donation.status_id) },
    organization: { name: row.organization_name, logo: logoUrl(publicUrl, row.organization_logo) },
  };
}

/**
 * The match when its donor's email is the session's; otherwise 404 exactly like a missing one,
 * so a donor cannot learn which other ids exist.
 */
async function ownMatch(db: Queryable, email: string, donationId: number): Promise<MatchRow> {
  const row = await loadMatch(db, donationId);
  if (!row?.donor_email || lower(row.donor_email) !== lower(email))
    throw new HttpError(404, donationMessages.notFound);
  return row;
}

/**
 * spec: "GET /api/auth/otp with query email and redirect=/donor-match-update/{di}: emails the
 * donor a login link". Sent only when the match's donor has that email; the caller answers the
 * same whether or not it was sent, so nobody learns which addresses have match requests.
 */
export async function requestDonorLink(deps: Deps, email: string, donationId: number): Promise<void> {
  const { db, config } = deps;
  const row = await loadMatch(db, donationId);
  if (!row?.donor_email || lower(row.donor_email) !== lower(email)) return;
  const to = lower(row.donor_email);
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, 'donor_link', { donationId, email: to }, donorLinkLifetimeMs);
    await enqueueMail(
      tx,
      await donorLinkMail({
        to,
        name: row.donor_name?.trim() || to.split('@')[0] || to,
        organization: row.organization_name,
        supportEmail: config.supportEmail,
        url: `${config.publicUrl}${donorMatchUpdatePath(donationId)}?token=${encodeURIComponent(token)}`,
        hours: donorLinkLifetimeMs / 3_600_000,
      }),
      [],
      row.donation.organization_id,
    );
  });
}

/**
 * POST /api/donor/session: spends a donor link and opens a donor session for its email. A link
 * whose match has since left that email (edited by staff or by the donor) opens nothing.
 */
export async function openDonorSession(deps: Deps, token: string): Promise<DonorSessionResponse> {
  const link = await consumeToken(deps.db, 'donor_link', token);
  if (!link) throw new HttpError(400, donorMessages.linkInvalid);
  const row = await loadMatch(deps.db, link.donationId);
  if (!row?.donor_email || lower(row.donor_email) !== link.email)
    throw new HttpError(400, donorMessages.linkInvalid);
  return { token: await signDonorToken(deps.config.jwtSecret, link.email), match_id: link.donationId };
}

export async function getDonorMatch(deps: Deps, email: string, donationId: number) {
  return { donation: toDonorMatch(await ownMatch(deps.db, email, donationId), deps.config.publicUrl) };
}

/**
 * PUT /api/donor/donation/{id}: name, email and company; the amount stays (spec: "the amount is
 * shown but cannot change"). Through the donations update, so a new company resolves the status
 * again and the change is in the status history, marked as the donor's. A new email moves the
 * request to that address: this session no longer reaches it.
 */
export async function updateDonorMatch(
  deps: Deps,
  email: string,
  donationId: number,
  body: DonorMatchUpdate,
): Promise<DonorMatchUpdateResponse> {
  const current = await ownMatch(deps.db, email, donationId);
  const { donation } = current;
  if (body.amount !== undefined && Math.round(body.amount * 100) !== donation.amount_cents)
    throw new HttpError(400, donorMessages.amountFixed);
  const newEmail = lower(body.donor.email);
  await updateDonation(
    deps.db,
    donationId,
    null,
    {
      donated_at: donation.donated_at.toISOString(),
      amount: donation.amount_cents / 100,
      donor: { name: body.donor.name.trim(), email: newEmail },
      company_id: body.company_id,
      company_name: body.company_name.trim(),
    },
    'donor',
    deps.notifier,
  );
  const updated = await loadMatch(deps.db, donationId);
  if (!updated) throw new HttpError(404, donationMessages.notFound);
  const transferred = newEmail !== lower(email);
  return {
    message: transferred ? donorMessages.transferred : donorTexts.updated,
    donation: toDonorMatch(updated, deps.config.publicUrl),
    transferred,
  };
}
