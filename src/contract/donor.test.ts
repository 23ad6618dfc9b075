import { describe, expect, it } from 'vitest';
import {
  donorMessages,
  donorRedirectMatchId,
  isFutureDay,
  MatchRequestForm,
  matchDeadline,
} from './donor.ts';

describe('donorRedirectMatchId', () => {
  it('reads the match id of a donor-match-update redirect, with or without /portal', () => {
    expect(donorRedirectMatchId('/donor-match-update/42')).toBe(42);
    expect(donorRedirectMatchId('/portal/donor-match-update/7/')).toBe(7);
  });

  it('leaves staff redirects and odd ids to the staff flow', () => {
    for (const redirect of [
      undefined,
      '/portal',
      '/donor-match-update/',
      '/donor-match-update/0',
      '/donor-match-update/1x',
      '/donor-match-update/99999999999',
      '/x/donor-match-update/3',
    ])
      expect(donorRedirectMatchId(redirect)).toBeUndefined();
  });
});

describe('matchDeadline', () => {
  it('follows the company rule from the gift date', () => {
    expect(matchDeadline('none', null, '2025-06-15')).toBeNull();
    expect(matchDeadline('days-after-gift', 90, '2025-06-15')).toBe('2025-09-13');
    expect(matchDeadline('days-after-gift', 365, '2024-03-01T12:00:00.000Z')).toBe('2025-03-01');
    expect(matchDeadline('days-after-gift', null, '2025-06-15')).toBeNull();
    expect(matchDeadline('year-end', null, '2025-06-15')).toBe('2025-12-31');
    expect(matchDeadline('next-year-end', null, '2025-06-15')).toBe('2026-12-31');
  });
});

describe('the match request form', () => {
  const valid = {
    donor: { name: 'Casey', email: 'casey@example.org' },
    company_id: null,
    company_name: 'Birch Telecom',
    amount: 25,
    donated_at: '2025-06-15',
  };

  it('accepts a complete gift and trims what was typed', () => {
    const parsed = MatchRequestForm.safeParse({
      ...valid,
      donor: { name: ' Casey ', email: ' casey@example.org ' },
    });
    expect(parsed.success && parsed.data.donor).toEqual({ name: 'Casey', email: 'casey@example.org' });
  });

  it('names each problem', () => {
    const messages = (input: unknown) =>
      MatchRequestForm.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    expect(messages({ ...valid, amount: undefined })).toEqual([donorMessages.amountRequired]);
    expect(messages({ ...valid, amount: 0 })).toEqual([donorMessages.amountPositive]);
    expect(messages({ ...valid, donated_at: '' })).toContain(donorMessages.dateRequired);
    expect(messages({ ...valid, donated_at: '2025-02-30' })).toContain(donorMessages.dateInvalid);
    expect(messages({ ...valid, company_name: ' ' })).toEqual([donorMessages.companyRequired]);
    expect(messages({ ...valid, donor: { name: '', email: 'x' } })).toEqual([
      donorMessages.nameRequired,
      donorMessages.emailInvalid,
    ]);
  });

  it('treats a day more than a day ahead as the future (time zones differ by less)', () => {
    const now = new Date('2025-06-15T23:00:00Z');
    expect(isFutureDay('2025-06-16', now)).toBe(false);
    expect(isFutureDay('2025-06-17', now)).toBe(true);
  });
});
