import reportsCss from '../src/features/reports/reports.css?inline';
import { ReportBuilder } from '../src/features/reports/reports.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary Reports of the current organization: 'My Reports' and shared report cards, the
 * create/edit form, the details panel, copy, delete and download (CSV or Excel).
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-request-download - A report download is about to open its link (`detail.url`,
 * `detail.reportId`); preventDefault() to open it yourself.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart report-card - Each report's card.
 * @csspart details - The details panel.
 * @csspart form - The create/edit form.
 * @csspart dialog - The delete confirmation.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Buttons and links.
 */
export const TwofoldReportBuilder = defineElement('twofold-report-builder', ReportBuilder, {
  styles: [reportsCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-report-builder': HTMLElement;
  }
}
