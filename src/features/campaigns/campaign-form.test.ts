import { describe, expect, it } from 'vitest';
import { type Campaign, campaignTexts, parseMatchRatio } from '../../contract/campaigns.ts';
import { type CampaignDraft, checkDraft, draftOf, minMaxText, newDraft, ratioText } from './campaign-form.ts';

const ready = (change: Partial<CampaignDraft> = {}): CampaignDraft => ({
  ...newDraft(new Date(2026, 10, 24)),
  name: 'Giving Week',
  company: { company_id: 12, company_name: 'Birch Analytics' },
  match_ratio: '2:1',
  ...change,
});

describe('the campaign form', () => {
  it('starts on this month with min and max "0" (spec: "Campaign min and max default to 0")', () => {
    const draft = newDraft(new Date(2026, 1, 10));
    expect(draft).toMatchObject({
      start_date: '2026-02-01',
      end_date: '2026-02-28',
      min_amount: '0',
      max_amount: '0',
      match_ratio: '',
    });
  });

  it('sends what the API takes: amounts as numbers, a blank ratio as null', () => {
    const checked = checkDraft(ready({ min_amount: '25', max_amount: '', match_ratio: ' ' }));
    expect(checked).toEqual({
      body: {
        name: 'Giving Week',
        company_id: 12,
        start_date: '2026-11-01',
        end_date: '2026-11-30',
        min_amount: 25,
        max_amount: 0,
        match_ratio: null,
        group_submit: false,
        bill_eligible: false,
        bill_processed: false,
        message: '',
      },
    });
  });

  it('names every problem by field before anything is sent', () => {
    expect(
      checkDraft(
        ready({
          name: ' ',
          company: { company_id: null, company_name: 'Birch' },
          start_date: '',
          max_amount: 'ten',
        }),
      ),
    ).toEqual({
      errors: {
        name: campaignTexts.nameRequired,
        company: campaignTexts.companyRequired,
        start_date: campaignTexts.startRequired,
        max_amount: campaignTexts.amount,
      },
    });
    expect(checkDraft(ready({ end_date: '2026-10-31' }))).toEqual({
      errors: { end_date: campaignTexts.endBeforeStart },
    });
    expect(checkDraft(ready({ min_amount: '600', max_amount: '500' }))).toEqual({
      errors: { min_amount: campaignTexts.minAboveMax },
    });
    expect(checkDraft(ready({ match_ratio: '2 to 1' }))).toEqual({
      errors: { match_ratio: campaignTexts.ratio },
    });
    // spec: "a max of 0 means no maximum": any min goes with it.
    expect('body' in checkDraft(ready({ min_amount: '600', max_amount: '0' }))).toBe(true);
  });

  it('reads ratios as company dollars per donor dollar', () => {
    expect(
      ['1:1', '2:1', '1.5:1', '2', ' 3 : 1 ', '1:2', '', '0:1', '10:1', '10.5:1', 'x'].map(parseMatchRatio),
    ).toEqual([1, 2, 1.5, 2, 3, 0.5, null, undefined, 10, undefined, undefined]);
  });

  it("shows a saved campaign's cells as the table does, and opens it in the form unchanged", () => {
    const saved: Campaign = {
      id: 3,
      organization_id: 1,
      name: 'Match Day',
      company_id: 12,
      company_name: 'Birch Analytics',
      start_date: '2026-11-15',
      end_date: '2026-11-15',
      min_amount: 25,
      max_amount: 0,
      match_ratio: null,
      group_submit: true,
      bill_eligible: false,
      bill_processed: false,
      message: 'Today only',
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
    };
    expect(minMaxText(saved)).toBe('$25 / No max');
    expect(minMaxText({ min_amount: 0, max_amount: 1500.5 })).toBe('$0 / $1,500.50');
    expect(ratioText(saved)).toBe('Company default');
    const draft = draftOf(saved);
    expect(draft).toMatchObject({
      id: 3,
      min_amount: '25',
      max_amount: '0',
      match_ratio: '',
      group_submit: true,
    });
    expect(checkDraft(draft)).toMatchObject({
      body: { name: 'Match Day', min_amount: 25, match_ratio: null },
    });
  });
});
