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
    ...timestamps,
  },
  (t) => [
    index('organizations_parent_id_idx').on(t.parent_id),
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
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
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
    excluded_organization_types: jsonb('excluded_organization_types').$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('companies_name_lower_unique').on(sql`lower(${t.name})`),
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
  (t) => [index('donors_org_email_idx').on(t.organization_id, t.email)],
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
    ...timestamps,
  },
  (t) => [
    // The list's orders within an organization, tie-broken by id (see pageInIndexOrder).
    index('donations_org_donated_idx').on(t.organization_id, t.donated_at.desc(), t.id.desc()),
    // Also donations_org_donated_stats_idx (organization_id, donated_at) INCLUDE (status_id,
    // amount_cents, matched_cents), for the dashboard's statistics: a custom migration (0010).
    index('donations_org_amount_idx').on(t.organization_id, t.amount_cents, t.id),
    index('donations_org_status_idx').on(t.organization_id, t.status_id),
    index('donations_donor_idx').on(t.donor_id),
    index('donations_company_idx').on(t.company_id),
    index('donations_eligible_bill_idx').on(t.eligible_bill_id).where(sql`${t.eligible_bill_id} is not null`),
    index('donations_org_recurring_idx')
      .on(t.organization_id, t.recurring_id)
      .where(sql`${t.recurring_id} is not null`),
    uniqueIndex('donations_org_transaction_unique')
      .on(t.organization_id, t.transaction_id)
      .where(sql`${t.transaction_id} is not null`),
    check('donations_amount_nonnegative', sql`${t.amount_cents} >= 0`),
  ],
);

export const statusChangeSources = ['staff', 'donor', 'public'] as const;
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
     * Who made the change: staff (user_id says who), the donor on their edit screen, or the
     * donor's request on the organization's public matching page (both without a user).
     */
    source: text('source').$type<StatusChangeSource>().notNull().default('staff'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('donation_status_history_donation_idx').on(t.donation_id, t.at),
    check('donation_status_history_source_values', sql`${t.source} in ('staff', 'donor', 'public')`),
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
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    outbox_id: integer('outbox_id').references(() => outbox.id, { onDelete: 'set null' }),
    open_token_hash: text('open_token_hash').notNull(),
    first_open: timestamp('first_open', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('donation_notifications_donation_idx').on(t.donation_id, t.created_at.desc()),
    index('donation_notifications_recipient_idx').on(t.organization_id, t.to_email, t.created_at.desc()),
    uniqueIndex('donation_notifications_open_token_unique').on(t.open_token_hash),
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
 * migration 0012), so the overview sums a few hundred rows instead of scanning every match of a
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
