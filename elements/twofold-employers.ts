import employersCss from '../src/features/employers/employers.css?inline';
import { Employers } from '../src/features/employers/employers.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary Employers of the current organization (issue #31): how its matches found their company
 * (email domain, name, alias, earlier gift, person), Find employers over the matches at Missing
 * Company Hold as a background run with its progress, and the review list of answers below the
 * organization's confidence threshold, accepted, corrected or rejected one by one or in bulk
 * (write permission).
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links and the Find employers button.
 */
export const TwofoldEmployers = defineElement('twofold-employers', Employers, {
  styles: [employersCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-employers': HTMLElement;
  }
}
