import matchDialogCss from '../src/features/match-dialog/match-dialog.css?inline';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import scheduledCss from '../src/features/scheduled-emails/scheduled-emails.css?inline';
import { ScheduledEmails } from '../src/features/scheduled-emails/scheduled-emails.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The current organization's scheduled emails (issue #30): what goes out in the next 30
 * days (or the chosen dates), by day and template, with counts: donor reminders, deadline emails
 * and the weekly staff email. Filters: dates, template, chapter. Each match opens in the match
 * dialog, where its own schedule can be sent now or skipped (write level).
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The title and the organization's name.
 * @csspart dialog - The match dialog.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Buttons and the matches' links.
 */
export const TwofoldScheduledEmails = defineElement('twofold-scheduled-emails', ScheduledEmails, {
  // The match dialog renders inside this element's shadow root: its styles come along.
  styles: [scheduledCss, matchDialogCss, partsCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-scheduled-emails': HTMLElement;
  }
}
