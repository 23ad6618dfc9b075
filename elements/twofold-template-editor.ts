import detailsCss from '../src/features/organization/organization-details.css?inline';
import templatesCss from '../src/features/templates/template-editor.css?inline';
import { TemplateEditor, type TemplateEditorProps } from '../src/features/templates/template-editor.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The donor email templates of the current organization: without `template`, the ten
 * template cards (each links to /portal/email-customization?template={status_id}); with it, the
 * editor: version selector (Default, A–G, at most 5), Initial Email / 1st Reminder / 2nd Reminder
 * tabs (templates 6, 7, 8, 25), read-only Default, a variable insert menu, the live toggle, Save,
 * Preview (a new window) and the statistics with the versions' comparison.
 *
 * @attr template - The template type (status id): 7, 8, 9, 10, 11, 23, 19, 24, 15, 102 (or 6, 25).
 *
 * @csspart base - The element's inner root.
 * @csspart card - A template card.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links, the selected version and buttons.
 */
export const TwofoldTemplateEditor = defineElement<TemplateEditorProps>(
  'twofold-template-editor',
  TemplateEditor,
  {
    props: { template: 'string' },
    // The notification emails section is the organization screen's own (its styles with it).
    styles: [detailsCss, templatesCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-template-editor': HTMLElement & TemplateEditorProps;
  }
}
