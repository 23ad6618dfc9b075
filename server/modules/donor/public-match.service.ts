import { and, asc, eq, sql } from 'drizzle-orm';
import {
  donorMessages,
  isFutureDay,
  type MatchRequest,
  type MatchRequestResponse,
  type PublicMatchOrganization,
} from '../../../src/contract/donor.ts';
import { captchaFailedMessage } from '../../../src/contract/public.ts';
import { matchPagePath } from '../../../src/contract/setup.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import type { Queryable } from '../../db/client.ts';
import { companies, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { maxId } from '../../http/params.ts';
import type { Deps } from '../../http/route.ts';
import { spendSolution } from '../captcha/captcha.service.ts';
import { createDonation } from '../donations/donations.service.ts';
import { matchNotifier } from '../notifications/notifications.service.ts';
import { logoUrl } from '../organization/logo-url.ts';
import { nextStepsCompany } from './donor.service.ts';

/**
 * The organization behind a public matching page. spec (part 1, section 1): "/match/{organization
 * name in lowercase, with the first space replaced by a hyphen}" — the slug is compared with
 * matchPagePath(name), the one rule the portal's links use too. A number is taken as the id (the
 * element's `organization` attribute may give either). Deactivated organizations have no page.
 */
async function findMatchOrganization(db: Queryable, slugOrId: string) {
  const slug = slugOrId.trim().toLowerCase();
  const notFound = new HttpError(404, donorMessages.organizationNotFound);
  // No name holds a NUL (PostgreSQL text cannot), so such a slug names nothing.
  if (slug.includes('\u0000')) throw notFound;
  const active = eq(organizations.rule_deactivated, false);
  if (/^[1-9][0-9]{0,9}$/.test(slug)) {
    const id = Number(slug);
    if (id > maxId) throw notFound;
    const [byId] = await db
      .select()
      .from(organizations)
      .where(and(eq(organizations.id, id), active));
    if (byId) return byId;
  }
  // PostgreSQL's regexp_replace without the 'g' flag replaces the first match only, as the rule
  // says; the candidates are checked again with the shared rule.
  const candidates = await db
    .select()
    .from(organizations)
    .where(and(sql`regexp_replace(lower(${organizations.name}), ' ', '-') = ${slug}`, active))
    .orderBy(asc(organizations.id))
    .limit(10);
  const found = candidates.find((org) => matchPagePath(org.name) === `/match/${slug}`);
  if (!found) throw notFound;
  return found;
}

export async function publicMatchOrganization(
  deps: Deps,
  slug: string,
): Promise<{ organization: PublicMatchOrganization }> {
  const org = await findMatchOrganization(deps.db, slug);
  return {
    organization: {
      id: org.id,
      name: org.name,
      logo: logoUrl(deps.config.publicUrl, org.file_logo),
      mission: org.mission,
    },
  };
}

/**
 * POST /api/public/match/{slug}: a donor asks their employer to match their gift. The match is
 * created through the donations creation path (the donor row, the resolved status and its
 * history, marked as coming from the public page); the answer says what the donor does next.
 * The captcha is spent first, so a refused request still used it up (the page solves another).
 */
export async function requestMatch(
  deps: Deps,
  slug: string,
  body: MatchRequest,
): Promise<MatchRequestResponse> {
  const { db, config } = deps;
  if (isFutureDay(body.donated_at)) throw new HttpError(400, donorMessages.dateFuture);
  const org = await findMatchOrganization(db, slug);
  if (!(await db.transaction((tx) => spendSolution(tx, config.jwtSecret, body.captcha))))
    throw new HttpError(400, captchaFailedMessage);
  const { donation } = await createDonation(
    db,
    org.id,
    null,
    {
      // Noon UTC: the same calendar day wherever the nonprofit's staff read it.
      donated_at: `${body.donated_at}T12:00:00.000Z`,
      amount: body.amount,
      donor: { name: body.donor.name.trim(), email: body.donor.email.trim().toLowerCase() },
      company_id: body.company_id,
      company_name: body.company_name.trim(),
      transaction_id: body.transaction_id?.trim() || null,
    },
    'public',
    matchNotifier(config),
  );
  const [company] = donation.company_id
    ? await db.select().from(companies).where(eq(companies.id, donation.company_id))
    : [];
  return {
    match_id: donation.id,
    status: { id: donation.status_id, name: statusName(donation.status_id) },
    company: company ? nextStepsCompany(company, new Date(donation.donated_at)) : null,
    company_name: donation.company_name ?? body.company_name.trim(),
  };
}
