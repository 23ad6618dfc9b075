/** Registers every Twofold element (the portal imports this; embedders may import single files). */

export type { TwofoldEvent, TwofoldEventDetails, TwofoldEventName } from '../src/ui/events.ts';
export { TwofoldBilling } from './twofold-billing.ts';
export { TwofoldCampaigns } from './twofold-campaigns.ts';
export { TwofoldCompanies } from './twofold-companies.ts';
export { TwofoldCompanyLookup } from './twofold-company-lookup.ts';
export { TwofoldContact } from './twofold-contact.ts';
export { TwofoldDashboard } from './twofold-dashboard.ts';
export { TwofoldDonations } from './twofold-donations.ts';
export { TwofoldDonorMatchUpdate } from './twofold-donor-match-update.ts';
export { TwofoldEmployers } from './twofold-employers.ts';
export { TwofoldEsign } from './twofold-esign.ts';
export { TwofoldFaq } from './twofold-faq.ts';
export { TwofoldIntegrations } from './twofold-integrations.ts';
export { TwofoldLogin } from './twofold-login.ts';
export { TwofoldMatchDialog } from './twofold-match-dialog.ts';
export { TwofoldMatchRequest } from './twofold-match-request.ts';
export { TwofoldOrgPicker } from './twofold-org-picker.ts';
export { TwofoldOrganizationDetails } from './twofold-organization-details.ts';
export { TwofoldPayouts } from './twofold-payouts.ts';
export { TwofoldRegistration } from './twofold-registration.ts';
export { TwofoldReportBuilder } from './twofold-report-builder.ts';
export { TwofoldResetPassword } from './twofold-reset-password.ts';
export { TwofoldSidebar } from './twofold-sidebar.ts';
export { TwofoldTemplateEditor } from './twofold-template-editor.ts';
export { TwofoldToaster } from './twofold-toaster.ts';
export { TwofoldVerification } from './twofold-verification.ts';
export { TwofoldWebhooks } from './twofold-webhooks.ts';
