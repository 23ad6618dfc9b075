import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type ElementProps<Attributes = object> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> &
  Attributes & { 'api-base'?: string };

/** The Twofold elements as JSX tags, with their kebab-case attributes. */
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'twofold-login': ElementProps<{ redirect?: string }>;
      'twofold-reset-password': ElementProps<{ token?: string }>;
      'twofold-sidebar': ElementProps<{
        'current-path'?: string;
        'logo-base'?: string;
        'companies-url'?: string;
        collapsed?: 'true' | 'false';
      }>;
      'twofold-org-picker': ElementProps<{ 'hide-single'?: 'true' | 'false' }>;
      'twofold-dashboard': ElementProps;
      'twofold-integrations': ElementProps<{ view?: string }>;
      'twofold-webhooks': ElementProps;
      'twofold-donations': ElementProps;
      'twofold-organization-details': ElementProps<{ tab?: string }>;
      'twofold-registration': ElementProps<{ 'support-email'?: string }>;
      'twofold-contact': ElementProps;
      'twofold-faq': ElementProps<{
        partner?: string;
        process?: string;
        company?: string;
        'match-id'?: string;
        'donor-email'?: string;
        'portal-base'?: string;
      }>;
      'twofold-donor-match-update': ElementProps<{ 'match-id'?: string }>;
      'twofold-match-request': ElementProps<{
        organization?: string;
        amount?: string;
        'donated-at'?: string;
        'transaction-id'?: string;
        'donor-name'?: string;
        'donor-email'?: string;
        'company-id'?: string;
      }>;
      'twofold-company-lookup': ElementProps<{ heading?: string }>;
      'twofold-companies': ElementProps;
      'twofold-esign': ElementProps<{ token?: string }>;
      'twofold-billing': ElementProps<{ view?: 'plans' | 'stripe-setup' }>;
      'twofold-template-editor': ElementProps<{ template?: string }>;
      'twofold-report-builder': ElementProps;
      'twofold-campaigns': ElementProps;
      'twofold-verification': ElementProps;
      'twofold-scheduled-emails': ElementProps;
      'twofold-account': ElementProps;
      'twofold-employers': ElementProps;
      'twofold-payouts': ElementProps;
      'twofold-toaster': ElementProps;
      'twofold-account': ElementProps;
    }
  }
}
