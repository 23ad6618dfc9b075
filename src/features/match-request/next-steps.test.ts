import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { NextStepsCompany } from '../../contract/donor.ts';
import { statusName } from '../../contract/statuses.ts';
import { displayDate, NextSteps } from './next-steps.tsx';

const company = (overrides: Partial<NextStepsCompany> = {}): NextStepsCompany => ({
  id: 1,
  name: 'Birch Telecom',
  match_method: 'csr',
  guide: 'Ask HR for the form.',
  url: 'https://birch.example.com/giving',
  verify: null,
  minimum_match: null,
  maximum_match: null,
  match_ratio: 1,
  deadline: null,
  ...overrides,
});

/** The text a donor reads for a status (tags stripped, entities decoded). */
function text(statusId: number, c: NextStepsCompany | null, amount = 250) {
  const html = renderToStaticMarkup(
    createElement(NextSteps, {
      status: { id: statusId, name: statusName(statusId) },
      company: c,
      companyName: c?.name ?? 'Tiny Bakery',
      organizationName: 'Hope Harbor Foundation',
      amount,
    }),
  );
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('NextSteps', () => {
  it('shows the status and a step for each kind of company', () => {
    const cases: Array<[number, NextStepsCompany | null, string]> = [
      [7, company(), 'Submit your match request in Birch Telecom’s employee giving portal'],
      [3, company({ match_method: 'form' }), 'Hope Harbor Foundation fills it in and signs it for you'],
      [5, company({ match_method: 'esign' }), 'Watch your inbox for an email asking you to e-sign'],
      [6, company({ match_method: 'paper' }), 'needs a form with your original signature'],
      [8, company({ match_method: 'mail' }), 'matches by mail. We prepare the matching packet and mail it'],
      [
        8,
        company({ match_method: 'contact' }),
        'Ask Birch Telecom’s HR or giving team to match your gift of $250.00',
      ],
      [
        10,
        company({ minimum_match: 500 }),
        'below Birch Telecom’s minimum for a match ($500.00). Give again',
      ],
      [19, company(), 'does not have a matching gift program'],
      [23, null, 'We do not know Tiny Bakery’s matching program yet'],
      [9, company(), 'confirming Birch Telecom’s matching policy'],
      [15, company(), 'matches only gifts made through its own giving site'],
      [17, company(), 'Hope Harbor Foundation is finishing its registration for matching gifts'],
    ];
    for (const [status, c, expected] of cases) {
      const shown = text(status, c);
      expect(shown, `status ${status}`).toContain(`Status: ${statusName(status)}`);
      expect(shown, `status ${status}`).toContain(expected);
    }
  });

  it('states the deadline, the minimum and the ratio with its cap', () => {
    const shown = text(
      7,
      company({ deadline: '2026-06-15', minimum_match: 25, match_ratio: 3, maximum_match: 25_000 }),
    );
    expect(shown).toContain('Request the match by Jun 15, 2026');
    expect(shown).toContain('Minimum gift matched $25.00');
    expect(shown).toContain('Match ratio 3:1, up to $25,000.00');
  });

  it('links to the company’s portal in a new tab when it has one', () => {
    const html = renderToStaticMarkup(
      createElement(NextSteps, {
        status: { id: 7, name: statusName(7) },
        company: company(),
        companyName: 'Birch Telecom',
        organizationName: 'Hope Harbor Foundation',
        amount: 10,
      }),
    );
    expect(html).toContain('href="https://birch.example.com/giving"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
  });
});

describe('displayDate', () => {
  it('uses the spec’s MMM dd, yyyy whatever the time zone', () => {
    expect(displayDate('2025-03-05')).toBe('Mar 05, 2025');
    expect(displayDate('2025-12-31T23:30:00.000Z')).toBe('Dec 31, 2025');
  });
});
