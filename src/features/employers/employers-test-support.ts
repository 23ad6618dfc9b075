import { mount } from '../../../elements/browser-test-support.ts';
import type { EmployerReview } from '../../contract/employers.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

/** What the Employers screen's browser tests share: two reviews, and the element over a mocked API. */

export const review = (id: number, name: string, company: string): EmployerReview => ({
  id,
  donation_id: 100 + id,
  donor_name: name,
  donor_email: `${name.toLowerCase().replace(' ', '.')}@acme-analytics.example.com`,
  typed: 'Birch Bank',
  amount_cents: 12_000,
  company_id: 5,
  company_name: company,
  method: 'domain',
  confidence: 60,
  reason: "email domain acme-analytics.example.com, but typed 'Birch Bank', the name of Birch Bank",
  status: 'pending',
});

export async function setup(level: 'read' | 'write' = 'write') {
  for (const el of document.querySelectorAll('twofold-employers, twofold-toaster')) el.remove();
  let pending = [review(1, 'Ann One', 'Acme Analytics'), review(2, 'Bo Two', 'Acme Analytics')];
  let screening: unknown = null;
  const finished = {
    id: 1,
    status: 'done',
    total: 4,
    processed: 4,
    applied: 2,
    to_review: 2,
    error: null,
    created_at: '2026-11-27T12:00:00.000Z',
    finished_at: '2026-11-27T12:00:01.000Z',
  };
  const base = `/api/organization/${orgId}/employers`;
  const calls = mockApi((call) => {
    if (call.path === `${base}/summary`)
      return json(200, {
        found: { domain: 3, name: 5, alias: 0, history: 0, person: 1, unrecorded: 0 },
        missing: pending.length,
        to_review: pending.length,
      });
    if (call.path === `${base}/screenings/latest`) return json(200, { screening });
    if (call.path === `${base}/screenings` && call.method === 'POST') {
      // The run stays under way, halfway, until the test finishes it: its progress is on screen
      // for as long as the test needs to see it, however slow the machine.
      screening = { ...finished, status: 'running', processed: 2, finished_at: null };
      return json(202, { screening });
    }
    if (call.path === `${base}/reviews`) return json(200, { reviews: pending, total: pending.length });
    if (call.path === `${base}/reviews/decide` && call.method === 'POST') {
      const body = call.body as { ids: number[]; action: string };
      pending = pending.filter((r) => !body.ids.includes(r.id));
      return json(200, {
        accepted: body.action === 'accept' ? body.ids.length : 0,
        corrected: 0,
        rejected: body.action === 'reject' ? body.ids.length : 0,
        skipped: 0,
      });
    }
    return json(404, { message: 'Not found' });
  }, level);
  await mount('twofold-toaster');
  const el = await mount('twofold-employers');
  return {
    el,
    root: el.shadowRoot as ShadowRoot,
    calls,
    /** The run started by Find employers is over: the next poll reads its outcome. */
    finishScreening: () => {
      screening = finished;
    },
  };
}
