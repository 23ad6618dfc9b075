import { openApiDocument } from './http/openapi.ts';
import { type AnyRoute, defineRoute } from './http/route.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.ts';
import { captchaRoutes } from './modules/captcha/captcha.routes.ts';
import { companiesRoutes } from './modules/companies/companies.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { donationsRoutes } from './modules/donations/donations.routes.ts';
import { donationsIoRoutes } from './modules/donations/donations-io.routes.ts';
import { donorRoutes } from './modules/donor/donor.routes.ts';
import { emailScheduleRoutes } from './modules/email-schedule/email-schedule.routes.ts';
import { employersRoutes } from './modules/employers/employers.routes.ts';
import { esignRoutes } from './modules/esign/esign.routes.ts';
import { apiKeysRoutes } from './modules/integrations/api-keys.routes.ts';
import { webhooksRoutes } from './modules/integrations/webhooks.routes.ts';
import { notifeesRoutes } from './modules/notifees/notifees.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { oauthRoutes } from './modules/oauth/oauth.routes.ts';
import { organizationRoutes } from './modules/organization/organization.routes.ts';
import { passkeysRoutes } from './modules/passkeys/passkeys.routes.ts';
import { payoutsRoutes } from './modules/payouts/payouts.routes.ts';
import { publicApiDocsRoutes, publicApiRoutes } from './modules/public-api/public-api.routes.ts';
import { registrationRoutes } from './modules/registration/registration.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { sendingDomainRoutes } from './modules/sending-domain/sending-domain.routes.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { metricsRoutes } from './modules/system/metrics.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { emailActionRoutes, templatesRoutes } from './modules/templates/templates.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { verificationRoutes } from './modules/verification/verification.routes.ts';

const openApiRoute = defineRoute({
  method: 'get',
  path: '/api/openapi.json',
  access: 'anonymous',
  summary: 'This document: the OpenAPI description of the API, generated from the route table',
  tags: ['system'],
  responses: { 200: { description: 'OpenAPI 3.1 document' } },
  handler: async () => openApiDocument(routes, { title: 'Twofold API', version: '0.1.0' }),
});

/**
 * The API's route table: every route of every module. The app mounts it, the OpenAPI document
 * is generated from it, and the tests walk it (a route added here is fuzzed and access-checked
 * without editing any test).
 */
export const routes: readonly AnyRoute[] = [
  ...authRoutes,
  ...passkeysRoutes,
  ...ssoRoutes,
  ...accountRoutes,
  ...organizationRoutes,
  ...registrationRoutes,
  ...captchaRoutes,
  ...contactRoutes,
  ...usersRoutes,
  ...notifeesRoutes,
  ...companiesRoutes,
  ...donationsRoutes,
  ...donationsIoRoutes,
  ...verificationRoutes,
  ...payoutsRoutes,
  ...donorRoutes,
  ...esignRoutes,
  ...emailScheduleRoutes,
  ...notificationsRoutes,
  ...billingRoutes,
  ...templatesRoutes,
  ...sendingDomainRoutes,
  ...emailActionRoutes,
  ...dashboardRoutes,
  ...reportsRoutes,
  ...campaignsRoutes,
  ...employersRoutes,
  ...systemRoutes,
  ...metricsRoutes,
  ...apiKeysRoutes,
  ...webhooksRoutes,
  ...auditRoutes,
  ...publicApiRoutes,
  ...publicApiDocsRoutes,
  ...oauthRoutes,
  openApiRoute,
];
