import type { EmployerSuggestion } from '../../../src/contract/employers.ts';
import type { Queryable } from '../../db/client.ts';
import { identifyEmployer } from './identify.ts';

/**
 * "Is this your employer?" on the public match request: the company the donor's email domain
 * names, by the identification service with the email alone (no typed text, no earlier gifts:
 * an anonymous caller learns nothing but the catalogue's domains).
 */
export async function suggestEmployer(db: Queryable, email: string): Promise<EmployerSuggestion> {
  const found = await identifyEmployer(db, { email: email.trim() });
  return found.company_id !== null && found.company_name !== null && found.method === 'domain'
    ? { company: { id: found.company_id, name: found.company_name }, reason: found.reason }
    : { company: null, reason: null };
}
