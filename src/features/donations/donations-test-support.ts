/**
 * Fixtures for the <twofold-donations> browser tests: a signed-in user with a current
 * organization (the element starts the session itself), donations in the list's shape, and a
 * fetch stand-in (the shared one, which sees query strings and multipart bodies) that also answers
 * the session's own calls.
 */
import { type Call, jsonResponse, mockApi as mockAnyApi } from '../../../elements/browser-test-support.ts';
import type { ImportTestResponse } from '../../contract/donation-import.ts';
import type { Donation, DonationListResponse } from '../../contract/donations.ts';
import { emptyOrganization, type Organization } from '../../contract/organization.ts';
import { testMatch } from '../match-dialog/test-match.ts';

export const orgId = 7;

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A token the browser accepts (it only decodes it; the mocked server never checks it). */
export function signedIn(): void {
  const claims = {
    sub: '1',
    purpose: 'access',
    exp: Math.floor(Date.now() / 1000) + 3600,
    iat: Math.floor(Date.now() / 1000),
  };
  localStorage.setItem('auth_token', `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.sig`);
  localStorage.setItem('currentOrganizationId', String(orgId));
}

export const me = {
  id: 1,
  email: 'writer@twofold.test',
  name: 'Wren Writer',
  globalPermission: false,
  orgs: [{ id: orgId, name: 'Hope Harbor Foundation' }],
};

export function organizationResponse(level: 'read' | 'write' | 'admin', fields: Partial<Organization> = {}) {
  return {
    organization: {
      ...emptyOrganization,
      id: orgId,
      name: 'Hope Harbor Foundation',
      complete: true,
      ...fields,
    },
    accessibleOrganizations: [
      { id: orgId, name: 'Hope Harbor Foundation', parent_id: null, file_logo: null },
    ],
    level,
  };
}

export function donation(id: number, fields: Partial<Donation> = {}): Donation {
  return testMatch({
    id,
    transaction_id: `T-${id}`,
    donated_at: '2025-03-01T00:00:00.000Z',
    amount: 1200,
    matched: 1200,
    status: { id: 2, name: 'Match Request Under Review', billing_status: 'ineligible' },
    status_id: 2,
    donor: { id: 100 + id, name: `Donor ${id}`, email: `donor${id}@example.org` },
    donor_id: 100 + id,
    donor_name: `Donor ${id}`,
    company: null,
    company_id: null,
    company_name: 'Acme Corp',
    organization: { id: orgId, name: 'Hope Harbor Foundation' },
    organization_id: orgId,
    custom: {},
    created_at: '2025-03-02T00:00:00.000Z',
    updated_at: '2025-03-02T00:00:00.000Z',
    ...fields,
  });
}

export function listResponse(total: number, count = Math.min(total, 25)): DonationListResponse {
  return {
    donations: Array.from({ length: count }, (_, i) => donation(i + 1)),
    total,
    counts: { donor_contacted: 11, npo_verify: 22, engaged_submitted: 33, no_response: 44 },
  };
}

export function importTest(fields: Partial<ImportTestResponse> = {}): ImportTestResponse {
  return {
    map: { gift_amount: 'amount', date: 'donated_at', email: 'donor.email', employer: 'company.name' },
    headers: ['gift_amount', 'date', 'email', 'employer'],
    original_headers: ['Gift Amount', 'Date', 'Email', 'Employer'],
    sample: [
      { gift_amount: '$1,200.00', date: '03/01/2025', email: 'ann@example.org', employer: 'Acme' },
      { gift_amount: '50', date: '2025-03-02', email: 'bo@example.org', employer: 'Globex' },
    ],
    rows: 3,
    errors: [{ row: 4, reason: 'Amount is not a number' }],
    ready: 2,
    duplicates: 0,
    organization: { id: orgId, name: 'Hope Harbor Foundation', children: [] },
    ...fields,
  };
}

export type { Call };
export const json = jsonResponse;

/**
 * Answers the session and organization calls itself and hands everything else to `handler`.
 * Returns the calls the handler saw.
 */
export function mockApi(
  handler: (call: Call) => Response | Promise<Response>,
  level: 'read' | 'write' | 'admin' = 'write',
  organization: Partial<Organization> = {},
): Call[] {
  const calls: Call[] = [];
  mockAnyApi((call) => {
    if (call.path === '/api/common') return json(200, me);
    if (call.path === `/api/organization/${orgId}`)
      return json(200, organizationResponse(level, organization));
    calls.push(call);
    return handler(call);
  });
  return calls;
}

/** The list calls among `calls`, newest last. */
export function listCalls(calls: Call[]): Call[] {
  return calls.filter((c) => c.url.pathname === `/api/organization/${orgId}/donation`);
}
