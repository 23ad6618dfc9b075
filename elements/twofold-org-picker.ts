import { OrgPicker, type OrgPickerProps } from '../src/features/shell/org-picker.tsx';
import shellCss from '../src/features/shell/shell.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The organization picker: a search box for super users (from 2 characters, after
 * 300 ms), a dropdown for users of several organizations, nothing to choose for one.
 *
 * @attr hide-single - Show nothing (rather than the name) for a user with one organization.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-organization-change - An organization was chosen; `detail.id`, `detail.name`.
 *
 * @csspart base - The element's inner root.
 *
 * @cssproperty --twofold-color-border - Input and list borders.
 */
export const TwofoldOrgPicker = defineElement<OrgPickerProps>('twofold-org-picker', OrgPicker, {
  props: { hideSingle: 'boolean' },
  styles: [shellCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-org-picker': HTMLElement & OrgPickerProps & { apiBase?: string };
  }
}
