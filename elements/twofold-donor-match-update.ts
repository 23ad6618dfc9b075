import donorCss from '../src/features/donor-match-update/donor-match-update.css?inline';
import { DonorMatchUpdate } from '../src/features/donor-match-update/donor-match-update.tsx';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary The donor's "Edit Your Match Request" screen: name, email and employer (company
 * search from 3 characters, or Other), the amount shown but fixed, a warning when a new email
 * would transfer the request, and the status and next steps after saving. Opened from the donor
 * link's email (`?token=` in the page address, exchanged for a donor session kept in this tab's
 * sessionStorage and removed from the address); without a session it offers to email a new link.
 * Works on another origin: point `api-base` at the Twofold server.
 *
 * @attr match-id - The match request to edit (the link's `/donor-match-update/{match_id}`).
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-match-updated - The donor saved; `detail.matchId`, `detail.status` ({id, name}), `detail.transferred` (the email changed hands).
 *
 * @csspart base - The element's inner root.
 * @csspart card - The panel.
 * @csspart submit-button - Save Changes.
 * @csspart link-button - Email me a new link.
 * @csspart email-warning - The warning shown while the email differs from the request's.
 * @csspart company-suggestions - The company search's list.
 * @csspart next-steps - The status and what the donor does next.
 *
 * @cssproperty --twofold-color-primary - Buttons, links and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldDonorMatchUpdate = definePublicElement<{ matchId?: number }>(
  'twofold-donor-match-update',
  DonorMatchUpdate,
  { props: { matchId: 'number' }, styles: [partsCss, donorCss] },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-donor-match-update': HTMLElement & { matchId?: number; apiBase?: string };
  }
}
