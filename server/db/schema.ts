import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * The transaction setting a request's transactions carry its id in (server/db/client.ts); rows a
 * request queues for a worker take it as their request_id by default.
 */
export const requestIdSetting = 'twofold.request_id';

/** A queued job's request id: the setting of the transaction that inserted it, else null. */
const requestIdColumn = () =>
  text('request_id').default(sql.raw(`nullif(current_setting('${requestIdSetting}', true), '')`));

/** Staff accounts. Emails are stored lowercased; the unique index is on lower(email) as a guard. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    /** argon2id; null until the user sets a password (invited users sign in by magic link). */
    password_hash: text('password_hash'),
    /** spec: super users ("a global permission") may act on any organization. */
    global_permission: boolean('global_permission').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
);

export const addresses = pgTable('addresses', {
  id: serial('id').primaryKey(),
  street: text('street').notNull(),
  street2: text('street2'),
  city: text('city').notNull(),
  state: text('state'),
  zip: text('zip'),
  country: text('country').notNull(),
  ...timestamps,
});

/** spec (part 1, section 3, Organization): every stored field of the portal-side record. */
export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** non-profit, edu-pto or chapter. */
    type: text('type').notNull().default(''),
    ein: text('ein'),
    url: text('url'),
    phone: text('phone'),
    fax: text('fax'),
    mission: text('mission'),
    country: text('country'),
    plan: text('plan'),
    /** spec: "is_premium (it may also hold the value 'parent')": 'true', 'false' or 'parent'. */
    is_premium: text('is_premium').notNull().default('false'),
    is_twofold_client: boolean('is_twofold_client').notNull().default(false),
    rule_show_billing: boolean('rule_show_billing').notNull().default(false),
    rule_deactivated: boolean('rule_deactivated').notNull().default(false),
    rule_invoiced: boolean('rule_invoiced').notNull().default(false),
    complete: boolean('complete').notNull().default(false),
    default_contract: boolean('default_contract').notNull().default(false),
    fetched_details: boolean('fetched_details').notNull().default(false),
    /** Chapters point at their parent organization. */
    parent_id: integer('parent_id').references((): AnyPgColumn => organizations.id, { onDelete: 'set null' }),
    address_id: integer('address_id').references(() => addresses.id, { onDelete: 'set null' }),
    creator_id: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    client_id: integer('client_id'),
    stripe_customer_id: text('stripe_customer_id'),
    /**
     * The Stripe subscription's status as its last webhook event said ('active', 'past_due',
     * 'unpaid', 'canceled', ...), and since when (issue #27); null before any subscription.
     */
    subscription_status: text('subscription_status'),
    subscription_status_at: timestamp('subscription_status_at', { withTimezone: true }),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    cancel_reason: text('cancel_reason'),
    public_key: text('public_key'),
    /** Write-only: never returned by the API. */
    private_key_encrypted: text('private_key_encrypted'),
    file_w9: text('file_w9'),
    file_irs: text('file_irs'),
    file_logo: text('file_logo'),
    /** spec: 'all' (default) or 'company' (only donors who entered an employer are emailed). */
    email_who: text('email_who').notNull().default('all'),
    email_min: integer('email_min').notNull().default(0),
    donate_url: text('donate_url'),
    custom: jsonb('custom').$type<Record<string, unknown>>().notNull().default({}),
    onboarded: timestamp('onboarded', { withTimezone: true }),
    needed: jsonb('needed').$type<string[]>().notNull().default([]),
    notify_contact: jsonb('notify_contact')
      .$type<{ name?: string; email?: string; phone?: string }>()
      .notNull()
      .default({}),
    /**
     * Employer identification (issue #31): an answer at or above this confidence (percent) is
     * applied to a match by itself; one below waits in the review list for a person.
     */
    employer_threshold: integer('employer_threshold').notNull().default(80),
    /** Donor emails with a plainly misspelt common domain (gmial.com) are corrected on the way in. */
    correct_email_typos: boolean('correct_email_typos').notNull().default(true),
    /**
     * Issue #24: everyone with access to the organization (and its chapters) must sign in with a
     * second factor; a session without one reaches nothing but the account page until they enrol.
     */
    require_two_factor: boolean('require_two_factor').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('organizations_parent_id_idx').on(t.parent_id),
    check('organizations_employer_threshold_range', sql`${t.employer_threshold} between 50 and 100`),
    index('organizations_name_lower_idx').on(sql`lower(${t.name})`),
    check('organizations_is_premium_values', sql`${t.is_premium} in ('true', 'false', 'parent')`),
    check('organizations_email_who_values', sql`${t.email_who} in ('all', 'company')`),
    check('organizations_not_own_parent', sql`${t.parent_id} is null or ${t.parent_id} <> ${t.id}`),
  ],
);

/** spec (both documents, section 3): the category catalogue; ids are the spec's. */
export const categories = pgTable('categories', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
});

export const organizationCategories = pgTable(
  'organization_categories',
  {
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    category_id: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.category_id] })],
);

/** A user's level on one organization (it also applies to the organization's chapters). */
export const permissions = pgTable(
  'permissions',
  {
    id: serial('id').primaryKey(),
    org_id: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: text('level').$type<'read' | 'write' | 'admin'>().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('permissions_org_user_unique').on(t.org_id, t.user_id),
    index('permissions_user_id_idx').on(t.user_id),
    check('permissions_level_values', sql`${t.level} in ('read', 'write', 'admin')`),
  ],
);

export const tokenPurposes = ['magic_link', 'password_reset', 'set_password', 'donor_link'] as const;
export type TokenPurpose = (typeof tokenPurposes)[number];

/**
 * One-time tokens (magic links, password resets, invitations, donor links). Only the SHA-256 of
 * the token is stored; the token itself exists only in the email that carries it. A donor link
 * belongs to no user: its data names the match and the donor's email.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose').$type<TokenPurpose>().notNull(),
    /** The staff user; null only for donor links (donors have no account). */
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_unique').on(t.token_hash),
    index('one_time_tokens_user_purpose_idx').on(t.user_id, t.purpose),
    check(
      'one_time_tokens_purpose_values',
      sql`${t.purpose} in ('magic_link', 'password_reset', 'set_password', 'donor_link')`,
    ),
    check('one_time_tokens_user_required', sql`${t.user_id} is not null or ${t.purpose} = 'donor_link'`),
  ],
);

export const outboxStatuses = ['pending', 'sent', 'failed'] as const;
/** One attached file of an outbox message: its name in the email, and where storage keeps it. */
export type OutboxAttachment = { filename: string; contentType: 'application/pdf'; file: string };
export type OutboxStatus = (typeof outboxStatuses)[number];

/**
 * Outgoing mail, written in the same transaction as the change that causes it and delivered by
 * the mail worker, so a crash between the two loses nothing.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** Where replies go (the contact form's sender), when not to MAIL_FROM. */
    reply_to: text('reply_to'),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<OutboxStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    last_error: text('last_error'),
    /** Extra headers (a donor email's List-Unsubscribe and List-Unsubscribe-Post). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** Files sent with the message (a signed packet to a company), read from file storage when sent. */
    attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
    /**
     * The organization a donor email is sent for: the mail worker picks its sender (the
     * organization's verified domain, DKIM-signed, or the platform address) when it sends it, not
     * when it was queued. Null: a staff or system email, sent from MAIL_FROM.
     */
    organization_id: integer('organization_id').references((): AnyPgColumn => organizations.id, {
      onDelete: 'set null',
    }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    /**
     * The request that queued it (X-Request-Id), so the worker's log lines about it repeat that id:
     * filled by the database from the transaction's twofold.request_id setting (server/db/client.ts).
     */
    request_id: requestIdColumn(),
  },
  (t) => [
    index('outbox_due_idx').on(t.status, t.next_attempt_at),
    check('outbox_status_values', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
);

/** Messages sent through the public contact form (they are also mailed to the support address). */
export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  organization: text('organization').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Captcha challenges already used once, kept until they expire so a solution cannot be replayed.
 * Keyed by the challenge's signature (unique per issued challenge).
 */
export const usedCaptchas = pgTable(
  'used_captchas',
  {
    signature: text('signature').primaryKey(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_captchas_expires_idx').on(t.expires_at)],
);

/** An organization's uploaded documents; `file` is the storage name (random, never user input). */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    org_id: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    file: text('file').notNull(),
    content_type: text('content_type').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('documents_org_id_idx').on(t.org_id)],
);

/** spec (part 1, section 3, Notifee): extra addresses that receive an organization's notification emails. */
export const notifees = pgTable(
  'notifees',
  {
    id: serial('id').primaryKey(),
    org_id: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Stored lowercased, like users' emails. */
    email: text('email').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notifees_org_email_unique').on(t.org_id, t.email)],
);

/**
 * The companies catalogue (spec part 2, section 3: match_method, guide, url, verify) with the
 * policy the status resolution reads (server/modules/donations/status-resolution.ts).
 */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** form, mail, esign, paper, contact or csr; null when the policy does not say. */
    match_method: text('match_method'),
    guide: text('guide'),
    url: text('url'),
    /** both, email or phone. */
    verify: text('verify'),
    /** matching, none, incomplete or company-site-only. */
    program: text('program').notNull().default('matching'),
    minimum_match_cents: integer('minimum_match_cents'),
    maximum_match_cents: integer('maximum_match_cents'),
    /** Company dollars per donor dollar. */
    match_ratio: text('match_ratio').notNull().default('1'),
    deadline_rule: text('deadline_rule').notNull().default('none'),
    deadline_days: integer('deadline_days'),
    csr_vendor: text('csr_vendor'),
    /** Where the company takes signed matching gift forms by email (e-sign companies). */
    forms_email: text('forms_email'),
    /** The mailing address original-signature forms are posted to (lines separated by newlines). */
    forms_address: text('forms_address'),
    excluded_organization_types: jsonb('excluded_organization_types').$type<string[]>().notNull().default([]),
    /** Ids from the category catalogue (src/contract/categories.ts) the company's program matches. */
    categories: jsonb('categories').$type<number[]>().notNull().default([]),
    /**
     * A subsidiary's parent company: its employees are matched by the parent's program, so the
     * employer identification names the parent (issue #31).
     */
    parent_id: integer('parent_id').references((): AnyPgColumn => companies.id, { onDelete: 'set null' }),
    /**
     * The name as the employer identification compares it (employer_key(), migration 0032), kept
     * by the database: its trigram index finds misspelt names without recomputing every key.
     */
    name_key: text('name_key').generatedAlwaysAs(sql`employer_key(name)`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('companies_name_lower_unique').on(sql`lower(${t.name})`),
    index('companies_name_key_idx').on(t.name_key),
    index('companies_name_key_trgm_idx').using('gin', t.name_key.op('gin_trgm_ops')),
    index('companies_parent_idx').on(t.parent_id).where(sql`${t.parent_id} is not null`),
    check('companies_not_own_parent', sql`${t.parent_id} is null or ${t.parent_id} <> ${t.id}`),
    check(
      'companies_match_method_values',
      sql`${t.match_method} is null or ${t.match_method} in ('form', 'mail', 'esign', 'paper', 'contact', 'csr')`,
    ),
    check('companies_verify_values', sql`${t.verify} is null or ${t.verify} in ('both', 'email', 'phone')`),
    check(
      'companies_program_values',
      sql`${t.program} in ('matching', 'none', 'incomplete', 'company-site-only')`,
    ),
    check(
      'companies_deadline_rule_values',
      sql`${t.deadline_rule} in ('none', 'days-after-gift', 'year-end', 'next-year-end')`,
    ),
  ],
);

/**
 * The email domains a company's staff write from (issue #31): a donor at the domain or one of its
 * subdomains works there. Stored lowercased, without a leading 'www.'; one company per domain.
 */
export const companyDomains = pgTable(
  'company_domains',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_domains_domain_unique').on(t.domain),
    index('company_domains_company_idx').on(t.company_id),
    check('company_domains_domain_lowercase', sql`${t.domain} = lower(${t.domain})`),
  ],
);

/**
 * Other names a company goes by (abbreviations, former names, brands). Matched by the same
 * normalized key and trigram similarity as its name (employer_key(), migration 0032).
 */
export const companyAliases = pgTable(
  'company_aliases',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    alias: text('alias').notNull(),
    /** The alias as the employer identification compares it (see companies.name_key). */
    alias_key: text('alias_key').generatedAlwaysAs(sql`employer_key(alias)`),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_aliases_company_alias_unique').on(t.company_id, sql`lower(${t.alias})`),
    index('company_aliases_alias_key_idx').on(t.alias_key),
    index('company_aliases_alias_key_trgm_idx').using('gin', t.alias_key.op('gin_trgm_ops')),
  ],
);

/** One field of a company that changed: its value before and after (as the API shows them). */
export type CompanyFieldChange = { field: string; from: unknown; to: unknown };

/** The history of a company's programme: who saved what, when (a super user's edit or an accepted suggestion). */
export const companyChanges = pgTable(
  'company_changes',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Who saved it; null once that account is gone (the row stays: the history is the company's). */
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    changes: jsonb('changes').$type<CompanyFieldChange[]>().notNull(),
    /** The staff suggestion this change applied, when it came from one. */
    suggestion_id: integer('suggestion_id').references((): AnyPgColumn => companySuggestions.id, {
      onDelete: 'set null',
    }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('company_changes_company_idx').on(t.company_id, t.created_at)],
);

/** A staff member's correction to a company's programme, waiting for a super user's review. */
export const companySuggestions = pgTable(
  'company_suggestions',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The proposed values, by field (only the fields the suggestion changes). */
    proposed: jsonb('proposed').$type<Record<string, unknown>>().notNull(),
    note: text('note'),
    /** pending, accepted or rejected. */
    status: text('status').notNull().default('pending'),
    reviewed_by: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    review_note: text('review_note'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('company_suggestions_status_idx').on(t.status, t.created_at),
    check('company_suggestions_status_values', sql`${t.status} in ('pending', 'accepted', 'rejected')`),
  ],
);

/**
 * A matching campaign (spec part 2, sections 2, 3 and 9; issue 12): a time-boxed matching offer
 * from one company to one organization (a match day, a year-end push). A gift at that company
 * donated within its days (UTC, both ends included) takes its ratio and limits for its estimated
 * match (server/modules/donations/status-resolution.ts). spec: "a max of 0 means no maximum";
 * "Campaign min and max default to 0"; a null ratio is the company's own.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    start_date: date('start_date', { mode: 'string' }).notNull(),
    end_date: date('end_date', { mode: 'string' }).notNull(),
    min_cents: integer('min_cents').notNull().default(0),
    /** 0: no maximum. */
    max_cents: integer('max_cents').notNull().default(0),
    /** As typed ('2:1', '1.5:1'); null: the company's ratio. */
    match_ratio: text('match_ratio'),
    group_submit: boolean('group_submit').notNull().default(false),
    bill_eligible: boolean('bill_eligible').notNull().default(false),
    bill_processed: boolean('bill_processed').notNull().default(false),
    message: text('message').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    // The estimate's lookup: the organization's campaigns of one company, by their days.
    index('campaigns_org_company_idx').on(t.organization_id, t.company_id, t.start_date),
    check('campaigns_dates_order', sql`${t.end_date} >= ${t.start_date}`),
    check('campaigns_amounts_nonnegative', sql`${t.min_cents} >= 0 and ${t.max_cents} >= 0`),
    check('campaigns_min_within_max', sql`${t.max_cents} = 0 or ${t.min_cents} <= ${t.max_cents}`),
  ],
);

/** The people who gave, per organization (a donor of two nonprofits is two rows). */
export const donors = pgTable(
  'donors',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name'),
    /** Stored lowercased. */
    email: text('email'),
    phone: text('phone'),
    ...timestamps,
  },
  (t) => [
    index('donors_org_email_idx').on(t.organization_id, t.email),
    // A payout report names donors by name as often as by email (server/modules/payouts/).
    index('donors_org_name_idx').on(t.organization_id, sql`lower(${t.name})`),
  ],
);

/** spec (part 2, section 3): the donation/match. Amounts are integer cents. */
export const donations = pgTable(
  'donations',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    donor_id: integer('donor_id').references(() => donors.id, { onDelete: 'set null' }),
    company_id: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    /** The campaign whose terms made its estimated match (set with the estimate), if any. */
    campaign_id: integer('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    /** The employer as entered (kept when no catalogue company matches). */
    company_name: text('company_name'),
    amount_cents: integer('amount_cents').notNull(),
    matched_cents: integer('matched_cents').notNull().default(0),
    donated_at: timestamp('donated_at', { withTimezone: true }).notNull(),
    transaction_id: text('transaction_id'),
    status_id: integer('status_id').notNull(),
    custom: jsonb('custom').$type<Record<string, unknown>>().notNull().default({}),
    recurring_id: text('recurring_id'),
    /** spec: "inert (1 = external match)". */
    inert: integer('inert').notNull().default(0),
    silenced: boolean('silenced').notNull().default(false),
    /** The bill the refund is credited on (see server/modules/billing/bills.ts). */
    refunded_bill_id: integer('refunded_bill_id').references((): AnyPgColumn => bills.id, {
      onDelete: 'set null',
    }),
    /** The month's bill this match counts on, once submitted on a per-match plan. */
    eligible_bill_id: integer('eligible_bill_id').references((): AnyPgColumn => bills.id, {
      onDelete: 'set null',
    }),
    /** The same bill once issued. */
    processed_bill_id: integer('processed_bill_id').references((): AnyPgColumn => bills.id, {
      onDelete: 'set null',
    }),
    adobe_sign_signing_url: text('adobe_sign_signing_url'),
    /** What the company actually paid (a payout report line, server/modules/payouts/), in cents. */
    paid_cents: integer('paid_cents'),
    /** The day the company paid it (the report's payment date). */
    paid_at: date('paid_at', { mode: 'string' }),
    /**
     * How the company was found (issue #31): domain, name, alias, history or person (staff chose
     * it, or entered it as a catalogue company); null while no company is known.
     */
    employer_method: text('employer_method'),
    /** The identification's confidence, percent; null with employer_method. */
    employer_confidence: integer('employer_confidence'),
    /** What a person reads: "email domain acme-analytics.example.com". */
    employer_reason: text('employer_reason'),
    ...timestamps,
  },
  (t) => [
    // The list's orders within an organization, tie-broken by id (see pageInIndexOrder).
    index('donations_org_donated_idx').on(t.organization_id, t.donated_at.desc(), t.id.desc()),
    // Also donations_org_donated_stats_idx (organization_id, donated_at) INCLUDE (status_id,
    // amount_cents, matched_cents), for the dashboard's statistics: a custom migration (0014).
    index('donations_org_amount_idx').on(t.organization_id, t.amount_cents, t.id),
    index('donations_org_status_idx').on(t.organization_id, t.status_id),
    // The dashboard's received figures read only the paid matches (payout reports).
    index('donations_org_paid_idx')
      .on(t.organization_id, t.donated_at)
      .where(sql`${t.paid_cents} is not null`),
    index('donations_donor_idx').on(t.donor_id),
    index('donations_company_idx').on(t.company_id),
    index('donations_campaign_idx').on(t.campaign_id).where(sql`${t.campaign_id} is not null`),
    index('donations_eligible_bill_idx').on(t.eligible_bill_id).where(sql`${t.eligible_bill_id} is not null`),
    index('donations_org_recurring_idx')
      .on(t.organization_id, t.recurring_id)
      .where(sql`${t.recurring_id} is not null`),
    uniqueIndex('donations_org_transaction_unique')
      .on(t.organization_id, t.transaction_id)
      .where(sql`${t.transaction_id} is not null`),
    check('donations_amount_nonnegative', sql`${t.amount_cents} >= 0`),
    check(
      'donations_employer_method_values',
      sql`${t.employer_method} is null or ${t.employer_method} in ('domain', 'name', 'alias', 'history', 'person')`,
    ),
  ],
);

/** The kinds of a match's employer history (issue #31). */
export const employerEventKinds = [
  'identified',
  'email_corrected',
  'accepted',
  'corrected',
  'rejected',
] as const;
export type EmployerEventKind = (typeof employerEventKinds)[number];

/**
 * A match's employer history: the company the identification found (and how), a donor email
 * corrected on the way in (the original kept here), and what staff decided in the review list.
 */
export const donationEmployerEvents = pgTable(
  'donation_employer_events',
  {
    id: serial('id').primaryKey(),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<EmployerEventKind>().notNull(),
    company_id: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    method: text('method'),
    confidence: integer('confidence'),
    reason: text('reason'),
    /** email_corrected: the address as given, and as corrected. */
    email_from: text('email_from'),
    email_to: text('email_to'),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source').$type<StatusChangeSource>().notNull().default('staff'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('donation_employer_events_donation_idx').on(t.donation_id, t.at),
    check(
      'donation_employer_events_kind_values',
      sql`${t.kind} in ('identified', 'email_corrected', 'accepted', 'corrected', 'rejected')`,
    ),
  ],
);

/**
 * A "Find employers" run over an organization's matches at Missing Company Hold: a durable job
 * (claimed by the polling loop, resumed after a restart) with its progress.
 */
export const employerScreenings = pgTable(
  'employer_screenings',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** queued, running, done or failed. */
    status: text('status').notNull().default('queued'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    applied: integer('applied').notNull().default(0),
    to_review: integer('to_review').notNull().default(0),
    /** The last match id screened: a resumed job goes on after it. */
    last_donation_id: integer('last_donation_id').notNull().default(0),
    error: text('error'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /**
     * The request that queued it (X-Request-Id), so the worker's log lines about it repeat that id:
     * filled by the database from the transaction's twofold.request_id setting (server/db/client.ts).
     */
    request_id: requestIdColumn(),
  },
  (t) => [
    index('employer_screenings_org_idx').on(t.organization_id, t.created_at.desc()),
    index('employer_screenings_open_idx').on(t.id).where(sql`${t.status} in ('queued', 'running')`),
    check('employer_screenings_status_values', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
  ],
);

/** An answer below the organization's threshold, waiting for staff to accept, correct or reject it. */
export const employerReviews = pgTable(
  'employer_reviews',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    screening_id: integer('screening_id').references(() => employerScreenings.id, { onDelete: 'set null' }),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    confidence: integer('confidence').notNull(),
    reason: text('reason').notNull(),
    /** pending, accepted, corrected or rejected. */
    status: text('status').notNull().default('pending'),
    reviewed_by: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('employer_reviews_org_status_idx').on(t.organization_id, t.status, t.id),
    uniqueIndex('employer_reviews_pending_unique').on(t.donation_id).where(sql`${t.status} = 'pending'`),
    check(
      'employer_reviews_status_values',
      sql`${t.status} in ('pending', 'accepted', 'corrected', 'rejected')`,
    ),
  ],
);

/**
 * api: a partner's call to the public API (/api/v1); system: the donor-email workflow (a 2nd
 * reminder left unanswered: Donor No Response).
 */
export const statusChangeSources = ['staff', 'donor', 'public', 'api', 'system'] as const;
export type StatusChangeSource = (typeof statusChangeSources)[number];

/** Every status change of a match: who, when, from, to. */
export const donationStatusHistory = pgTable(
  'donation_status_history',
  {
    id: serial('id').primaryKey(),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    from_status_id: integer('from_status_id'),
    to_status_id: integer('to_status_id').notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Who made the change: staff (user_id says who), the donor on their edit screen, the
     * donor's request on the organization's public matching page, or an integration through the
     * public API (the last three without a user).
     */
    source: text('source').$type<StatusChangeSource>().notNull().default('staff'),
    /** Why, when staff gave a reason (a match declined from the verification queue). */
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('donation_status_history_donation_idx').on(t.donation_id, t.at),
    check(
      'donation_status_history_source_values',
      sql`${t.source} in ('staff', 'donor', 'public', 'api', 'system')`,
    ),
  ],
);

/**
 * The emails sent to a donor about their match (spec: "notifications (id, created_at, subject,
 * first_open)"). The row keeps the message exactly as it went out (without its open-tracking
 * image), so the portal's preview shows what the donor received. Only the SHA-256 of the
 * open-tracking token is stored.
 */
export const donationNotifications = pgTable(
  'donation_notifications',
  {
    id: serial('id').primaryKey(),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    /** The match's organization when it was sent: the weekly limit counts per donor and organization. */
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The status that called for the email (its template). */
    status_id: integer('status_id').notNull(),
    /** Stored lowercased. */
    to_email: text('to_email').notNull(),
    /**
     * What was sent (the HTML without its open-tracking image): null while the email is queued
     * (a bulk import records its emails' facts and renders them after it commits).
     */
    subject: text('subject'),
    html: text('html'),
    text: text('text'),
    outbox_id: integer('outbox_id').references(() => outbox.id, { onDelete: 'set null' }),
    /** Recorded but not yet rendered into the outbox (server/modules/templates/mail-queue.ts). */
    queued: boolean('queued').notNull().default(false),
    open_token_hash: text('open_token_hash').notNull(),
    first_open: timestamp('first_open', { withTimezone: true }),
    /** The template version it was rendered from (its stats count this email). */
    template_id: integer('template_id').references((): AnyPgColumn => emailTemplates.id, {
      onDelete: 'set null',
    }),
    /** 1 the initial email, 2 the 1st reminder, 3 the 2nd reminder (the template's field sets). */
    stage: integer('stage').notNull().default(1),
    /**
     * initial, reminder, deadline (Match Deadline Approaching), expire ('Match About to Expire') or
     * link (a new signing link the donor asked for).
     */
    kind: text('kind').notNull().default('initial'),
    /** When the donor first used the email's confirm or decline link. */
    confirm_clicked_at: timestamp('confirm_clicked_at', { withTimezone: true }),
    decline_clicked_at: timestamp('decline_clicked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The request that queued it (X-Request-Id), so the worker's log lines about it repeat that id:
     * filled by the database from the transaction's twofold.request_id setting (server/db/client.ts).
     */
    request_id: requestIdColumn(),
  },
  (t) => [
    index('donation_notifications_donation_idx').on(t.donation_id, t.created_at.desc()),
    index('donation_notifications_template_idx').on(t.template_id),
    check(
      'donation_notifications_kind_values',
      sql`${t.kind} in ('initial', 'reminder', 'deadline', 'expire', 'link')`,
    ),
    index('donation_notifications_recipient_idx').on(t.organization_id, t.to_email, t.created_at.desc()),
    uniqueIndex('donation_notifications_open_token_unique').on(t.open_token_hash),
    index('donation_notifications_queued_idx').on(t.id).where(sql`${t.queued}`),
    check(
      'donation_notifications_rendered',
      sql`${t.queued} or (${t.subject} is not null and ${t.html} is not null and ${t.text} is not null)`,
    ),
  ],
);

/**
 * A nonprofit's monthly bill on a per-match plan (elig_3, elig_5: a share of its eligible match
 * requests). Open during its month; matches submitted then count on it (eligible_bill_id), and
 * refunds made then are credited on it (refunded_bill_id). Issued once the month is over: its
 * matches become processed (processed_bill_id).
 */
export const bills = pgTable(
  'bills',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The plan when the bill was opened: its rate. */
    plan: text('plan').notNull(),
    /** The first day of the month (UTC) and the first day after it. */
    period_start: timestamp('period_start', { withTimezone: true }).notNull(),
    period_end: timestamp('period_end', { withTimezone: true }).notNull(),
    issued_at: timestamp('issued_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bills_org_period_unique').on(t.organization_id, t.period_start),
    index('bills_unissued_idx').on(t.period_end).where(sql`${t.issued_at} is null`),
  ],
);

/** What a usage report is: a match's charge on a per-match bill, or the correction of one. */
export const usageReportKinds = ['charge', 'refund', 'release'] as const;
export type UsageReportKind = (typeof usageReportKinds)[number];
export const usageReportStatuses = ['pending', 'reported', 'failed'] as const;
export type UsageReportStatus = (typeof usageReportStatuses)[number];

/**
 * Usage of the per-match plans as reported to Stripe (issue #27): an outbox of billing meter
 * events, one row per report, written in the transaction that puts a match on a bill (a charge)
 * or takes it off again (a refund or a release: the charge's correction, its negative). The
 * worker (server/jobs/usage-worker.ts) sends each with `identifier` as Stripe's meter event
 * identifier, so a report sent twice (a worker killed between sending and marking) is counted once.
 */
export const stripeUsageReports = pgTable(
  'stripe_usage_reports',
  {
    id: serial('id').primaryKey(),
    /** The payer: the organization whose Stripe customer is billed. */
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The bill the usage counts on (the match's eligible bill, or the bill a refund is credited on). */
    bill_id: integer('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'cascade' }),
    donation_id: integer('donation_id').references(() => donations.id, { onDelete: 'set null' }),
    kind: text('kind').$type<UsageReportKind>().notNull(),
    /** The charge this report corrects (refund, release). */
    corrects_id: integer('corrects_id').references((): AnyPgColumn => stripeUsageReports.id, {
      onDelete: 'cascade',
    }),
    /** Stripe's meter event identifier: `twofold-bill-{bill}-usage-{id}`, fixed at insert. */
    identifier: text('identifier').notNull(),
    /** Cents: the plan's share of the match's estimated match; negative for a correction. */
    value_cents: integer('value_cents').notNull(),
    status: text('status').$type<UsageReportStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    last_error: text('last_error'),
    reported_at: timestamp('reported_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('stripe_usage_reports_identifier_unique').on(t.identifier),
    index('stripe_usage_reports_due_idx').on(t.status, t.next_attempt_at),
    index('stripe_usage_reports_bill_idx').on(t.bill_id),
    index('stripe_usage_reports_donation_idx').on(t.donation_id),
    check('stripe_usage_reports_kind_values', sql`${t.kind} in ('charge', 'refund', 'release')`),
    check('stripe_usage_reports_status_values', sql`${t.status} in ('pending', 'reported', 'failed')`),
  ],
);

/**
 * Every Stripe webhook event Twofold accepted, by Stripe's event id: an event delivered again
 * (Stripe retries, replays) finds its id here and changes nothing.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** What handling it did ('plan granted', 'ignored: unknown type', ...). */
  outcome: text('outcome').notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit counters (server/http/rate-limit-store.ts): one row per limited key and window, shared
 * by every server process on the database. UNLOGGED (see its migration): counters are cheap to
 * lose in a crash and written on every limited request.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_reset_idx').on(t.reset_at)],
);

/**
 * Failed sign-ins, counted per email and client address together, in the database so every
 * server process sees the same counts. Past a few for an email (or many from an address), sign-in
 * asks for a solved proof-of-work challenge instead of refusing: guessing costs the guesser, and
 * the owner with the right password always gets in. Rows older than the window are forgotten.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    /** Lowercased, as typed (an unknown email counts like a known one, so neither is revealed). */
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull(),
    last_failed_at: timestamp('last_failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.ip] }),
    index('login_failures_ip_idx').on(t.ip),
    index('login_failures_last_failed_idx').on(t.last_failed_at),
  ],
);

/**
 * spec (part 1, section 3): "API key: id, name, key, last_used_at, last_ip_address". Only the
 * SHA-256 of a key is stored (the whole key is shown once, when it is created) and its first
 * characters, so staff can tell keys apart. A deleted key is kept, revoked, so a caller still
 * using it hears that it was revoked rather than that it never existed.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    prefix: text('prefix').notNull(),
    key_hash: text('key_hash').notNull(),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    last_ip_address: text('last_ip_address'),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_unique').on(t.key_hash),
    index('api_keys_org_idx').on(t.organization_id),
  ],
);

/**
 * An organization's invitation to an existing account: adding someone who already has an account
 * does not attach it; its owner accepts through the emailed link (a one-time token, stored as its
 * SHA-256, with an expiry), which turns the invitation into a permission. Until then it is shown
 * as pending. Resending replaces the token; cancelling deletes the row.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    org_id: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: text('level').$type<'read' | 'write' | 'admin'>().notNull(),
    invited_by: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invitations_org_user_unique').on(t.org_id, t.user_id),
    uniqueIndex('invitations_token_hash_unique').on(t.token_hash),
    index('invitations_user_id_idx').on(t.user_id),
    check('invitations_level_values', sql`${t.level} in ('read', 'write', 'admin')`),
  ],
);

/**
 * The first answer to a public API request sent with an `Idempotency-Key` header, per
 * organization, so a retried request gets it again instead of creating a second match.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, path and body: the same key with another request is refused. */
    request_hash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idempotency_keys_org_key_unique').on(t.organization_id, t.key)],
);

export const webhookEvents = ['status', 'first_open', 'reminder_sent'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/**
 * spec (part 1, section 3): "Webhook: id, url (stored without the https:// prefix), token,
 * event, last_code". `secret` signs deliveries the Standard Webhooks way (whsec_...).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull().default(''),
    token: text('token').notNull().default(''),
    event: text('event').$type<WebhookEvent>().notNull().default('status'),
    secret: text('secret').notNull(),
    last_code: integer('last_code'),
    ...timestamps,
  },
  (t) => [
    index('webhooks_org_idx').on(t.organization_id),
    check('webhooks_event_values', sql`${t.event} in ('status', 'first_open', 'reminder_sent')`),
  ],
);

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * One event for one webhook: written in the transaction of the change that causes it, delivered
 * by the webhook worker (retried with backoff until `give_up_at`, in order per match).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    /** The organization's webhook it goes to; null for a partner app's subscription. */
    webhook_id: integer('webhook_id').references(() => webhooks.id, { onDelete: 'cascade' }),
    /**
     * The partner app whose one subscription it goes to (issue #25: every organization that
     * granted it 'webhooks:manage'), signed with the app's own secret; null for a webhook's.
     */
    partner_app_id: integer('partner_app_id').references((): AnyPgColumn => partnerApps.id, {
      onDelete: 'cascade',
    }),
    /** The match it is about (deliveries of one match go out in order); null for a test event. */
    donation_id: integer('donation_id'),
    event: text('event').notNull(),
    /** The Standard Webhooks message id (webhook-id header), the same on every attempt. */
    message_id: text('message_id').notNull(),
    /** The payload without the bearer_token, which is added from the webhook when sent. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    give_up_at: timestamp('give_up_at', { withTimezone: true }).notNull(),
    last_code: integer('last_code'),
    last_error: text('last_error'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    /**
     * The request that queued it (X-Request-Id), so the worker's log lines about it repeat that id:
     * filled by the database from the transaction's twofold.request_id setting (server/db/client.ts).
     */
    request_id: requestIdColumn(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.next_attempt_at),
    index('webhook_deliveries_order_idx').on(t.webhook_id, t.donation_id, t.id),
    check('webhook_deliveries_status_values', sql`${t.status} in ('pending', 'delivered', 'failed')`),
    check('webhook_deliveries_one_target', sql`(${t.webhook_id} is null) <> (${t.partner_app_id} is null)`),
    index('webhook_deliveries_partner_order_idx').on(t.partner_app_id, t.donation_id, t.id),
  ],
);

/** Every attempt of a delivery: the deliveries log of a webhook. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serial('id').primaryKey(),
    delivery_id: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The HTTP status, or null when no answer came (refused address, timeout, connection error). */
    status_code: integer('status_code'),
    duration_ms: integer('duration_ms').notNull(),
    /** The start of the response body, or what went wrong. */
    response: text('response').notNull().default(''),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.at.desc())],
);
/**
 * An organization's donor email template versions (spec section 3, Email template; section 4,
 * Template versions): per template type (status_id), version 0 is Default (the shipped texts,
 * always live, read-only) and 1.. are A, B, ... (at most 5 in all).
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status_id: integer('status_id').notNull(),
    version: integer('version').notNull(),
    live: boolean('live').notNull().default(false),
    subject1: text('subject1').notNull().default(''),
    subject2: text('subject2').notNull().default(''),
    subject3: text('subject3').notNull().default(''),
    preheader1: text('preheader1').notNull().default(''),
    preheader2: text('preheader2').notNull().default(''),
    preheader3: text('preheader3').notNull().default(''),
    header1: text('header1').notNull().default(''),
    header2: text('header2').notNull().default(''),
    header3: text('header3').notNull().default(''),
    greeting: text('greeting').notNull().default(''),
    paragraph_one_1: text('paragraph_one_1').notNull().default(''),
    paragraph_one_2: text('paragraph_one_2').notNull().default(''),
    paragraph_one_3: text('paragraph_one_3').notNull().default(''),
    paragraph_two: text('paragraph_two').notNull().default(''),
    paragraph_three: text('paragraph_three').notNull().default(''),
    salutation: text('salutation').notNull().default(''),
    step_one_title: text('step_one_title').notNull().default(''),
    step_one_text: text('step_one_text').notNull().default(''),
    step_one_note: text('step_one_note').notNull().default(''),
    step_one_btn: text('step_one_btn').notNull().default(''),
    step_two_title: text('step_two_title').notNull().default(''),
    step_two_text: text('step_two_text').notNull().default(''),
    step_two_note: text('step_two_note').notNull().default(''),
    step_two_btn: text('step_two_btn').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('email_templates_org_status_version_unique').on(t.organization_id, t.status_id, t.version),
    check('email_templates_version_range', sql`${t.version} >= 0 and ${t.version} < 8`),
    // spec: "The first version is Default and always live."
    check('email_templates_default_live', sql`${t.version} > 0 or ${t.live}`),
  ],
);

/** Donors who used a donor email's one-click unsubscribe: that organization emails them no more. */
export const emailUnsubscribes = pgTable(
  'email_unsubscribes',
  {
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Stored lowercased. */
    email: text('email').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.email] })],
);

export const scheduledJobStatuses = ['pending', 'done', 'cancelled', 'failed'] as const;
export type ScheduledJobStatus = (typeof scheduledJobStatuses)[number];

/**
 * The donor-email workflow's timed work (reminders, deadline emails, No Response, the weekly
 * digest), durable: a job is written with the change that schedules it, its unique key makes
 * scheduling idempotent, and one process at a time claims it (FOR UPDATE SKIP LOCKED).
 */
export const scheduledJobs = pgTable(
  'scheduled_jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** Unique per job: scheduling the same thing twice adds nothing. */
    key: text('key').notNull(),
    donation_id: integer('donation_id').references(() => donations.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    run_at: timestamp('run_at', { withTimezone: true }).notNull(),
    status: text('status').$type<ScheduledJobStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** A claimed job is reserved until then; a crashed process's job is taken again after. */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_error: text('last_error'),
    done_at: timestamp('done_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('scheduled_jobs_key_unique').on(t.key),
    index('scheduled_jobs_due_idx').on(t.run_at).where(sql`${t.status} = 'pending'`),
    index('scheduled_jobs_donation_idx').on(t.donation_id),
    check('scheduled_jobs_status_values', sql`${t.status} in ('pending', 'done', 'cancelled', 'failed')`),
  ],
);

/**
 * What staff did to a match's scheduled email (issue #30): sent it before its day or skipped it,
 * who and when. The match dialog's Email Communications tab shows these as the schedule's history.
 */
export const emailScheduleActions = pgTable(
  'email_schedule_actions',
  {
    id: serial('id').primaryKey(),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    /** The scheduled job acted on: one action per job (a double click acts once). */
    job_id: integer('job_id')
      .notNull()
      .references(() => scheduledJobs.id, { onDelete: 'cascade' }),
    action: text('action').$type<'send_now' | 'skip'>().notNull(),
    /** The job's kind and stage then (reminder 2 = the 1st reminder), so the history reads alone. */
    kind: text('kind').notNull(),
    stage: integer('stage'),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('email_schedule_actions_job_unique').on(t.job_id),
    index('email_schedule_actions_donation_idx').on(t.donation_id, t.at),
    check('email_schedule_actions_action_values', sql`${t.action} in ('send_now', 'skip')`),
  ],
);

/**
 * spec (part 2, section 3, Report): a saved download of an organization's matches. `columns` is
 * a list of [column id, display name] pairs (jsonb does not keep an object's key order, and the
 * order is the file's). Personal reports are their author's; the others are shared (section 6).
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    scope: text('scope').notNull().default('personal'),
    columns: jsonb('columns').$type<Array<[string, string]>>().notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull().default({}),
    sort_field: text('sort_field').notNull().default('donations.id'),
    ascending: boolean('ascending').notNull().default(true),
    downloads: integer('downloads').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('reports_org_idx').on(t.organization_id, t.id),
    check('reports_scope_values', sql`${t.scope} in ('personal', 'organization', 'full_org')`),
  ],
);

/**
 * The Matching Overview's running totals: per organization, UTC day of donation and status, how
 * many matches and their amounts. Kept by statement-level triggers on donations (custom
 * migration 0015), so the overview sums a few hundred rows instead of scanning every match of a
 * year. No foreign key: an organization's deletion cascades to its donations, whose trigger
 * brings these rows to zero.
 */
export const donationDayStats = pgTable(
  'donation_day_stats',
  {
    organization_id: integer('organization_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status_id: integer('status_id').notNull(),
    count: integer('count').notNull().default(0),
    amount_cents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
    matched_cents: bigint('matched_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.day, t.status_id] })],
);

/**
 * donation_day_stats added up by UTC month of donation: per organization, month and status, how
 * many matches and their amounts. Kept by statement-level triggers on donations (custom
 * migration), so the figures below the tiles read a few rows per month for the whole months of a
 * range and the day totals only for its partial months at the edges.
 */
export const donationMonthStats = pgTable(
  'donation_month_stats',
  {
    organization_id: integer('organization_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    status_id: integer('status_id').notNull(),
    count: integer('count').notNull().default(0),
    amount_cents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
    matched_cents: bigint('matched_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.month, t.status_id] })],
);

/**
 * The dashboard's "employers found" figures, pre-added (issue #26): per organization, UTC day of
 * donation and kind, how many matches. The kind is how the company was found (`domain`, `name`,
 * `alias`, `history`, `person`, or `unrecorded` for a company entered before methods were kept)
 * when the match names a catalogue company, `missing` when it has none and waits in Missing
 * Company, else no row. Kept by statement-level triggers on donations (custom migration, as
 * donation_day_stats), so the summary reads a few rows a day of its range, not every match of a
 * large organization.
 */
export const donationEmployerDayStats = pgTable(
  'donation_employer_day_stats',
  {
    organization_id: integer('organization_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.day, t.kind] })],
);

/**
 * The dashboard's top companies, pre-added: per organization, UTC month of donation and company
 * (company_id, or 0 with the typed name trimmed when the match names no catalogue company), how
 * many matches, their estimated match and the part in the Submitted group (statuses 1, 4, 28).
 * Kept by statement-level triggers on donations (custom migration, as donation_day_stats), so
 * the figure sums a few thousand rows instead of every match of the range. The catalogue name is
 * joined when read, so a renamed company shows its new name.
 */
export const donationCompanyMonthStats = pgTable(
  'donation_company_month_stats',
  {
    organization_id: integer('organization_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    company_id: integer('company_id').notNull(),
    company_name: text('company_name').notNull(),
    count: integer('count').notNull().default(0),
    matched_cents: bigint('matched_cents', { mode: 'number' }).notNull().default(0),
    submitted_cents: bigint('submitted_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.month, t.company_id, t.company_name] })],
);

/**
 * The matches awaiting their company's payment (statuses 4 and 28), pre-added for the dashboard's
 * forecast: per organization, UTC month of donation, company (company_id, or 0 when the match
 * names no catalogue company) and the UTC day the match was last submitted (its last move to 4 or
 * 28 in donation_status_history, else its last update), how many and their estimated match. Kept
 * by triggers on donations and donation_status_history (custom migration), so the forecast adds
 * a few hundred rows per month instead of reading every awaiting match; the expected month (day
 * plus the company's learned delay, see expected-payment.ts) is worked out when read, so a change
 * of a company's delay needs no rewrite here.
 */
export const donationAwaitingPaymentStats = pgTable(
  'donation_awaiting_payment_stats',
  {
    organization_id: integer('organization_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    company_id: integer('company_id').notNull(),
    sent_day: date('sent_day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
    matched_cents: bigint('matched_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.month, t.company_id, t.sent_day] })],
);

/**
 * A disbursement report uploaded on the payouts screen: what a company or its CSR vendor says it
 * paid. Confirming it writes its lines and marks the matched requests Match Completed.
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    file_name: text('file_name').notNull(),
    /** Benevity, YourCause, CyberGrants, Bright Funds, or null (columns mapped by hand). */
    vendor: text('vendor'),
    /** SHA-256 of the report's lines: the same report confirmed again is this batch. */
    report_hash: text('report_hash').notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    lines: integer('lines').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    created: integer('created').notNull().default(0),
    paid_cents: bigint('paid_cents', { mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('payout_batches_org_hash_unique').on(t.organization_id, t.report_hash)],
);

/** One line of a payout report as confirmed: the match it paid, or none (skipped). */
export const payoutLines = pgTable(
  'payout_lines',
  {
    id: serial('id').primaryKey(),
    batch_id: integer('batch_id')
      .notNull()
      .references(() => payoutBatches.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** SHA-256 of the line's values: a line already recorded (in any report) is not applied twice. */
    line_hash: text('line_hash').notNull(),
    line: integer('line').notNull(),
    donor_name: text('donor_name'),
    donor_email: text('donor_email'),
    company_name: text('company_name'),
    paid_cents: integer('paid_cents').notNull(),
    paid_at: date('paid_at', { mode: 'string' }).notNull(),
    donation_id: integer('donation_id').references(() => donations.id, { onDelete: 'set null' }),
    /** matched, picked (an ambiguous line resolved by hand), created, or skipped. */
    outcome: text('outcome').notNull(),
    score: integer('score'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_lines_org_hash_unique').on(t.organization_id, t.line_hash),
    index('payout_lines_batch_idx').on(t.batch_id),
    check('payout_lines_outcome_values', sql`${t.outcome} in ('matched', 'picked', 'created', 'skipped')`),
  ],
);

/**
 * The donations list's tile counts under 'company contains': per organization, company name (as
 * typed, lowercased; gifts without one are left out) and status, how many matches. Kept by
 * statement-level triggers on donations (custom migration 0018), so the counts of a
 * company filter sum the few rows of the names that hold the text (a trigram index finds them)
 * instead of reading every matching gift. No foreign key, as donation_day_stats.
 */
export const donationCompanyStats = pgTable(
  'donation_company_stats',
  {
    organization_id: integer('organization_id').notNull(),
    company: text('company').notNull(),
    status_id: integer('status_id').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.company, t.status_id] })],
);

/**
 * The donations list's tile counts without filters: per organization and status, how many
 * matches. Kept by the same statement-level triggers as donation_company_stats, so the list's
 * first screen sums about twenty rows instead of counting every match of the organization.
 */
export const donationStatusTotals = pgTable(
  'donation_status_totals',
  {
    organization_id: integer('organization_id').notNull(),
    status_id: integer('status_id').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organization_id, t.status_id] })],
);

/** One step of a signed form's audit trail (also printed on the packet's audit pages). */
export type EsignAuditEvent = {
  event: 'donor-signed' | 'nonprofit-countersigned';
  at: string;
  name: string;
  email: string | null;
  ip: string;
  userAgent: string;
  method: 'typed' | 'drawn';
  /** SHA-256 (hex) of the PDF before this signature, and of the signed PDF before its audit page. */
  before: string;
  after: string;
};

/**
 * A match's signed form (e-sign companies) or print packet (original signature only): the
 * signing link's version and expiry (the link itself is a signed token, never stored), the
 * current packet in file storage with its SHA-256 (checked on every read: a changed file is
 * refused), the audit trail, and the delivery to the company (an outbox message, or a posting).
 */
export const esignDocuments = pgTable(
  'esign_documents',
  {
    id: serial('id').primaryKey(),
    donation_id: integer('donation_id')
      .notNull()
      .references(() => donations.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Raised by every new signing link, so an older link stops working. */
    link_version: integer('link_version').notNull().default(0),
    link_sent_at: timestamp('link_sent_at', { withTimezone: true }),
    link_expires_at: timestamp('link_expires_at', { withTimezone: true }),
    donor_signed_at: timestamp('donor_signed_at', { withTimezone: true }),
    countersigned_at: timestamp('countersigned_at', { withTimezone: true }),
    countersigned_by: integer('countersigned_by').references(() => users.id, { onDelete: 'set null' }),
    /** The current packet (stored name) and its SHA-256, once signed. */
    file: text('file'),
    file_sha256: text('file_sha256'),
    audit: jsonb('audit').$type<EsignAuditEvent[]>().notNull().default([]),
    delivery_outbox_id: integer('delivery_outbox_id').references(() => outbox.id, { onDelete: 'set null' }),
    delivery_to: text('delivery_to'),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    /** An original-signature packet: when staff marked it posted, and who. */
    posted_at: timestamp('posted_at', { withTimezone: true }),
    posted_by: integer('posted_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('esign_documents_donation_unique').on(t.donation_id),
    index('esign_documents_org_idx').on(t.organization_id),
    index('esign_documents_outbox_idx')
      .on(t.delivery_outbox_id)
      .where(sql`${t.delivery_outbox_id} is not null`),
  ],
);

/**
 * The dashboard's "New since": per user and organization, the start of the window the unseen
 * summary shows during the current visit (`since`) and the last time the dashboard was looked at
 * (`seen_at`). A look more than a visit's gap after `seen_at` starts a new visit whose `since` is
 * that previous look (`dashboard.service.ts`, `recordDashboardVisit`).
 */
export const dashboardVisits = pgTable(
  'dashboard_visits',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true }).notNull(),
    seen_at: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.organization_id] })],
);

/**
 * The audit log (issue #24): who did what, append-only. Written in the same transaction as the
 * change it records (`server/modules/audit/audit.ts`, `recordAudit`). No foreign keys on purpose:
 * an entry outlives the user, key or organization it names (kept at least a year), and a
 * trigger (migration 0035) refuses every UPDATE and DELETE.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** The organization it concerns; null for account-wide events (a user's own sign-in factors). */
    organization_id: integer('organization_id'),
    /** Who did it: 'user' (a staff member), 'api' (an API key or partner app), 'system' (a job). */
    actor_kind: text('actor_kind').$type<'user' | 'api' | 'system'>().notNull(),
    actor_user_id: integer('actor_user_id'),
    /** The actor's email (or the API key's prefix, the app's name) as it was at the time. */
    actor_label: text('actor_label'),
    /** One of `auditKinds` (src/contract/audit.ts). */
    kind: text('kind').notNull(),
    /** The user an event is about when it is not the actor (a member whose permission changed). */
    subject_user_id: integer('subject_user_id'),
    /** One sentence a person reads in the log. */
    summary: text('summary').notNull(),
    /** Facts for the CSV and the detail view (filters used, rows exported, old and new level). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip_address: text('ip_address'),
    user_agent: text('user_agent'),
  },
  (t) => [
    index('audit_events_org_time_idx').on(t.organization_id, t.occurred_at.desc(), t.id.desc()),
    index('audit_events_actor_idx').on(t.actor_user_id, t.occurred_at.desc()),
    index('audit_events_subject_idx').on(t.subject_user_id, t.occurred_at.desc()),
  ],
);

export const sendingDomainStatuses = ['pending', 'verified', 'failed'] as const;
export type SendingDomainStatus = (typeof sendingDomainStatuses)[number];

/**
 * An organization's own sender for donor emails (issue #28): a display name and an address at
 * its domain. `pending` until the DKIM record of a key is found and right, `verified` while it
 * is (emails go from the address, DKIM-signed), `failed` when a verified domain's record
 * disappeared or changed (emails fall back to the platform address until it is fixed).
 * Re-checked daily (`next_check_at`, claimed by the scheduler's round).
 */
export const sendingDomains = pgTable(
  'sending_domains',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    from_name: text('from_name').notNull(),
    /** Lowercased; its domain is `domain`. */
    from_email: text('from_email').notNull(),
    domain: text('domain').notNull(),
    status: text('status').$type<SendingDomainStatus>().notNull().default('pending'),
    verified_at: timestamp('verified_at', { withTimezone: true }),
    /** The last check's result per record (what the screen shows), and when it ran. */
    last_check: jsonb('last_check').$type<Record<string, unknown>>(),
    checked_at: timestamp('checked_at', { withTimezone: true }),
    /** When the daily re-verification takes it next (pushed past a lease while one runs). */
    next_check_at: timestamp('next_check_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sending_domains_org_unique').on(t.organization_id),
    index('sending_domains_next_check_idx').on(t.next_check_at),
    check('sending_domains_status_values', sql`${t.status} in ('pending', 'verified', 'failed')`),
  ],
);

export const sendingDomainKeyStates = ['new', 'active', 'retired'] as const;
export type SendingDomainKeyState = (typeof sendingDomainKeyStates)[number];

/**
 * A DKIM key pair of a sending domain: 2048-bit RSA, the private key sealed
 * (`server/crypto/sealed.ts`, purpose 'dkim', bound to domain, selector and organization) and
 * dropped once retired. `new` until its record is found (the first key, or a rotation's next
 * key), then `active` (signs); the key it replaces becomes `retired`.
 */
export const sendingDomainKeys = pgTable(
  'sending_domain_keys',
  {
    id: serial('id').primaryKey(),
    sending_domain_id: integer('sending_domain_id')
      .notNull()
      .references(() => sendingDomains.id, { onDelete: 'cascade' }),
    selector: text('selector').notNull(),
    /** The public key as the DNS record's p= carries it (base64 of the DER SubjectPublicKeyInfo). */
    public_key: text('public_key').notNull(),
    private_key_sealed: text('private_key_sealed'),
    state: text('state').$type<SendingDomainKeyState>().notNull().default('new'),
    activated_at: timestamp('activated_at', { withTimezone: true }),
    retired_at: timestamp('retired_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sending_domain_keys_selector_unique').on(t.sending_domain_id, t.selector),
    check('sending_domain_keys_state_values', sql`${t.state} in ('new', 'active', 'retired')`),
  ],
);

/**
 * A staff user's passkeys (WebAuthn credentials, issue #24). The public key and the signature
 * counter are what sign-in checks; the name is the user's own label. A passkey is both factors.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id the authenticator chose, base64url. */
    credential_id: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    public_key: text('public_key').notNull(),
    /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    /** 'singleDevice' or 'multiDevice' (synced), as the registration said. */
    device_type: text('device_type').notNull(),
    backed_up: boolean('backed_up').notNull().default(false),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_unique').on(t.credential_id),
    index('passkeys_user_id_idx').on(t.user_id),
  ],
);

/**
 * WebAuthn challenges handed out and not yet answered: stored by their SHA-256, used once, five
 * minutes. 'register' belongs to the signed-in user adding a passkey; 'authenticate' to nobody yet
 * (a usernameless sign-in learns who from the credential).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose').$type<'register' | 'authenticate'>().notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    challenge_hash: text('challenge_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webauthn_challenges_hash_unique').on(t.challenge_hash),
    check('webauthn_challenges_purpose_values', sql`${t.purpose} in ('register', 'authenticate')`),
    check(
      'webauthn_challenges_register_user',
      sql`${t.user_id} is not null or ${t.purpose} = 'authenticate'`,
    ),
  ],
);

/**
 * An organization's single sign-on connection (OpenID Connect, issue #24): one per organization.
 * The client secret is sealed (server/crypto/sealed.ts, purpose 'sso-client-secret', bound to the
 * connection's organization) and never sent back.
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** What the login page's button says: "Sign in with {provider_name}". */
    provider_name: text('provider_name').notNull(),
    issuer: text('issuer').notNull(),
    client_id: text('client_id').notNull(),
    client_secret_sealed: text('client_secret_sealed').notNull(),
    /** The level a first sign-in joins at ('join'), or what an admin's approval grants by default. */
    default_level: text('default_level').$type<'read' | 'write' | 'admin'>().notNull().default('read'),
    /** 'join': a first sign-in joins at once; 'approve': it waits for an admin. */
    join_mode: text('join_mode').$type<'join' | 'approve'>().notNull().default('join'),
    /** Password, magic-link and passkey sign-in are refused for the connection's domains. */
    require_sso: boolean('require_sso').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sso_connections_org_unique').on(t.organization_id),
    check('sso_connections_level_values', sql`${t.default_level} in ('read', 'write', 'admin')`),
    check('sso_connections_join_mode_values', sql`${t.join_mode} in ('join', 'approve')`),
  ],
);

/** The email domains a connection vouches for; a domain belongs to one organization only. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    connection_id: integer('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('sso_domains_connection_idx').on(t.connection_id),
    check('sso_domains_lowercase', sql`${t.domain} = lower(${t.domain})`),
  ],
);

/**
 * One single sign-on attempt: the state (stored by its SHA-256), the nonce, the PKCE verifier
 * (sealed) and the hash of the browser cookie that started it. The callback uses it once; a
 * successful callback leaves a hand-off token (hash) the login page exchanges for a session.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    id: serial('id').primaryKey(),
    connection_id: integer('connection_id')
      .notNull()
      .references(() => ssoConnections.id, { onDelete: 'cascade' }),
    state_hash: text('state_hash').notNull(),
    nonce: text('nonce').notNull(),
    code_verifier_sealed: text('code_verifier_sealed').notNull(),
    browser_hash: text('browser_hash').notNull(),
    redirect: text('redirect').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the callback used the state. */
    used_at: timestamp('used_at', { withTimezone: true }),
    /** After a successful callback: who signed in, and the hash of the one-time hand-off token. */
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    handoff_hash: text('handoff_hash'),
    handed_off_at: timestamp('handed_off_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sso_logins_state_unique').on(t.state_hash),
    uniqueIndex('sso_logins_handoff_unique').on(t.handoff_hash),
  ],
);

/** A first single sign-on of someone the connection asks an admin to approve. */
export const ssoJoinRequests = pgTable(
  'sso_join_requests',
  {
    id: serial('id').primaryKey(),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_join_requests_org_user_unique').on(t.organization_id, t.user_id)],
);

/** How a staff session was signed in (issue #24). */
export const sessionMethods = ['password', 'magic_link', 'passkey', 'sso'] as const;
export type SessionMethod = (typeof sessionMethods)[number];
/**
 * The proofs a session passed: the first ('password', 'magic_link', 'sso') and any second
 * ('totp', 'recovery_code'); 'passkey' is both at once.
 */
export const sessionFactors = ['password', 'magic_link', 'sso', 'totp', 'recovery_code', 'passkey'] as const;
export type SessionFactor = (typeof sessionFactors)[number];

/**
 * A staff session (issue #24): every access token names one row, and `verifyToken` refuses a token
 * whose row has ended, so ending a session (the account page, a password reset, a removal from an
 * organization, a demotion, a second factor reset) takes effect on the very next request.
 * `last_seen_at` and `ip_address` are written at most once a minute per session, or when the
 * address changes (see server/modules/auth/sessions.ts).
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    /** Random, 128 bits (base64url): the `sid` claim of the session's tokens. */
    id: text('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip_address: text('ip_address'),
    user_agent: text('user_agent'),
    /** The user agent in words ("Chrome 131 on macOS"), for the account page. */
    device: text('device').notNull().default(''),
    method: text('method').$type<SessionMethod>().notNull(),
    factors: jsonb('factors').$type<SessionFactor[]>().notNull().default([]),
    /** 'sso' sessions: the organization whose single sign-on vouched for them. */
    sso_organization_id: integer('sso_organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    /** Why it ended: 'signed_out', 'ended_by_user', 'password_reset', 'access_changed', 'two_factor_reset'. */
    end_reason: text('end_reason'),
  },
  (t) => [
    index('user_sessions_user_live_idx').on(t.user_id).where(sql`${t.ended_at} is null`),
    check('user_sessions_method_values', sql`${t.method} in ('password', 'magic_link', 'passkey', 'sso')`),
  ],
);

/**
 * A user's authenticator app (TOTP, RFC 6238; issue #24). The seed is sealed (server/crypto/sealed.ts,
 * purpose 'totp', bound to the user) and never sent back after enrolment. `confirmed_at` is null
 * while an enrolment waits for its first code. `last_used_step` is the time step of the last code
 * accepted: a code is accepted only for a later step, so each is used once, across processes.
 */
export const userTotp = pgTable('user_totp', {
  user_id: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret_sealed: text('secret_sealed').notNull(),
  confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
  last_used_step: bigint('last_used_step', { mode: 'number' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Ten single-use recovery codes per user, stored as their SHA-256 (shown once, when made). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_unique').on(t.user_id, t.code_hash)],
);

/**
 * Partner apps (issue #25): OAuth 2.0 clients that super users register. A nonprofit's admin
 * grants one access to one organization with some scopes (an `oauth_grants` row).
 */
export const partnerApps = pgTable(
  'partner_apps',
  {
    id: serial('id').primaryKey(),
    /** The public client identifier (`tfc_…`), random. */
    client_id: text('client_id').notNull(),
    name: text('name').notNull(),
    logo_url: text('logo_url'),
    website: text('website').notNull(),
    /** Exact-match redirect URIs (https, or http on a loopback host). */
    redirect_uris: jsonb('redirect_uris').$type<string[]>().notNull(),
    /** The scopes it may ask for (`oauthScopes` in src/contract/oauth.ts). */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** Its one webhook subscription for every organization that granted 'webhooks:manage'. */
    webhook_url: text('webhook_url'),
    /** The subscription's Standard Webhooks signing secret, sealed (server/crypto/sealed.ts). */
    webhook_secret_sealed: text('webhook_secret_sealed'),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    disabled_at: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('partner_apps_client_id_unique').on(t.client_id)],
);

/**
 * A partner app's client secrets, hashed (SHA-256 of 256 random bits). Rotating adds a new one
 * and gives the old ones an `expires_at`, so both work during the overlap.
 */
export const partnerAppSecrets = pgTable(
  'partner_app_secrets',
  {
    id: serial('id').primaryKey(),
    app_id: integer('app_id')
      .notNull()
      .references(() => partnerApps.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull(),
    secret_hash: text('secret_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('partner_app_secrets_hash_unique').on(t.secret_hash),
    index('partner_app_secrets_app_idx').on(t.app_id),
  ],
);

/**
 * A grant: one organization's consent to one partner app for some scopes, and the family of the
 * tokens issued under it. Revoking it (disconnect, a reused refresh token) ends every token at once.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: serial('id').primaryKey(),
    app_id: integer('app_id')
      .notNull()
      .references(() => partnerApps.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    granted_by: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('oauth_grants_org_idx').on(t.organization_id), index('oauth_grants_app_idx').on(t.app_id)],
);

/**
 * Authorization codes, hashed, single-use, bound to the app, the redirect URI and the PKCE S256
 * challenge. `grant_id` is set when the code is exchanged, so a second use revokes that grant.
 */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    id: serial('id').primaryKey(),
    code_hash: text('code_hash').notNull(),
    app_id: integer('app_id')
      .notNull()
      .references(() => partnerApps.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    redirect_uri: text('redirect_uri').notNull(),
    code_challenge: text('code_challenge').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    grant_id: integer('grant_id').references(() => oauthGrants.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('oauth_codes_hash_unique').on(t.code_hash)],
);

/**
 * Access and refresh tokens, hashed. A refresh token is used once (`used_at`); presenting a used
 * one revokes its grant. An access token lives an hour.
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: serial('id').primaryKey(),
    grant_id: integer('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'access' | 'refresh'>().notNull(),
    token_hash: text('token_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('oauth_tokens_hash_unique').on(t.token_hash),
    index('oauth_tokens_grant_idx').on(t.grant_id),
  ],
);
