import { describe, expect, it } from 'vitest';
import { statusName } from '../../../src/contract/statuses.ts';
import {
  type CampaignTerms,
  coveringCampaign,
  estimatedMatchCents,
  type ResolutionCompany,
  type ResolutionInput,
  resolveStatus,
} from './status-resolution.ts';

const registered = { deactivated: false, complete: true, type: 'non-profit' };
const company: ResolutionCompany = {
  program: 'matching',
  match_method: 'form',
  minimum_match_cents: 2500,
  excluded_organization_types: ['edu-pto'],
};
const base: ResolutionInput = { organization: registered, company, amount_cents: 10_000, recurring: false };
const resolve = (change: Partial<ResolutionInput>, companyChange: Partial<ResolutionCompany> = {}) => {
  const status = resolveStatus({
    ...base,
    ...change,
    company: change.company === null ? null : { ...company, ...companyChange },
  });
  return `${status} ${statusName(status)}`;
};

describe('the status resolution table, row by row', () => {
  it('1: a deactivated nonprofit gets NPO Disabled, whatever else holds', () => {
    expect(
      resolve({ organization: { ...registered, deactivated: true, complete: false }, company: null }),
    ).toBe('14 NPO Disabled');
  });
  it('2: an incomplete registration gets NPO Registration Incomplete', () => {
    expect(resolve({ organization: { ...registered, complete: false }, company: null })).toBe(
      '17 NPO Registration Incomplete',
    );
  });
  it('3: no catalogue company gets Missing Company Hold', () => {
    expect(resolve({ company: null })).toBe('23 Missing Company Hold');
  });
  it('4: a company without a program gets Company Has No Matching Program', () => {
    expect(resolve({ amount_cents: 1 }, { program: 'none' })).toBe('19 Company Has No Matching Program');
  });
  it('5: a gift below the minimum gets Below Company Minimum; at the minimum it does not', () => {
    expect(resolve({ amount_cents: 2499 })).toBe('10 Below Company Minimum');
    expect(resolve({ amount_cents: 2500 })).toBe('3 NPO to Verify/Sign');
  });
  it('6: an excluded organization type gets Against Company Policy', () => {
    expect(resolve({ organization: { ...registered, type: 'edu-pto' } })).toBe('11 Against Company Policy');
  });
  it("7: a company matching only on its own site gets Donation Can't Be Matched Outside Company Site", () => {
    expect(resolve({}, { program: 'company-site-only' })).toBe(
      "15 Donation Can't Be Matched Outside Company Site",
    );
  });
  it('8: an incomplete policy, or no method, gets Company Policy Incomplete', () => {
    expect(resolve({}, { program: 'incomplete' })).toBe('9 Company Policy Incomplete');
    expect(resolve({}, { match_method: null })).toBe('9 Company Policy Incomplete');
  });
  it('9: a recurring gift gets Recurring Hold once the company would match it', () => {
    expect(resolve({ recurring: true })).toBe('22 Recurring Hold');
    expect(resolve({ recurring: true }, { program: 'none' })).toBe('19 Company Has No Matching Program');
  });
  it("10-14: otherwise the method's action status", () => {
    expect(resolve({}, { match_method: 'form' })).toBe('3 NPO to Verify/Sign');
    expect(resolve({}, { match_method: 'esign' })).toBe('5 Donor to E-Sign Form');
    expect(resolve({}, { match_method: 'paper' })).toBe('6 Original Signature Only');
    expect(resolve({}, { match_method: 'csr' })).toBe('7 Donor to Submit in Company Portal');
    expect(resolve({}, { match_method: 'mail' })).toBe('8 Donor to Notify Company');
    expect(resolve({}, { match_method: 'contact' })).toBe('8 Donor to Notify Company');
  });
});

describe('the estimated match', () => {
  it('is the gift times the ratio, capped at the maximum, and nothing when the match is not possible', () => {
    expect(estimatedMatchCents(3, 10_000, { match_ratio: 2, maximum_match_cents: null })).toBe(20_000);
    expect(estimatedMatchCents(3, 10_000, { match_ratio: 2, maximum_match_cents: 15_000 })).toBe(15_000);
    expect(estimatedMatchCents(3, 10_001, { match_ratio: 0.5, maximum_match_cents: null })).toBe(5001);
    expect(estimatedMatchCents(10, 10_000, { match_ratio: 1, maximum_match_cents: null })).toBe(0);
    expect(estimatedMatchCents(23, 10_000, null)).toBe(0);
  });
});

describe("a campaign's terms (issue 12)", () => {
  const company = { match_ratio: 1, maximum_match_cents: 5_000 };
  it('replace the ratio and the maximum; a campaign max of 0 is no maximum; a null ratio is the company’s', () => {
    expect(estimatedMatchCents(3, 10_000, company, { ratio: 2, max_cents: 0 })).toBe(20_000);
    expect(estimatedMatchCents(3, 10_000, company, { ratio: 2, max_cents: 15_000 })).toBe(15_000);
    expect(estimatedMatchCents(3, 10_000, company, { ratio: null, max_cents: 8_000 })).toBe(8_000);
    expect(estimatedMatchCents(10, 10_000, company, { ratio: 2, max_cents: 0 })).toBe(0);
    expect(estimatedMatchCents(3, 10_000, company)).toBe(5_000);
  });
  it('never estimate more than an integer column holds', () => {
    expect(
      estimatedMatchCents(
        3,
        2_000_000_000,
        { match_ratio: 1, maximum_match_cents: null },
        { ratio: 10, max_cents: 0 },
      ),
    ).toBe(2_147_483_647);
  });

  const campaign = (over: Partial<CampaignTerms>): CampaignTerms => ({
    id: 1,
    organization_id: 7,
    company_id: 3,
    start_date: '2025-11-01',
    end_date: '2025-11-30',
    min_cents: 0,
    max_cents: 0,
    ratio: 2,
    ...over,
  });
  const gift = (over: Partial<Parameters<typeof coveringCampaign>[1]> = {}) => ({
    organization_id: 7,
    company_id: 3 as number | null,
    donated_at: new Date('2025-11-15T12:00:00Z'),
    amount_cents: 10_000,
    ...over,
  });
  it.each([
    ['inside the days', gift(), 1],
    ['on the first day', gift({ donated_at: new Date('2025-11-01T00:00:00Z') }), 1],
    ['on the last day', gift({ donated_at: new Date('2025-11-30T23:59:59Z') }), 1],
    ['the day before', gift({ donated_at: new Date('2025-10-31T23:59:59Z') }), null],
    ['the day after', gift({ donated_at: new Date('2025-12-01T00:00:00Z') }), null],
    ['another company', gift({ company_id: 4 }), null],
    ['no catalogue company', gift({ company_id: null }), null],
    ['another organization', gift({ organization_id: 8 }), null],
  ])('covers a gift %s: %j → campaign %s', (_what, g, expected) => {
    expect(coveringCampaign([campaign({})], g)?.id ?? null).toBe(expected);
  });
  it("leaves a gift below the campaign's minimum to the company's terms, and prefers the latest-starting", () => {
    expect(coveringCampaign([campaign({ min_cents: 20_000 })], gift())).toBeNull();
    const month = campaign({ id: 1 });
    const day = campaign({ id: 2, start_date: '2025-11-15', end_date: '2025-11-15' });
    expect(coveringCampaign([day, month], gift())?.id).toBe(2);
    expect(coveringCampaign([month, day], gift())?.id).toBe(2);
    expect(coveringCampaign([month, campaign({ id: 3 })], gift())?.id).toBe(3);
  });
});
