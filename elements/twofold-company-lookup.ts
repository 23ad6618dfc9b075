import lookupCss from '../src/features/company-lookup/company-lookup.css?inline';
import { CompanyLookup, type CompanyLookupProps } from '../src/features/company-lookup/company-lookup.tsx';
import suggestionCss from '../src/features/match-request/employer-suggestion.css?inline';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary The public employer lookup: a donor searches their employer (from 3 characters) and
 * sees whether and how it matches gifts — the method, ratio, minimum, maximum, deadline, the
 * company's guide and a link to its giving portal. Choosing a company tells the page, so a
 * `<twofold-match-request>` on the same page takes that company. Given a work email (the optional
 * field, or `email`), it asks "Is this your employer?" with the company the email's domain names. Works on another origin: point
 * `api-base` at the Twofold server.
 *
 * @attr api-base - The API's origin when it is not the page's own (e.g. `https://portal.twofold.test`).
 * @attr heading - The heading above the search. Default: 'Does your employer match gifts?'.
 * @attr email - The visitor's email, when the page knows it: fills the optional work email field, from whose domain the lookup asks "Is this your employer?".
 *
 * @event twofold-company-chosen - A company was chosen; `detail.companyId`, `detail.name`. Bubbles and is composed; `<twofold-match-request>` listens for it on its document.
 *
 * @csspart base - The element's inner root.
 * @csspart lookup - The panel.
 * @csspart results - The list of companies found.
 * @csspart result - One company found (a button).
 * @csspart detail - The chosen company's programme.
 * @csspart portal-link - The link to the company's giving portal.
 *
 * @cssproperty --twofold-color-primary - The chosen result's border, the detail's rule and the portal link.
 * @cssproperty --twofold-color-background - The panel's and the results' background.
 * @cssproperty --twofold-color-surface - The chosen result's and the detail's background.
 * @cssproperty --twofold-color-text - The text.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the panel, results and fields.
 */
export const TwofoldCompanyLookup = definePublicElement<CompanyLookupProps>(
  'twofold-company-lookup',
  CompanyLookup,
  {
    props: { heading: 'string', email: 'string' },
    styles: [lookupCss, suggestionCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-company-lookup': HTMLElement & CompanyLookupProps & { apiBase?: string };
  }
}
