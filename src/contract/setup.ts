import type { Organization } from './organization.ts';

/** spec (part 1, section 2, Dashboard setup card): the steps, in this order. */
export const setupSteps = [
  'details',
  'categories',
  'communication',
  'address',
  'documents',
  'billing',
] as const;
export type SetupStep = (typeof setupSteps)[number];

type SetupFields = Pick<
  Organization,
  | 'name'
  | 'type'
  | 'phone'
  | 'mission'
  | 'url'
  | 'address_id'
  | 'category_id_array'
  | 'file_logo'
  | 'is_premium'
  | 'needed'
>;

/** spec (part 1, section 5, Setup checks): which checklist steps show. */
const isNeeded: Record<SetupStep, (o: SetupFields) => boolean> = {
  details: (o) => [o.name, o.type, o.phone, o.mission, o.url].some((v) => !v),
  categories: (o) => !(o.category_id_array.length > 0 || o.type === 'chapter'),
  communication: (o) => o.needed.includes('billing_contact') || o.needed.includes('donor_contact'),
  address: (o) => o.address_id == null,
  documents: (o) => !(o.file_logo || o.type === 'chapter'),
  billing: (o) => !(o.is_premium && o.is_premium !== 'parent'),
};

export function remainingSetupSteps(organization: SetupFields): SetupStep[] {
  return setupSteps.filter((step) => isNeeded[step](organization));
}

/** Where each step's Configure button leads: the matching Organization Details tab. */
export const setupStepLinks: Record<SetupStep, string> = {
  details: '/portal/organization-details?tab=basic',
  categories: '/portal/organization-details?tab=categories',
  communication: '/portal/organization-details?tab=contact',
  address: '/portal/organization-details?tab=address',
  documents: '/portal/organization-details?tab=files',
  billing: '/portal/billing',
};

/** spec (part 1, section 1): "/match/{organization name in lowercase, with the first space replaced by a hyphen}". */
export function matchPagePath(name: string): string {
  return `/match/${name.toLowerCase().replace(' ', '-')}`;
}
