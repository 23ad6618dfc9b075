import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  type Campaign,
  type CampaignList,
  type CampaignWrite,
  campaignTexts,
  parseMatchRatio,
} from '../../../src/contract/campaigns.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { campaigns, companies } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { CampaignTerms } from '../donations/status-resolution.ts';

type CampaignRow = typeof campaigns.$inferSelect;

const dollars = (cents: number) => cents / 100;
const toCents = (amount: number) => Math.round(amount * 100);

function toCampaign(row: CampaignRow, companyName: string): Campaign {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    company_id: row.company_id,
    company_name: companyName,
    start_date: row.start_date,
    end_date: row.end_date,
    min_amount: dollars(row.min_cents),
    max_amount: dollars(row.max_cents),
    match_ratio: row.match_ratio,
    group_submit: row.group_submit,
    bill_eligible: row.bill_eligible,
    bill_processed: row.bill_processed,
    message: row.message,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The organization's campaigns, the latest first (by start date, then newest). */
export async function listCampaigns(db: Queryable, orgId: number): Promise<CampaignList> {
  const rows = await db
    .select({ campaign: campaigns, company: companies.name })
    .from(campaigns)
    .innerJoin(companies, eq(companies.id, campaigns.company_id))
    .where(eq(campaigns.organization_id, orgId))
    .orderBy(desc(campaigns.start_date), desc(campaigns.id));
  return { campaigns: rows.map((r) => toCampaign(r.campaign, r.company)) };
}

/** The organization a campaign belongs to (the guard's lookup), or 404. */
export async function campaignOrganization(db: Queryable, campaignId: number): Promise<number> {
  const [row] = await db
    .select({ organization_id: campaigns.organization_id })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  if (!row) throw new HttpError(404, campaignTexts.notFound);
  return row.organization_id;
}

/** The columns a write sets; the contract has checked the fields and how they go together. */
function valuesOf(body: CampaignWrite) {
  const ratio = body.match_ratio?.trim() || null;
  return {
    name: body.name.trim(),
    company_id: body.company_id,
    start_date: body.start_date,
    end_date: body.end_date,
    min_cents: toCents(body.min_amount ?? 0),
    max_cents: toCents(body.max_amount ?? 0),
    match_ratio: ratio,
    group_submit: body.group_submit ?? false,
    bill_eligible: body.bill_eligible ?? false,
    bill_processed: body.bill_processed ?? false,
    message: body.message ?? '',
  };
}

async function companyName(db: Queryable, companyId: number): Promise<string> {
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw new HttpError(400, `company_id: ${campaignTexts.companyNotFound}`);
  return company.name;
}

export async function createCampaign(
  db: Db,
  orgId: number,
  body: CampaignWrite,
): Promise<{ campaign: Campaign }> {
  const values = valuesOf(body);
  const name = await companyName(db, values.company_id);
  const [row] = await db
    .insert(campaigns)
    .values({ ...values, organization_id: orgId })
    .returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return { campaign: toCampaign(row, name) };
}

export async function updateCampaign(
  db: Db,
  campaignId: number,
  body: CampaignWrite,
): Promise<{ campaign: Campaign }> {
  const values = valuesOf(body);
  const name = await companyName(db, values.company_id);
  const [row] = await db.update(campaigns).set(values).where(eq(campaigns.id, campaignId)).returning();
  if (!row) throw new HttpError(404, campaignTexts.notFound);
  return { campaign: toCampaign(row, name) };
}

/** Deleting a campaign keeps the estimates it made; the matches simply name no campaign any more. */
export async function removeCampaign(db: Db, campaignId: number): Promise<{ message: string }> {
  const deleted = await db
    .delete(campaigns)
    .where(eq(campaigns.id, campaignId))
    .returning({ id: campaigns.id });
  if (deleted.length === 0) throw new HttpError(404, campaignTexts.notFound);
  return { message: campaignTexts.deleted };
}

/**
 * The campaigns of these organizations for these companies, as the estimate reads them
 * (status-resolution.ts, coveringCampaign and estimatedMatchCents). An organization has a handful.
 */
export async function campaignTermsOf(
  db: Queryable,
  orgIds: readonly number[],
  companyIds: readonly number[],
): Promise<CampaignTerms[]> {
  if (orgIds.length === 0 || companyIds.length === 0) return [];
  const rows = await db
    .select({
      id: campaigns.id,
      organization_id: campaigns.organization_id,
      company_id: campaigns.company_id,
      start_date: campaigns.start_date,
      end_date: campaigns.end_date,
      min_cents: campaigns.min_cents,
      max_cents: campaigns.max_cents,
      match_ratio: campaigns.match_ratio,
    })
    .from(campaigns)
    .where(
      and(
        inArray(campaigns.organization_id, [...new Set(orgIds)]),
        inArray(campaigns.company_id, [...new Set(companyIds)]),
      ),
    );
  // A ratio stored before a rule change that no longer parses is read as the company's own.
  return rows.map(({ match_ratio, ...r }) => ({ ...r, ratio: parseMatchRatio(match_ratio) ?? null }));
}
