import { describe, expect, it } from 'vitest';
import { matchMethods } from '../../contract/companies.ts';
import { statusIds } from '../../contract/statuses.ts';
import { type ActionFacts, billingQuestion, confirmStatusOf, matchActions } from './actions.ts';

/** A plain match: Submitted status, no bills, not recurring, not silenced, an esign company. */
const facts = (over: Partial<ActionFacts> = {}): ActionFacts => ({
  status_id: 4,
  eligible_bill_id: null,
  processed_bill_id: null,
  refunded_bill_id: null,
  recurring_id: null,
  silenced: false,
  company: { match_method: 'esign' },
  ...over,
});

const chargeable = [1, 3, 4, 5, 6, 7, 8, 20, 21, 22, 25, 28];
const notChargeable = statusIds.filter((id) => !chargeable.includes(id));

describe('No Charge', () => {
  it.each(chargeable)('is offered at status %i when there is no bill', (status_id) => {
    expect(matchActions(facts({ status_id })).noCharge).toBe(true);
  });

  it.each(notChargeable)('is not offered at status %i', (status_id) => {
    expect(matchActions(facts({ status_id })).noCharge).toBe(false);
  });

  it('is not offered once an eligible bill exists', () => {
    expect(matchActions(facts({ eligible_bill_id: 9 })).noCharge).toBe(false);
  });

  it('is not offered once a processed bill exists', () => {
    expect(matchActions(facts({ processed_bill_id: 9 })).noCharge).toBe(false);
  });

  it('is offered when only a refund bill exists (a refund is not an eligible or processed bill)', () => {
    expect(matchActions(facts({ refunded_bill_id: 9 })).noCharge).toBe(true);
  });
});

describe('Refund', () => {
  it.each(chargeable)('is offered at status %i when a bill exists and no refund', (status_id) => {
    expect(matchActions(facts({ status_id, eligible_bill_id: 3 })).refund).toBe(true);
  });

  it.each(notChargeable)('is not offered at status %i on an open bill', (status_id) => {
    expect(matchActions(facts({ status_id, eligible_bill_id: 3 })).refund).toBe(false);
  });

  it.each(notChargeable.filter((id) => id !== 13 && id !== 16))(
    'is offered at status %i on an issued bill: a re-resolved match whose fee was charged can be credited',
    (status_id) => {
      expect(matchActions(facts({ status_id, eligible_bill_id: 3, processed_bill_id: 3 })).refund).toBe(true);
    },
  );

  it('counts a processed bill as a bill', () => {
    expect(matchActions(facts({ processed_bill_id: 3 })).refund).toBe(true);
  });

  it('is not offered without a bill', () => {
    expect(matchActions(facts()).refund).toBe(false);
  });

  it('is not offered once refunded', () => {
    expect(matchActions(facts({ eligible_bill_id: 3, refunded_bill_id: 4 })).refund).toBe(false);
  });

  it('never shows beside No Charge', () => {
    for (const status_id of statusIds) {
      for (const bill of [null, 1]) {
        const actions = matchActions(facts({ status_id, eligible_bill_id: bill }));
        expect(actions.refund && actions.noCharge).toBe(false);
      }
    }
  });
});

describe('Refunded badge', () => {
  it('shows once refunded_bill_id is set', () => {
    expect(matchActions(facts({ refunded_bill_id: 12 })).refunded).toBe(true);
  });

  it('does not show before', () => {
    expect(matchActions(facts({ eligible_bill_id: 12 })).refunded).toBe(false);
  });
});

describe('Submitted', () => {
  it.each(statusIds.filter((id) => id !== 4))('is offered at status %i', (status_id) => {
    expect(matchActions(facts({ status_id })).submitted).toBe(true);
  });

  it('is not offered to a match already Submitted', () => {
    expect(matchActions(facts({ status_id: 4 })).submitted).toBe(false);
  });

  it('confirms the status submitted', () => {
    expect(confirmStatusOf.submitted).toBe('submitted');
  });
});

describe('Silence toggle', () => {
  it('offers Silence to a match that is not silenced', () => {
    expect(matchActions(facts({ silenced: false })).silenceLabel).toBe('Silence');
  });

  it('offers Un-Silence to a silenced match', () => {
    expect(matchActions(facts({ silenced: true })).silenceLabel).toBe('Un-Silence');
  });
});

describe('Submit for Match', () => {
  it('is offered at status 22 with a recurring_id', () => {
    expect(matchActions(facts({ status_id: 22, recurring_id: 'sub_1' })).submitForMatch).toBe(true);
  });

  it('is not offered at status 22 without a recurring_id', () => {
    expect(matchActions(facts({ status_id: 22, recurring_id: null })).submitForMatch).toBe(false);
  });

  it('is not offered at status 22 with a blank recurring_id', () => {
    expect(matchActions(facts({ status_id: 22, recurring_id: '  ' })).submitForMatch).toBe(false);
  });

  it.each(statusIds.filter((id) => id !== 22))(
    'is not offered at status %i, recurring or not',
    (status_id) => {
      expect(matchActions(facts({ status_id, recurring_id: 'sub_1' })).submitForMatch).toBe(false);
    },
  );
});

describe('Download Packet', () => {
  it.each(['esign', 'paper', 'mail'] as const)('is offered for a %s company at status 1 and 4', (method) => {
    for (const status_id of [1, 4]) {
      expect(matchActions(facts({ status_id, company: { match_method: method } })).downloadPacket).toBe(true);
    }
  });

  it.each(matchMethods.filter((m) => !['esign', 'paper', 'mail'].includes(m)))(
    'is not offered for a %s company',
    (method) => {
      expect(matchActions(facts({ status_id: 4, company: { match_method: method } })).downloadPacket).toBe(
        false,
      );
    },
  );

  it.each(statusIds.filter((id) => id !== 1 && id !== 4))('is not offered at status %i', (status_id) => {
    expect(matchActions(facts({ status_id })).downloadPacket).toBe(false);
  });

  it('is not offered without a company, or with a company whose method is unknown', () => {
    expect(matchActions(facts({ company: null })).downloadPacket).toBe(false);
    expect(matchActions(facts({ company: { match_method: null } })).downloadPacket).toBe(false);
  });
});

describe('the confirm statuses', () => {
  it('No Charge confirms no-charge and Refund confirms refunded', () => {
    expect(confirmStatusOf.noCharge).toBe('no-charge');
    expect(confirmStatusOf.refund).toBe('refunded');
  });

  it('Submit for Match confirms submitted: reprocessing would put a recurring gift back on hold', () => {
    expect(confirmStatusOf.submitForMatch).toBe('submitted');
  });
});

describe('the question before a billing action', () => {
  it('says what Submitted will bill on a per-match plan, and that nothing changes on a flat one', () => {
    expect(billingQuestion('submitted', { matched: 200, billing_rate: 0.05 }).question).toBe(
      'Mark this match Submitted? It will count on this month’s bill: $10.00 (5% of its estimated match of $200.00).',
    );
    expect(billingQuestion('submitted', { matched: 200, billing_rate: null }).question).toBe(
      'Mark this match Submitted? Your plan bills nothing per match, so no bill changes.',
    );
  });

  it('says a refund is credited and final, and No Charge keeps the match off every bill', () => {
    expect(billingQuestion('refund', { matched: 150, billing_rate: 0.03 })).toEqual({
      question:
        'Refund this match? $4.50 (3% of its estimated match of $150.00) is credited on this month’s bill. A refund cannot be undone.',
      confirm: 'Yes, Refund',
    });
    expect(billingQuestion('noCharge', { matched: 150, billing_rate: 0.03 }).question).toBe(
      'Mark this match No Charge? It will not count on any bill.',
    );
  });
});
