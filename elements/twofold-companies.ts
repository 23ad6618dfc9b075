import companiesCss from '../src/features/companies/companies.css?inline';
import { Companies } from '../src/features/companies/companies.tsx';
import cardTableCss from '../src/ui/card-table.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Companies screen: the companies catalogue searched and paged, the company detail
 * dialog (method, guide, URL, verify, min, max, ratio, deadline rule, CSR vendor, categories)
 * with its history of who changed what, saved by super users and read-only for everyone else;
 * for super users, the queue of corrections staff suggested; and the 42 company categories.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart dialog - The company detail dialog.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-surface - The review queue's and read-only fields' background.
 */
export const TwofoldCompanies = defineElement('twofold-companies', Companies, {
  styles: [cardTableCss, companiesCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-companies': HTMLElement;
  }
}
