import * as z from 'zod/mini';
import { permissionLevels } from './access.ts';
import { ApiKey, type WebhookEventName, webhookEventNames } from './integration-records.ts';

/** spec (part 1, section 3): types non-profit and edu-pto; countries US and CA. */
export const organizationTypes = [
  { value: 'non-profit', label: 'Nonprofit' },
  { value: 'edu-pto', label: 'Gradeschool or PTA' },
] as const;
export const OrganizationType = z.enum(['non-profit', 'edu-pto', 'chapter']);
export const countries = ['US', 'CA'] as const;

export const Address = z.object({
  id: z.nullable(z.number()),
  street: z.string(),
  street2: z.nullable(z.string()),
  city: z.string(),
  state: z.nullable(z.string()),
  zip: z.nullable(z.string()),
  country: z.string(),
});
export type Address = z.infer<typeof Address>;

export const OrgUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  level: z.enum(permissionLevels),
  /** An existing account invited to the organization that has not accepted yet (no access until then). */
  pending: z.optional(z.boolean()),
  /**
   * Whether an admin may change this user's name and email: the account belongs to no other
   * organization and is not a super user's. (A super user may change any.)
   */
  editable: z.optional(z.boolean()),
});

export const Document = z.object({
  id: z.number(),
  name: z.string(),
  file: z.string(),
  uploaded_date: z.string(),
});

export const ShadowedPermission = z.object({
  user: z.object({ id: z.number(), name: z.string(), email: z.string() }),
  level: z.enum(permissionLevels),
  /** The ancestor organization the level is held on. */
  organization_id: z.number(),
});

/**
 * spec (part 1, section 3, Organization). Every field of the portal-side record; the defaults the
 * browser shows before it is loaded are `emptyOrganization` below.
 */
/** spec: user_permissions, item type not shown: one user's level on this organization. */
export const UserPermission = z.object({
  user_id: z.number(),
  org_id: z.number(),
  level: z.enum(permissionLevels),
});
export type UserPermission = z.infer<typeof UserPermission>;

/** A webhook as the organization record shows it: where it posts and how that went, no credentials. */
export const OrganizationWebhook = z.object({
  id: z.number(),
  url: z.string(),
  event: z.enum(webhookEventNames as [WebhookEventName, ...WebhookEventName[]]),
  last_code: z.nullable(z.number()),
});
export type OrganizationWebhook = z.infer<typeof OrganizationWebhook>;

/** spec: active_integrations, item type not shown: an integration in use and how many of it. */
export const ActiveIntegration = z.object({ name: z.enum(['api', 'webhooks']), count: z.number() });
export type ActiveIntegration = z.infer<typeof ActiveIntegration>;

export const Organization = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  ein: z.string(),
  url: z.string(),
  phone: z.string(),
  fax: z.string(),
  stripe_customer_id: z.string(),
  cancelled_at: z.string(),
  cancel_reason: z.string(),
  public_key: z.string(),
  country: z.string(),
  plan: z.string(),
  is_premium: z.union([z.boolean(), z.literal('parent')]),
  is_twofold_client: z.boolean(),
  rule_show_billing: z.boolean(),
  rule_deactivated: z.boolean(),
  rule_invoiced: z.boolean(),
  complete: z.boolean(),
  default_contract: z.boolean(),
  fetched_details: z.boolean(),
  address_id: z.nullable(z.number()),
  creator_id: z.nullable(z.number()),
  client_id: z.nullable(z.number()),
  parent_id: z.nullable(z.number()),
  mission: z.nullable(z.string()),
  /** Write-only: the server never returns it; `has_private_key` says whether one is stored. */
  private_key: z.null(),
  has_private_key: z.boolean(),
  file_w9: z.nullable(z.string()),
  file_irs: z.nullable(z.string()),
  file_logo: z.nullable(z.string()),
  /** The live keys (admins only, else empty): their first characters, never the whole key. */
  api_keys: z.array(ApiKey),
  documents: z.array(Document),
  category_id_array: z.array(z.number()),
  /** The permissions held on this organization itself (a parent's reach chapters: shadowedPermissions). */
  user_permissions: z.array(UserPermission),
  /** The webhooks (admins only, else empty), without their bearer token or signing secret. */
  webhooks: z.array(OrganizationWebhook),
  /** The integrations in use: live API keys, webhooks with a URL. */
  active_integrations: z.array(ActiveIntegration),
  users: z.array(OrgUser),
  address: z.union([Address, z.object({})]),
  notify_contact: z.object({
    name: z.optional(z.string()),
    email: z.optional(z.string()),
    phone: z.optional(z.string()),
  }),
  children: z.record(z.string(), z.object({ id: z.number(), name: z.string() })),
  email_who: z.enum(['all', 'company']),
  email_min: z.number(),
  /** Issue 31: the employer identification's settings (see OrganizationPatch). */
  employer_threshold: z.optional(z.number()),
  correct_email_typos: z.optional(z.boolean()),
  donate_url: z.nullable(z.string()),
  custom: z.record(z.string(), z.unknown()),
  onboarded: z.nullable(z.string()),
  needed: z.array(z.string()),
  shadowedPermissions: z.array(ShadowedPermission),
});
export type Organization = z.infer<typeof Organization>;

/** A row of a list or search of organizations. */
export const OrganizationSummary = z.object({
  id: z.number(),
  name: z.string(),
  parent_id: z.nullable(z.number()),
  file_logo: z.nullable(z.string()),
});
export type OrganizationSummary = z.infer<typeof OrganizationSummary>;

/** GET /api/organization/{id} */
export const OrganizationResponse = z.object({
  organization: Organization,
  /** The organization itself and its chapters, all of which the caller may reach. */
  accessibleOrganizations: z.array(OrganizationSummary),
  /** The caller's effective level on this organization (super users: admin). */
  level: z.enum(permissionLevels),
});
export type OrganizationResponse = z.infer<typeof OrganizationResponse>;

/** GET /api/search/organization?term= */
export const OrganizationSearchQuery = z.object({ term: z.optional(z.string().check(z.maxLength(200))) });
export const OrganizationSearchResponse = z.object({ organizations: z.array(OrganizationSummary) });
export type OrganizationSearchResponse = z.infer<typeof OrganizationSearchResponse>;

/** spec: "Organization not found: 'Organization with id {id} not found'." */
export const organizationNotFound = (id: number | string) => `Organization with id ${id} not found`;

/** spec (part 1, section 3): the defaults before the organization is loaded. */
export const emptyOrganization: Omit<Organization, 'id'> & { id: number | null } = {
  id: null,
  name: '',
  type: '',
  ein: '',
  url: '',
  phone: '',
  fax: '',
  stripe_customer_id: '',
  cancelled_at: '',
  cancel_reason: '',
  public_key: '',
  country: '',
  plan: '',
  is_premium: false,
  is_twofold_client: false,
  rule_show_billing: false,
  rule_deactivated: false,
  rule_invoiced: false,
  complete: false,
  default_contract: false,
  fetched_details: false,
  address_id: null,
  creator_id: null,
  client_id: null,
  parent_id: null,
  mission: null,
  private_key: null,
  has_private_key: false,
  file_w9: null,
  file_irs: null,
  file_logo: null,
  api_keys: [],
  documents: [],
  category_id_array: [],
  user_permissions: [],
  webhooks: [],
  active_integrations: [],
  users: [],
  address: {},
  notify_contact: {},
  children: {},
  email_who: 'all',
  email_min: 0,
  donate_url: null,
  custom: {},
  onboarded: null,
  needed: [],
  shadowedPermissions: [],
};
