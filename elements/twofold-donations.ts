import donationsCss from '../src/features/donations/donations.css?inline';
import { Donations } from '../src/features/donations/donations.tsx';
import importCss from '../src/features/import/import.css?inline';
import matchDialogCss from '../src/features/match-dialog/match-dialog.css?inline';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import cardTableCss from '../src/ui/card-table.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Donations list of the current organization (and its chapters): status tiles,
 * filters, the table with paging and sorting, the match detail dialog, file upload through the
 * field mapper (write level) and the CSV export.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The title and the organization's name.
 * @csspart actions - The Upload and Download CSV buttons.
 * @csspart tiles - The four status tiles.
 * @csspart filters - The filter panel and the 'N Found' count.
 * @csspart table - The table's frame.
 * @csspart pager - Previous / Next.
 * @csspart dialog - The upload, field mapper and match dialogs.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - The active tile and buttons.
 */
export const TwofoldDonations = defineElement('twofold-donations', Donations, {
  // The match dialog renders inside this element's shadow root: its styles come along.
  styles: [cardTableCss, donationsCss, importCss, matchDialogCss, partsCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-donations': HTMLElement;
  }
}
