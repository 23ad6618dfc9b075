/**
 * One match in the API's shape for the browser and unit tests: Dana Donor's $125.50 gift through
 * Acme Corp (e-sign), unsilenced, with no history. Tests override what they are about.
 */
import type { Donation } from '../../contract/donations.ts';

export function testMatch(over: Partial<Donation> = {}): Donation {
  return {
    id: 41,
    transaction_id: 'tx-41',
    donated_at: '2026-03-05T15:30:00.000Z',
    amount: 125.5,
    matched: 125.5,
    status: { id: 5, name: 'Donor to E-Sign Form', billing_status: 'ineligible' },
    status_id: 5,
    donor: { id: 7, name: 'Dana Donor', email: 'dana@example.org' },
    donor_id: 7,
    donor_name: 'Dana Donor',
    company: { id: 3, name: 'Acme Corp', match_method: 'esign', guide: null, url: null, verify: null },
    company_id: 3,
    company_name: 'Acme Corp',
    organization: { id: 1, name: 'Hope Harbor' },
    organization_id: 1,
    custom: { team: 'Blue', amply: { id: 'x' } },
    recurring_id: null,
    recurring_history: [],
    inert: 0,
    silenced: false,
    refunded_bill_id: null,
    eligible_bill_id: null,
    processed_bill_id: null,
    adobe_sign_signingUrl: null,
    notifications: [],
    created_at: '2026-03-05T15:31:00.000Z',
    updated_at: '2026-03-05T15:31:00.000Z',
    ...over,
  };
}
