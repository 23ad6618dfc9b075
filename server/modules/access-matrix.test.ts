import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeast, type EffectiveLevel, type PermissionLevel } from '../../src/contract/access.ts';
import { createApp } from '../app.ts';
import { queryRows } from '../db/rows.ts';
import {
  apiKeys,
  campaigns,
  companies,
  documents,
  donationNotifications,
  donations,
  donors,
  emailTemplates,
  employerReviews,
  esignDocuments,
  invitations,
  notifees,
  oauthGrants,
  organizations,
  partnerApps,
  permissions,
  reports,
  scheduledJobs,
  sendingDomainKeys,
  sendingDomains,
  ssoConnections,
  ssoJoinRequests,
  users,
  webhookDeliveries,
  webhooks,
} from '../db/schema.ts';
import type { AnyRoute } from '../http/route.ts';
import { afterCommitSettled } from '../jobs/after-commit.ts';
import { memoryStorage } from '../storage/storage.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../test-oidc-provider.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { hashPassword } from './auth/passwords.ts';
import { signToken, verifyToken } from './auth/tokens.ts';
import { signingLink } from './esign/esign-link.ts';
import { startTestDns, type TestDns } from './sending-domain/test-dns.ts';
import { shippedTemplates } from './templates/defaults.ts';

/**
 * The permission matrix: every organization-scoped route of the route table, called as each demo
 * user, as an admin of another organization only, and anonymously, on a parent organization and
 * on one of its chapters. Each answer must be what the route's declared level and the permission
 * table say; a refused call must change nothing.
 */

let t: TestContext;
let app: ReturnType<typeof createApp>['app'];
const storage = memoryStorage();
const tokens: Record<string, string | undefined> = {};
const orgIds = { hopeHarbor: 0, northShore: 0 };

type Request = {
  method: string;
  path: string;
  body?: unknown;
  form?: FormData;
  /** A tokenInQuery route: what the link stands for (default: the list's filters). */
  linkData?: Record<string, unknown>;
};
/**
 * The level the route must need (pinned here, so loosening a route's declaration fails), and a
 * valid request. `success` is the status a permitted call answers when it is not a 2xx (the
 * billing links redirect).
 */
type Sample = {
  level: PermissionLevel;
  request: (orgId: number) => Promise<Omit<Request, 'method'>>;
  success?: number;
};

let unique = 0;
const next = () => ++unique;
const pdf = () => new TextEncoder().encode('%PDF-1.7\n');

async function userWithLevel(orgId: number) {
  const [user] = await t.db
    .insert(users)
    .values({ email: `matrix-${next()}@example.org`, name: 'Matrix User' })
    .returning();
  await t.db.insert(permissions).values({ org_id: orgId, user_id: user?.id ?? 0, level: 'read' });
  return user?.id ?? 0;
}

async function pendingInvitation(orgId: number) {
  const [user] = await t.db
    .insert(users)
    .values({ email: `invited-${next()}@example.org`, name: 'Invited' })
    .returning();
  await t.db.insert(invitations).values({
    org_id: orgId,
    user_id: user?.id ?? 0,
    level: 'read',
    token_hash: `matrix-${next()}`,
    expires_at: new Date(Date.now() + 60_000),
  });
  return user?.id ?? 0;
}

async function storedDocument(orgId: number) {
  await t.db.delete(documents).where(eq(documents.org_id, orgId));
  const file = await storage.put(pdf(), 'application/pdf');
  const [doc] = await t.db
    .insert(documents)
    .values({ org_id: orgId, name: 'W-9', file, content_type: 'application/pdf' })
    .returning();
  return doc?.id ?? 0;
}

async function storedNotifee(orgId: number) {
  const [row] = await t.db
    .insert(notifees)
    .values({ org_id: orgId, email: `n${next()}@example.org` })
    .returning();
  return row?.id ?? 0;
}

async function storedDonation(orgId: number, values: Partial<typeof donations.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 5000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 23,
      ...values,
    })
    .returning();
  return row?.id ?? 0;
}

/**
 * A match waiting on its donor with a deadline email due now (issue #30): send-now sends it
 * through the scheduler's handler, skip cancels it.
 */
async function scheduledEmail(orgId: number) {
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: orgId, name: 'Matrix Donor', email: `matrix-donor-${next()}@example.org` })
    .returning();
  const donationId = await storedDonation(orgId, { status_id: 7, donor_id: donor?.id ?? null });
  const [job] = await t.db
    .insert(scheduledJobs)
    .values({
      kind: 'deadline',
      key: `matrix-deadline-${next()}`,
      donation_id: donationId,
      organization_id: orgId,
      payload: { deadline: '2099-12-31' },
      run_at: new Date(),
    })
    .returning();
  return `/api/donation/${donationId}/email-schedule/${job?.id ?? 0}`;
}

/** An employer answer of one of the organization's matches, waiting for review. */
async function storedReview(orgId: number) {
  const [company] = await t.db.select({ id: companies.id }).from(companies).limit(1);
  const [row] = await t.db
    .insert(employerReviews)
    .values({
      organization_id: orgId,
      donation_id: await storedDonation(orgId),
      company_id: company?.id ?? 0,
      method: 'name',
      confidence: 60,
      reason: "typed 'Acme Analytcs', close to Acme Analytics",
    })
    .returning();
  return row?.id ?? 0;
}

/** A donor email about a match of the organization (its preview is read-level). */
async function storedNotification(orgId: number) {
  const [row] = await t.db
    .insert(donationNotifications)
    .values({
      donation_id: await storedDonation(orgId),
      organization_id: orgId,
      status_id: 23,
      to_email: 'matrix-donor@example.org',
      subject: 'Where do you work?',
      html: '<p>Hello</p>',
      text: 'Hello',
      open_token_hash: `matrix-${next()}`,
    })
    .returning();
  return row?.id ?? 0;
}

/** A match at status 4 with an e-sign company: one whose e-sign packet can be downloaded. */
async function storedPacketDonation(orgId: number) {
  const name = 'Matrix Esign Co';
  const [company] =
    (await t.db.select().from(companies).where(eq(companies.name, name))).length > 0
      ? await t.db.select().from(companies).where(eq(companies.name, name))
      : await t.db
          .insert(companies)
          .values({ name, match_method: 'esign', forms_email: 'matrix-forms@example.org' })
          .returning();
  return storedDonation(orgId, { status_id: 4, company_id: company?.id ?? null });
}

/** A company of the catalogue for the campaigns' samples. */
async function matrixCompany() {
  const name = 'Matrix Campaign Co';
  const [found] = await t.db.select().from(companies).where(eq(companies.name, name));
  const [company] = found ? [found] : await t.db.insert(companies).values({ name }).returning();
  return company?.id ?? 0;
}

const campaignBody = async () => ({
  name: `Campaign ${next()}`,
  company_id: await matrixCompany(),
  start_date: '2025-11-01',
  end_date: '2025-11-30',
  match_ratio: '2:1',
});

async function storedCampaign(orgId: number) {
  const [row] = await t.db
    .insert(campaigns)
    .values({
      organization_id: orgId,
      company_id: await matrixCompany(),
      name: 'Matrix Campaign',
      start_date: '2025-12-01',
      end_date: '2025-12-31',
    })
    .returning();
  return row?.id ?? 0;
}

/** A donor-signed packet, made once through the signing link and shared by later samples. */
let signedPacket: Pick<typeof esignDocuments.$inferSelect, 'file' | 'file_sha256' | 'audit'> | undefined;

/** A match its donor has signed (at NPO to Verify/Sign), ready to be countersigned. */
async function storedSignedDonation(orgId: number) {
  const id = await storedPacketDonation(orgId);
  if (!signedPacket) {
    await t.db.update(donations).set({ status_id: 5 }).where(eq(donations.id, id));
    const url = await signingLink(t.db, t.config, { id, organization_id: orgId }, new Date());
    const signed = await call(app, 'POST', `/api/esign/${url.slice(url.indexOf('/sign/') + 6)}`, {
      body: { name: 'Matrix Donor', consent: true },
    });
    if (signed.status !== 200) throw new Error(`signing failed: ${signed.status} ${signed.text}`);
    const [made] = await t.db.select().from(esignDocuments).where(eq(esignDocuments.donation_id, id));
    signedPacket = made && { file: made.file, file_sha256: made.file_sha256, audit: made.audit };
    return id;
  }
  await t.db.update(donations).set({ status_id: 3 }).where(eq(donations.id, id));
  await t.db
    .insert(esignDocuments)
    .values({ donation_id: id, organization_id: orgId, donor_signed_at: new Date(), ...signedPacket });
  return id;
}

async function storedApiKey(orgId: number) {
  const [row] = await t.db
    .insert(apiKeys)
    .values({ organization_id: orgId, prefix: 'tf_matrix', key_hash: `matrix-${next()}` })
    .returning();
  return row?.id ?? 0;
}

/** A live connection of a partner app to the organization (an OAuth grant). */
async function storedGrant(orgId: number) {
  const [app] = await t.db
    .insert(partnerApps)
    .values({
      client_id: `tfc_matrix_${next()}`,
      name: 'Matrix Partner',
      website: 'https://partner.example',
      redirect_uris: ['https://partner.example/callback'],
      scopes: ['matches:read'],
    })
    .returning();
  const [grant] = await t.db
    .insert(oauthGrants)
    .values({ app_id: app?.id ?? 0, organization_id: orgId, scopes: ['matches:read'] })
    .returning();
  return grant?.id ?? 0;
}

async function storedWebhook(orgId: number) {
  const [row] = await t.db
    .insert(webhooks)
    .values({
      organization_id: orgId,
      url: 'hooks.example.org/matrix',
      secret: 'whsec_bWF0cml4LXNlY3JldC1rZXktMTIz',
    })
    .returning();
  return row?.id ?? 0;
}

async function storedDelivery(orgId: number) {
  const webhookId = await storedWebhook(orgId);
  const [row] = await t.db
    .insert(webhookDeliveries)
    .values({
      webhook_id: webhookId,
      event: 'status',
      message_id: `msg_matrix${next()}`,
      payload: {},
      status: 'failed',
      give_up_at: new Date(),
    })
    .returning();
  return { webhookId, deliveryId: row?.id ?? 0 };
}

/** A version A of template 7 in the organization (made once), for the template calls. */
async function storedTemplate(orgId: number): Promise<number> {
  const [found] = await t.db
    .select({ id: emailTemplates.id })
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.organization_id, orgId),
        eq(emailTemplates.status_id, 7),
        eq(emailTemplates.version, 1),
      ),
    );
  if (found) return found.id;
  const [made] = await t.db
    .insert(emailTemplates)
    .values({ organization_id: orgId, status_id: 7, version: 1, live: false, ...shippedTemplates[7] })
    .returning({ id: emailTemplates.id });
  return made?.id ?? 0;
}

/** A one-row donation file for the import calls, sent to the organization (or chapter) itself. */
/** A one-line payout report (a new line each time, so each confirmation records something). */
function payoutForm() {
  const form = new FormData();
  const csv = `Donor Name,Donor Email,Amount Paid\nMatrix Donor,matrix-${next()}@example.org,50\n`;
  form.set('report', new File([csv], 'payouts.csv', { type: 'text/csv' }));
  form.set('choices', JSON.stringify({ 2: 'create' }));
  return form;
}

async function importForm(orgId: number, upload: boolean) {
  const [org] = await t.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const csv = `Donor Name,Amount,Date,Transaction ID,Organization\nMatrix Donor,50,2025-03-01,matrix-${next()},"${org?.name}"\n`;
  const form = new FormData();
  form.set('donations', new File([csv], 'donations.csv', { type: 'text/csv' }));
  form.set('no_company', 'true');
  if (upload) {
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        amount: 'amount',
        date: 'donated_at',
        transaction_id: 'transaction_id',
        organization: 'organization_name',
      }),
    );
  }
  return form;
}

/** A shared report of the organization (a personal one is its author's alone). */
async function storedReport(orgId: number) {
  const [row] = await t.db
    .insert(reports)
    .values({
      organization_id: orgId,
      name: 'Matrix Report',
      scope: 'organization',
      columns: [['donations.id', 'ID']],
    })
    .returning();
  return row?.id ?? 0;
}

const donationBody = () => ({
  donated_at: '2025-03-01 12:00:00',
  amount: 50,
  donor: { name: 'Matrix Donor', email: `donor-${next()}@example.org` },
  company_id: null,
});

/** A verified sender of the organization with its signing key, made afresh (a rotation needs one without a new key). */
async function storedSendingDomain(orgId: number) {
  await t.db.delete(sendingDomains).where(eq(sendingDomains.organization_id, orgId));
  const [row] = await t.db
    .insert(sendingDomains)
    .values({
      organization_id: orgId,
      from_name: 'Matrix Sender',
      from_email: 'giving@matrix.example',
      domain: 'matrix.example',
      status: 'verified',
    })
    .returning();
  await t.db
    .insert(sendingDomainKeys)
    .values({ sending_domain_id: row?.id ?? 0, selector: 'matrix1', public_key: 'AAAA', state: 'active' });
}

/**
 * A valid request for each organization-scoped route, keyed by method and path. A route without
 * one fails the test below: add its sample here when you add the route.
 */
const samples: Record<string, Sample> = {
  'get /api/organization/:id': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}` }),
  },
  'get /api/organization/:id/bills': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/bills` }),
  },
  // Issue #27: the Stripe invoices and the subscription's status are the admins' (they act on them).
  'get /api/organization/:id/invoices': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/invoices` }),
  },
  'get /api/organization/:id/subscription': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/subscription` }),
  },
  'put /api/organization/:id/partial': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/partial?phone=${next()}` }),
  },
  'post /api/organization/:id/upload': {
    level: 'write',
    request: async (id) => {
      await t.db.delete(documents).where(eq(documents.org_id, id));
      const form = new FormData();
      form.set('file', new File([pdf()], 'w9.pdf', { type: 'application/pdf' }));
      form.set('name', `Document ${next()}`);
      return { path: `/api/organization/${id}/upload`, form };
    },
  },
  'delete /api/organization/:id/document/:docId': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/document/${await storedDocument(id)}` }),
  },
  'get /api/organization/:id/document/:docId/file': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/document/${await storedDocument(id)}/file` }),
  },
  'post /api/user/permission': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/permission',
      body: { org_id: id, email: `added-${next()}@example.org`, level: 'read', name: 'Added' },
    }),
  },
  'delete /api/user/permission': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/permission',
      body: { org_id: id, user_id: await userWithLevel(id) },
    }),
  },
  // Issue #24: the two-factor policy and a member's reset (admins).
  'get /api/organization/:id/two-factor': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/two-factor` }),
  },
  'put /api/organization/:id/two-factor': {
    level: 'admin',
    // Turning it off is what an admin without a second factor of their own may do.
    request: async (id) => ({
      path: `/api/organization/${id}/two-factor`,
      body: { require_two_factor: false },
    }),
  },
  'post /api/organization/:id/user/:userId/reset-two-factor': {
    level: 'admin',
    request: async (id) => ({
      path: `/api/organization/${id}/user/${await userWithLevel(id)}/reset-two-factor`,
    }),
  },
  'put /api/user/:id': {
    level: 'admin',
    request: async (id) => {
      const userId = await userWithLevel(id);
      return {
        path: `/api/user/${userId}`,
        body: { org_id: id, user_id: userId, name: 'Renamed', email: `renamed-${next()}@example.org` },
      };
    },
  },
  'post /api/user/invitation': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/invitation',
      body: { org_id: id, user_id: await pendingInvitation(id) },
    }),
  },
  'delete /api/user/invitation': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/invitation',
      body: { org_id: id, user_id: await pendingInvitation(id) },
    }),
  },
  'get /api/organization/:id/donation': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/donation?filters[status_group]=npo_verify` }),
  },
  'post /api/organization/:id/donation': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/donation`, body: donationBody() }),
  },
  'get /api/donation/:id': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedDonation(id)}` }),
  },
  'put /api/donation/:id': {
    level: 'write',
    request: async (id) => ({
      path: `/api/donation/${await storedDonation(id)}`,
      body: { ...donationBody(), reprocess: true },
    }),
  },
  'delete /api/donation/:id': {
    level: 'write',
    request: async (id) => ({ path: `/api/donation/${await storedDonation(id)}` }),
  },
  'get /api/donation/:id/email-schedule': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedDonation(id)}/email-schedule` }),
  },
  'post /api/donation/:id/email-schedule/:jobId/send': {
    level: 'write',
    request: async (id) => ({ path: `${await scheduledEmail(id)}/send` }),
  },
  'post /api/donation/:id/email-schedule/:jobId/skip': {
    level: 'write',
    request: async (id) => ({ path: `${await scheduledEmail(id)}/skip` }),
  },
  'get /api/organization/:id/scheduled-emails': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/scheduled-emails?template=digest` }),
  },
  'get /api/donation/:id/esign': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedPacketDonation(id)}/esign` }),
  },
  'post /api/donation/:id/esign/countersign': {
    level: 'write',
    request: async (id) => ({
      path: `/api/donation/${await storedSignedDonation(id)}/esign/countersign`,
      body: { name: 'Matrix Signer' },
    }),
  },
  'post /api/donation/esign/countersign': {
    level: 'write',
    request: async (id) => ({
      path: '/api/donation/esign/countersign',
      body: { donation_ids: [await storedSignedDonation(id)], name: 'Matrix Signer' },
    }),
  },
  'post /api/donation/:id/esign/deliver': {
    level: 'write',
    request: async (id) => {
      const donation = await storedSignedDonation(id);
      await t.db
        .update(esignDocuments)
        .set({ countersigned_at: new Date() })
        .where(eq(esignDocuments.donation_id, donation));
      return { path: `/api/donation/${donation}/esign/deliver` };
    },
  },
  'post /api/donation/:id/esign/posted': {
    level: 'write',
    request: async (id) => ({
      path: `/api/donation/${await storedDonation(id, { status_id: 6 })}/esign/posted`,
    }),
  },
  'post /api/donation/confirm': {
    level: 'write',
    request: async (id) => ({
      path: '/api/donation/confirm',
      body: { donation_ids: [await storedDonation(id), await storedDonation(id)], status: 'submitted' },
    }),
  },
  'post /api/organization/:id/employers/screenings': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/employers/screenings` }),
  },
  'get /api/organization/:id/employers/screenings/latest': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/employers/screenings/latest` }),
  },
  'get /api/organization/:id/employers/reviews': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/employers/reviews` }),
  },
  'post /api/organization/:id/employers/reviews/decide': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/employers/reviews/decide`,
      body: { ids: [await storedReview(id)], action: 'reject' },
    }),
  },
  'get /api/organization/:id/employers/summary': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/employers/summary` }),
  },
  'get /api/organization/:id/verification': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/verification` }),
  },
  'post /api/organization/:id/verification/verify': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/verification/verify`,
      body: { donation_ids: [await storedDonation(id, { status_id: 3 })] },
    }),
  },
  'post /api/organization/:id/verification/decline': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/verification/decline`,
      body: { donation_ids: [await storedDonation(id, { status_id: 3 })], reason: 'Not our gift' },
    }),
  },
  'get /api/organization/:id/payouts': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/payouts` }),
  },
  'post /api/organization/:id/payouts/preview': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/payouts/preview`, form: payoutForm() }),
  },
  'post /api/organization/:id/payouts/confirm': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/payouts/confirm`, form: payoutForm() }),
  },
  'get /api/donation/:id/csv-token': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${id}/csv-token?filters[minAmount]=10` }),
  },
  'get /donation/:id/esign/download': {
    level: 'read',
    request: async (id) => ({ path: `/donation/${await storedPacketDonation(id)}/esign/download` }),
  },
  'get /api/donation/:id/esign/download': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedPacketDonation(id)}/esign/download` }),
  },
  // The browser's navigations and links: the credential is ?token= (added by send below).
  'get /api/organization/:id/billing-link': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/billing-link?action=subscribe&plan=flat_0` }),
  },
  'get /api/organization/:id/subscribe/:plan': {
    level: 'admin',
    success: 303,
    request: async (id) => ({
      path: `/api/organization/${id}/subscribe/flat_0`,
      linkData: { action: 'subscribe', plan: 'flat_0' },
    }),
  },
  'get /api/organization/:id/billing-portal': {
    level: 'admin',
    success: 303,
    request: async (id) => ({
      path: `/api/organization/${id}/billing-portal`,
      linkData: { action: 'portal' },
    }),
  },
  'get /api/donation/:id/csv': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${id}/csv` }),
  },
  'get /api/notification/:id/preview': {
    level: 'read',
    request: async (id) => ({ path: `/api/notification/${await storedNotification(id)}/preview` }),
  },
  'get /api/organization/:id/statistics': {
    level: 'read',
    request: async (id) => ({
      path: `/api/organization/${id}/statistics?from=2025-01-01&to=2025-12-31&report=by_status`,
    }),
  },
  'get /api/organization/:id/statistics/tiers': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/statistics/tiers?since=2025-01-01T00:00:00Z` }),
  },
  'post /api/organization/:id/dashboard/visit': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/dashboard/visit` }),
  },
  'get /api/organization/:id/statistics/insights': {
    level: 'read',
    request: async (id) => ({
      path: `/api/organization/${id}/statistics/insights?from=2025-01-01&to=2025-12-31`,
    }),
  },
  'put /api/organization/:id/feature-request': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/feature-request`,
      body: { feature: 'better-reporting' },
    }),
  },
  'get /api/organization/:id/reports': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/reports` }),
  },
  'post /api/organization/:id/reports': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/reports`,
      body: { name: `Report ${next()}`, scope: 'organization', columns: { 'donations.id': 'ID' } },
    }),
  },
  'delete /api/reports/:id': {
    level: 'write',
    request: async (id) => ({ path: `/api/reports/${await storedReport(id)}` }),
  },
  'get /api/reports/:id/download': {
    level: 'read',
    request: async (id) => {
      const report = await storedReport(id);
      return { path: `/api/reports/${report}/download`, linkData: { report, format: 'csv' } };
    },
  },
  'get /api/organization/:id/audit-events': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/audit-events?limit=5` }),
  },
  'get /api/organization/:id/audit-events/csv-token': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/audit-events/csv-token?kind=api_key.created` }),
  },
  'get /api/organization/:id/audit-events/csv': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/audit-events/csv`, linkData: { audit: {} } }),
  },
  'get /api/organization/:id/campaigns': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/campaigns` }),
  },
  'post /api/organization/:id/campaigns': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/campaigns`, body: await campaignBody() }),
  },
  'put /api/campaigns/:id': {
    level: 'write',
    request: async (id) => ({
      path: `/api/campaigns/${await storedCampaign(id)}`,
      body: await campaignBody(),
    }),
  },
  'delete /api/campaigns/:id': {
    level: 'write',
    request: async (id) => ({ path: `/api/campaigns/${await storedCampaign(id)}` }),
  },
  'post /api/organization/:id/donation/import-file/Test': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/donation/import-file/Test`,
      form: await importForm(id, false),
    }),
  },
  'post /api/organization/:id/donation/import-file/Upload': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/donation/import-file/Upload`,
      form: await importForm(id, true),
    }),
  },
  'get /api/organization/:id/partial/api_keys': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/partial/api_keys` }),
  },
  'get /api/organization/:id/api-key': {
    level: 'admin',
    request: async (id) => {
      // The organization's keys are capped: start each call from none.
      await t.db.delete(apiKeys).where(eq(apiKeys.organization_id, id));
      return { path: `/api/organization/${id}/api-key` };
    },
  },
  'post /api/organization/:id/api-key': {
    level: 'admin',
    request: async (id) => {
      await t.db.delete(apiKeys).where(eq(apiKeys.organization_id, id));
      return { path: `/api/organization/${id}/api-key` };
    },
  },
  'put /api/organization/:id/api-key/:keyId': {
    level: 'admin',
    request: async (id) => ({
      path: `/api/organization/${id}/api-key/${await storedApiKey(id)}`,
      body: { name: `Key ${next()}` },
    }),
  },
  'delete /api/organization/:id/api-key/:keyId': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/api-key/${await storedApiKey(id)}` }),
  },
  'get /api/organization/:id/sending-domain': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/sending-domain` }),
  },
  'put /api/organization/:id/sending-domain': {
    level: 'admin',
    request: async (id) => ({
      path: `/api/organization/${id}/sending-domain`,
      body: { from_name: `Sender ${next()}`, from_email: `giving@org-${next()}.example` },
    }),
  },
  'delete /api/organization/:id/sending-domain': {
    level: 'admin',
    request: async (id) => {
      await storedSendingDomain(id);
      return { path: `/api/organization/${id}/sending-domain` };
    },
  },
  'post /api/organization/:id/sending-domain/verify': {
    level: 'admin',
    request: async (id) => {
      await storedSendingDomain(id);
      return { path: `/api/organization/${id}/sending-domain/verify` };
    },
  },
  'post /api/organization/:id/sending-domain/rotate': {
    level: 'admin',
    request: async (id) => {
      await storedSendingDomain(id);
      return { path: `/api/organization/${id}/sending-domain/rotate` };
    },
  },
  'get /api/organization/:id/connected-apps': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/connected-apps` }),
  },
  'delete /api/organization/:id/connected-apps/:grantId': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/connected-apps/${await storedGrant(id)}` }),
  },
  'get /api/organization/:id/partial/webhooks': {
    level: 'admin',
    request: async (id) => ({ path: `/api/organization/${id}/partial/webhooks` }),
  },
  'post /api/organization/:id/webhook': {
    level: 'admin',
    request: async (id) => {
      await t.db.delete(webhooks).where(eq(webhooks.organization_id, id));
      return { path: `/api/organization/${id}/webhook` };
    },
  },
  'put /api/webhook/:id': {
    level: 'admin',
    request: async (id) => ({
      path: `/api/webhook/${await storedWebhook(id)}`,
      body: { url: `https://hooks.example.org/${next()}`, token: 'abc', event: 'first_open' },
    }),
  },
  'delete /api/webhook/:id': {
    level: 'admin',
    request: async (id) => ({ path: `/api/webhook/${await storedWebhook(id)}` }),
  },
  'get /api/webhook/:id/deliveries': {
    level: 'admin',
    request: async (id) => ({ path: `/api/webhook/${await storedWebhook(id)}/deliveries` }),
  },
  'post /api/webhook/:id/test': {
    level: 'admin',
    request: async (id) => ({ path: `/api/webhook/${await storedWebhook(id)}/test` }),
  },
  'post /api/webhook/:id/delivery/:deliveryId/redeliver': {
    level: 'admin',
    request: async (id) => {
      const { webhookId, deliveryId } = await storedDelivery(id);
      return { path: `/api/webhook/${webhookId}/delivery/${deliveryId}/redeliver` };
    },
  },
  'get /api/organization/:orgId/mail-templates/:statusId': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/mail-templates/7` }),
  },
  'get /api/organization/:orgId/template/:id': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/template/${await storedTemplate(id)}` }),
  },
  'post /api/organization/:orgId/template/:id': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/template/${await storedTemplate(id)}`,
      body: { ...shippedTemplates[7], subject1: `Matrix ${next()}`, live: false },
    }),
  },
  'post /api/organization/:orgId/template/:id/reset': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/template/${await storedTemplate(id)}/reset` }),
  },
  'post /api/organization/:orgId/preview-template': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/preview-template`, body: shippedTemplates[7] }),
  },
};
for (const prefix of ['/api/organization', '/organization']) {
  samples[`get ${prefix}/:id/notifee`] = {
    level: 'read',
    request: async (id) => ({ path: `${prefix}/${id}/notifee` }),
  };
  samples[`post ${prefix}/:id/notifee`] = {
    level: 'admin',
    request: async (id) => ({
      path: `${prefix}/${id}/notifee`,
      body: { email: `new-${next()}@example.org` },
    }),
  };
  samples[`delete ${prefix}/:id/notifee/:notifeeId`] = {
    level: 'admin',
    request: async (id) => ({ path: `${prefix}/${id}/notifee/${await storedNotifee(id)}` }),
  };
}

/**
 * Single sign-on (issue #24): saving a connection asks a real provider (in-process, below) for its
 * discovery document; the domain is freed first, so each permitted save can claim it.
 */
let op: TestOidcProvider | undefined;
const ssoBody = () => ({
  provider_name: 'Matrix IdP',
  issuer: op?.issuer ?? '',
  client_id: op?.clientId ?? '',
  client_secret: op?.clientSecret ?? '',
  domains: ['twofold.test'],
  default_level: 'read',
  join_mode: 'join',
  require_sso: false,
});
async function storedSsoConnection(orgId: number) {
  await t.db
    .insert(ssoConnections)
    .values({
      organization_id: orgId,
      provider_name: 'Matrix IdP',
      issuer: 'https://idp.example.org',
      client_id: 'matrix',
      client_secret_sealed: 'v1.sealed.elsewhere.x',
    })
    .onConflictDoNothing();
}
async function ssoJoinRequest(orgId: number) {
  const [user] = await t.db
    .insert(users)
    .values({ email: `sso-${next()}@example.org` })
    .returning();
  const [row] = await t.db
    .insert(ssoJoinRequests)
    .values({ organization_id: orgId, user_id: user?.id ?? 0 })
    .returning();
  return row?.id ?? 0;
}
samples['get /api/organization/:id/sso'] = {
  level: 'admin',
  request: async (id) => ({ path: `/api/organization/${id}/sso` }),
};
samples['put /api/organization/:id/sso'] = {
  level: 'admin',
  request: async (id) => {
    await t.db.delete(ssoConnections);
    return { path: `/api/organization/${id}/sso`, body: ssoBody() };
  },
};
samples['delete /api/organization/:id/sso'] = {
  level: 'admin',
  request: async (id) => {
    await storedSsoConnection(id);
    return { path: `/api/organization/${id}/sso` };
  },
};
samples['post /api/organization/:id/sso/requests/:requestId/approve'] = {
  level: 'admin',
  request: async (id) => ({
    path: `/api/organization/${id}/sso/requests/${await ssoJoinRequest(id)}/approve`,
    body: { level: 'read' },
  }),
};
samples['delete /api/organization/:id/sso/requests/:requestId'] = {
  level: 'admin',
  request: async (id) => ({ path: `/api/organization/${id}/sso/requests/${await ssoJoinRequest(id)}` }),
};

/** Who calls, and their level on Hope Harbor (and so on its chapters). */
const actors: Array<{ who: string; level: EffectiveLevel | 'anonymous' }> = [
  { who: 'super', level: 'admin' },
  { who: 'admin', level: 'admin' },
  { who: 'writer', level: 'write' },
  { who: 'reader', level: 'read' },
  { who: 'outsider', level: 'none' },
  { who: 'anonymous', level: 'anonymous' },
];

/** Verify asks a real DNS server on this machine (it knows no names: every record is missing). */
let dns: TestDns;

beforeAll(async () => {
  dns = await startTestDns();
  t = await createTestContext({
    config: { logRequests: false, dnsResolver: [dns.server], ssoAllowPrivate: true },
  });
  // A port of this engineer's range (issue #24: 9001-9050).
  op = await startTestOidcProvider({
    port: 9021,
    redirectUris: [`${t.config.publicUrl}/api/auth/sso/callback`],
  });
  app = createApp({ config: t.config, db: t.db, storage, logger: t.logger }).app;
  const demo = await demoOrganizationIds(t.db);
  orgIds.hopeHarbor = demo.hopeHarbor;
  orgIds.northShore = demo.northShore;
  const mapleId = demo.mapleStreet;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'outsider@example.org',
      name: 'Out Sider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: mapleId, user_id: outsider?.id ?? 0, level: 'admin' });
  for (const who of ['super', 'admin', 'writer', 'reader'])
    tokens[who] = await signIn(app, `${who}@twofold.test`);
  tokens.outsider = await signIn(app, 'outsider@example.org', 'outsider-pass');
});
afterAll(async () => {
  await op?.close();
  await t.close();
  await dns.close();
});

const orgScoped = (routes: readonly AnyRoute[]) => routes.filter((r) => typeof r.access === 'object');

/**
 * Sends as the caller: the bearer header, or for a tokenInQuery route the caller's `?token=` of
 * the route's purpose (their session itself, or a CSV link made for them and the organization).
 */
async function send(route: AnyRoute, orgId: number, request: Request, token: string | undefined) {
  const rule = route.tokenInQuery;
  if (rule) {
    let credential = token;
    if (token) {
      // The link the portal would fetch for this user: a tokenInQuery route never takes a session.
      const userId = (await verifyToken(t.config.jwtSecret, 'access', token, t.db))?.subject ?? '0';
      credential = await signToken(t.config.jwtSecret, rule.purpose, userId, {
        org: orgId,
        data: request.linkData ?? { filters: {} },
      });
    }
    const joiner = request.path.includes('?') ? '&' : '?';
    const path = credential
      ? `${request.path}${joiner}token=${encodeURIComponent(credential)}`
      : request.path;
    return sendRaw({ ...request, path }, undefined);
  }
  return sendRaw(request, token);
}

async function sendRaw(request: Request, token: string | undefined) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (request.form) {
    const res = await app.request(request.path, {
      method: request.method.toUpperCase(),
      body: request.form,
      headers,
    });
    return { status: res.status, text: await res.text() };
  }
  return call(app, request.method.toUpperCase(), request.path, {
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** Everything a call on the organization could change. */
async function snapshot(orgId: number) {
  // An allowed import's emails render in the background after it answers; they belong to it.
  await afterCommitSettled(t.db);
  const table = async (query: ReturnType<typeof sql>) => JSON.stringify(await queryRows(t.db, query));
  return Promise.all([
    table(sql`select * from organizations where id = ${orgId}`),
    table(sql`select * from addresses where id = (select address_id from organizations where id = ${orgId})`),
    table(sql`select * from organization_categories where organization_id = ${orgId} order by category_id`),
    table(sql`select * from permissions where org_id = ${orgId} order by id`),
    table(sql`select id, email, name, password_hash from users order by id`),
    table(sql`select * from notifees where org_id = ${orgId} order by id`),
    table(sql`select * from documents where org_id = ${orgId} order by id`),
    table(sql`select count(*) from outbox`),
    table(sql`select * from donations where organization_id = ${orgId} order by id`),
    table(sql`select count(*) from donors`),
    table(sql`select count(*) from donation_status_history`),
    table(sql`select id, status from scheduled_jobs where organization_id = ${orgId} order by id`),
    table(sql`select count(*) from email_schedule_actions`),
    table(sql`select * from esign_documents where organization_id = ${orgId} order by id`),
    table(sql`select id, name, revoked_at from api_keys where organization_id = ${orgId} order by id`),
    table(
      sql`select w.id, w.url, w.token, w.event, (select count(*) from webhook_deliveries d where d.webhook_id = w.id and d.status = 'pending') as pending from webhooks w where organization_id = ${orgId} order by id`,
    ),
    table(sql`select * from email_templates where organization_id = ${orgId} and version > 0 order by id`),
    table(sql`select * from reports where organization_id = ${orgId} order by id`),
    table(sql`select * from campaigns where organization_id = ${orgId} order by id`),
    table(
      sql`select d.*, (select json_agg(k.selector order by k.id) from sending_domain_keys k where k.sending_domain_id = d.id) as keys from sending_domains d where organization_id = ${orgId}`,
    ),
    table(
      sql`select id, provider_name, issuer, client_id, default_level, join_mode, require_sso from sso_connections where organization_id = ${orgId}`,
    ),
    table(
      sql`select d.domain from sso_domains d join sso_connections c on c.id = d.connection_id where c.organization_id = ${orgId} order by d.domain`,
    ),
    table(sql`select * from sso_join_requests where organization_id = ${orgId} order by id`),
    // A refused call records nothing either.
    table(sql`select count(*) from audit_events`),
    // Issue #24: a refused policy change or reset ends no session and removes no factor.
    table(sql`select count(*) from user_sessions where ended_at is not null`),
    table(sql`select user_id, confirmed_at from user_totp order by user_id`),
    table(sql`select id, revoked_at from oauth_grants where organization_id = ${orgId} order by id`),
  ]);
}

describe('the permission matrix', () => {
  it('has a sample request for every organization-scoped route, and each route needs the pinned level', () => {
    const missing = orgScoped(t.routes)
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !samples[key]);
    expect(missing).toEqual([]);
    const declared = Object.fromEntries(
      orgScoped(t.routes).map((r) => [
        `${r.method} ${r.path}`,
        (r.access as { level: PermissionLevel }).level,
      ]),
    );
    expect(declared).toEqual(Object.fromEntries(Object.entries(samples).map(([key, s]) => [key, s.level])));
  });

  for (const [orgName, orgKey] of [
    ['Hope Harbor', 'hopeHarbor'],
    ['its North Shore chapter (levels held on the parent)', 'northShore'],
  ] as const) {
    for (const { who, level } of actors) {
      it(`answers ${who} on ${orgName} as the declared levels say, and refusals change nothing`, async () => {
        const orgId = orgIds[orgKey];
        const problems: string[] = [];
        for (const route of orgScoped(t.routes)) {
          const key = `${route.method} ${route.path}`;
          const sample = samples[key];
          if (!sample || typeof route.access !== 'object') continue;
          const request = { method: route.method, ...(await sample.request(orgId)) };
          const before = await snapshot(orgId);
          const res = await send(route, orgId, request, tokens[who]);
          const needed = sample.level;
          // A billing link without a valid token sends the browser to sign in rather than a 401.
          const unauthenticated = typeof route.tokenInQuery?.refused === 'function' ? 303 : 401;
          const expected =
            level === 'anonymous'
              ? unauthenticated
              : level === 'none'
                ? 404
                : atLeast(level, needed)
                  ? 'ok'
                  : 403;
          const ok =
            expected === 'ok'
              ? sample.success
                ? res.status === sample.success
                : res.status >= 200 && res.status < 300
              : res.status === expected;
          if (!ok)
            problems.push(
              `${key} (needs ${needed}): expected ${expected}, got ${res.status} ${res.text.slice(0, 120)}`,
            );
          if (expected !== 'ok' && JSON.stringify(await snapshot(orgId)) !== JSON.stringify(before))
            problems.push(`${key}: a refused call changed data`);
          // A route that finds its organization through a record answers as if the record were
          // missing; the others with the spec's 'Organization with id {id} not found'.
          const notFound = route.access.unreachable ?? `Organization with id ${orgId} not found`;
          if (expected === 404 && !res.text.includes(notFound))
            problems.push(`${key}: 404 without the message ${notFound}`);
        }
        expect(problems).toEqual([]);
      });
    }
  }
});

/**
 * The routes for super users only (access 'super'): the companies catalogue's edits and review
 * queue, the feature request counts. Every other signed-in user is refused with 403, an anonymous
 * caller with 401, and a refusal changes nothing.
 */
describe('the super-user routes', () => {
  const superOnly = () => t.routes.filter((r) => r.access === 'super');

  /** A valid request for each: a company's own programme, a pending suggestion. */
  async function superSample(route: AnyRoute): Promise<Request> {
    const [company] = await t.db.select().from(companies).orderBy(companies.id).limit(1);
    const id = company?.id ?? 1;
    if (route.path === '/api/companies/:id') {
      const { json } = await call(app, 'GET', `/api/companies/${id}`, { token: tokens.super });
      const { id: _id, name: _name, ...programme } = json.company;
      return { method: route.method, path: `/api/companies/${id}`, body: { ...programme, match_ratio: 4 } };
    }
    if (route.path.startsWith('/api/company-suggestions/:id/')) {
      const { json } = await call(app, 'POST', `/api/companies/${id}/suggestions`, {
        token: tokens.reader,
        body: { proposed: { csr_vendor: `Vendor ${next()}` } },
      });
      return { method: route.method, path: route.path.replace(':id', String(json.suggestion_id)), body: {} };
    }
    if (route.method === 'post' && route.path === '/api/company-catalogue') {
      // The catalogue as exported: importing it again changes nothing, so a refusal is tested
      // on a file a permitted call would accept.
      const exported = await call(app, 'GET', '/api/company-catalogue?format=csv', { token: tokens.super });
      const form = new FormData();
      form.set('file', new File([exported.text], 'companies.csv', { type: 'text/csv' }));
      return { method: route.method, path: route.path, form };
    }
    if (route.path === '/api/user/:userId/reset-two-factor') {
      // A member of its own, so ending their sessions touches no token this file signs in with.
      const someone = await userWithLevel(orgIds.hopeHarbor);
      return { method: route.method, path: `/api/user/${someone}/reset-two-factor` };
    }
    if (route.path.startsWith('/api/partner-apps')) {
      const app = {
        name: `Partner ${next()}`,
        website: 'https://partner.example',
        redirect_uris: ['https://partner.example/callback'],
        scopes: ['matches:read'],
      };
      if (route.path === '/api/partner-apps')
        return { method: route.method, path: route.path, ...(route.method === 'post' ? { body: app } : {}) };
      const [stored] = await t.db
        .insert(partnerApps)
        .values({ ...app, client_id: `tfc_matrix_${next()}` })
        .returning();
      const path = route.path.replace(':id', String(stored?.id));
      return { method: route.method, path, ...(route.method === 'put' ? { body: app } : {}) };
    }
    return { method: route.method, path: route.path };
  }

  const catalogue = async () =>
    JSON.stringify(
      await Promise.all([
        // A refused reset ends no session and sends no email.
        queryRows(t.db, sql`select count(*) from user_sessions where ended_at is not null`),
        queryRows(t.db, sql`select count(*) from outbox`),
        queryRows(t.db, sql`select id, name, redirect_uris from partner_apps order by id`),
        queryRows(t.db, sql`select id, expires_at from partner_app_secrets order by id`),
        queryRows(t.db, sql`select * from companies order by id`),
        queryRows(t.db, sql`select * from company_changes order by id`),
        queryRows(t.db, sql`select id, status, review_note from company_suggestions order by id`),
      ]),
    );

  it('answers 403 to every other signed-in user and 401 anonymously, changing nothing; super users pass', async () => {
    // Pinned, so loosening a route's declaration fails here.
    expect(
      superOnly()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(
      [
        'get /api/company-suggestions',
        'get /api/feature-requests',
        'post /api/company-suggestions/:id/accept',
        'post /api/company-suggestions/:id/reject',
        'put /api/companies/:id',
        'get /api/company-catalogue',
        'post /api/company-catalogue',
        // Issue #24: a super user resets anyone's second factor.
        'post /api/user/:userId/reset-two-factor',
        'get /api/partner-apps',
        'post /api/partner-apps',
        'put /api/partner-apps/:id',
        'post /api/partner-apps/:id/secret',
      ].sort(),
    );
    const problems: string[] = [];
    for (const route of superOnly()) {
      const key = `${route.method} ${route.path}`;
      for (const who of ['admin', 'writer', 'reader', 'outsider', 'anonymous']) {
        const request = await superSample(route);
        const before = await catalogue();
        const res = await sendRaw(request, tokens[who]);
        const expected = who === 'anonymous' ? 401 : 403;
        if (res.status !== expected)
          problems.push(`${key} as ${who}: expected ${expected}, got ${res.status}`);
        if ((await catalogue()) !== before) problems.push(`${key} as ${who}: a refused call changed data`);
      }
      const res = await sendRaw(await superSample(route), tokens.super);
      if (res.status < 200 || res.status >= 300)
        problems.push(`${key} as super: got ${res.status} ${res.text}`);
    }
    expect(problems).toEqual([]);
  });
});
