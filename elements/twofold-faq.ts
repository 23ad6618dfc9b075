import faqCss from '../src/features/faq/faq.css?inline';
import { Faq, type FaqProps } from '../src/features/faq/faq.tsx';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary The public FAQ for donors and nonprofits: 'Frequently Asked Questions' with a logo
 * strip, the company badge and subtitle, and collapsible entries (one open at a time) chosen by
 * partner and matching process. Each attribute that is absent falls back to the page's query
 * string (`?vr`, `?apex`, `?portal`, `?esign`/`?paper`, `?contact`/`?manual`, `?direct`, `?cn=`,
 * `?di=`, `?de=`). With a match id and donor email, the entry about wrong details offers to email
 * the donor a one-time link, then sends them to the hosted portal's donor page. Works on another
 * origin: point `api-base` at the Twofold server.
 *
 * @attr api-base - The API's origin when it is not the page's own (e.g. `https://portal.twofold.test`).
 * @attr portal-base - Where the hosted portal lives, for the donor page the link leads to. Default: the `api-base` origin (or the page's).
 * @attr partner - `vr` (Vertical Raise) or `apex` (Apex Leadership): adds that partner's entries. Default: `?vr` / `?apex`.
 * @attr process - `portal`, `esign` (or `paper`), `contact` (or `manual`) or `direct`: adds how matching works for that process. Default: the query's.
 * @attr company - The company's name, shown as the badge (default 'General') and in the subtitle. Default: `?cn`.
 * @attr match-id - The donor's match id; with `donor-email`, enables the self-service link. Default: `?di`.
 * @attr donor-email - The donor's email address the link is sent to. Default: `?de`.
 *
 * @event twofold-donor-link-sent - The one-time link was emailed; `detail.matchId`, `detail.redirect` (the donor page about to open). Cancelable: `preventDefault()` keeps the donor on the page.
 *
 * @csspart base - The element's inner root.
 * @csspart faq - The FAQ panel.
 * @csspart header - The header: logo strip, title, badge and subtitle.
 * @csspart logo-strip - The strip of logos.
 * @csspart badge - The company badge.
 * @csspart entries - The list of entries.
 * @csspart entry - One entry (question and answer).
 * @csspart answer - An entry's answer.
 * @csspart donor-link-button - The button that emails the donor their link.
 *
 * @cssproperty --twofold-color-primary - The logo, open entries, links and buttons.
 * @cssproperty --twofold-color-background - The panel's background.
 * @cssproperty --twofold-color-surface - The logo strip and hovered questions.
 * @cssproperty --twofold-color-text - The text.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the panel, entries and buttons.
 */
export const TwofoldFaq = definePublicElement<FaqProps>('twofold-faq', Faq, {
  props: {
    partner: 'string',
    process: 'string',
    company: 'string',
    matchId: 'string',
    donorEmail: 'string',
    portalBase: 'string',
  },
  styles: [faqCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-faq': HTMLElement & FaqProps & { apiBase?: string };
  }
}
