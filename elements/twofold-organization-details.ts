import detailsCss from '../src/features/organization/organization-details.css?inline';
import {
  OrganizationDetails,
  type OrganizationDetailsProps,
} from '../src/features/organization/organization-details.tsx';
import cardTableCss from '../src/ui/card-table.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Organization Details screen of the current organization: tabs basic, contact,
 * address, categories, users, files and settings, and for admins the audit log, with Cancel and
 * Save Changes.
 *
 * @attr tab - The tab to show (basic, contact, address, categories, users, files, settings,
 *   audit); defaults to the page's `?tab=` query value, and anything unknown (or audit for
 *   someone who is not an admin) shows basic.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The title and the Cancel and Save Changes buttons.
 * @csspart cancel-button - Cancel: resets the form to the saved organization.
 * @csspart save-button - Save Changes.
 * @csspart dialog - The confirmation dialogs (remove a user, delete a document).
 * @csspart export-button - The audit log's Export CSV.
 *
 * @cssproperty --twofold-color-primary - The accent colour.
 * @cssproperty --twofold-font-family - The typeface.
 */
export const TwofoldOrganizationDetails = defineElement<OrganizationDetailsProps>(
  'twofold-organization-details',
  OrganizationDetails,
  { props: { tab: 'string' }, styles: [cardTableCss, detailsCss] },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-organization-details': HTMLElement;
  }
}
