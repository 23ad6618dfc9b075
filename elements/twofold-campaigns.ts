import campaignsCss from '../src/features/campaigns/campaigns.css?inline';
import { Campaigns } from '../src/features/campaigns/campaigns.tsx';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Campaigns screen of the current organization: its matching campaigns (a company's
 * time-boxed offer, whose ratio, min and max replace the company's for gifts donated within its
 * dates), 'Add Campaign', and the Match Campaign dialog (Create, Save, Delete after a
 * confirmation) opened by a row. Users with read access see the table only.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart add-button - Add Campaign.
 * @csspart table - The table's scrolling box.
 * @csspart dialog - The Match Campaign dialog box (and the delete confirmation's).
 * @csspart submit-button - The dialog's Create (or Save) button.
 * @csspart delete-button - The dialog's Delete button.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - The accent colour (buttons, the campaign links).
 */
export const TwofoldCampaigns = defineElement('twofold-campaigns', Campaigns, {
  styles: [campaignsCss, partsCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-campaigns': HTMLElement;
  }
}
