import suggestionCss from '../src/features/match-request/employer-suggestion.css?inline';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import requestCss from '../src/features/match-request/match-request.css?inline';
import { MatchRequest, type MatchRequestProps } from '../src/features/match-request/match-request.tsx';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary An organization's public matching page: the donor finds their employer (company search
 * from 3 characters, or Other), enters the gift (amount, date, transaction id if any) and their
 * contact details, and sends it behind an invisible, self-hosted proof-of-work captcha. The
 * answer shows the match's status and the employer's next steps (where to submit, what to watch
 * for, the deadline and minimum). Works on another origin: point `api-base` at the Twofold server.
 * A donation confirmation page can embed it with the gift filled in.
 *
 * @attr organization - The organization: its matching-page slug (the name in lowercase with the first space a hyphen) or its id.
 * @attr api-base - The API's origin when it is not the page's own.
 * @attr amount - Prefill: the gift in dollars.
 * @attr donated-at - Prefill: the gift's date, YYYY-MM-DD.
 * @attr transaction-id - Prefill: the donation platform's transaction id.
 * @attr donor-name - Prefill: the donor's name.
 * @attr donor-email - Prefill: the donor's email.
 * @attr company-id - Prefill: the donor's employer, by its catalogue id (as `<twofold-company-lookup>` reports it). The element also listens on its document for `twofold-company-chosen` and takes the company chosen there.
 *
 * @event twofold-match-requested - The match request was accepted; `detail.matchId`, `detail.status` ({id, name}), `detail.companyName`.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The panel.
 * @csspart logo - The organization's logo.
 * @csspart submit-button - Request My Match.
 * @csspart company-suggestions - The company search's list.
 * @csspart next-steps - The status and what the donor does next.
 *
 * @cssproperty --twofold-color-primary - Buttons, links and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldMatchRequest = definePublicElement<MatchRequestProps>(
  'twofold-match-request',
  MatchRequest,
  {
    props: {
      organization: 'string',
      amount: 'number',
      donatedAt: 'string',
      transactionId: 'string',
      donorName: 'string',
      donorEmail: 'string',
      companyId: 'number',
    },
    styles: [partsCss, requestCss, suggestionCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-match-request': HTMLElement & MatchRequestProps & { apiBase?: string };
  }
}
