import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { deleteReport, listReports, reportDownloadUrl, saveReport } from '../../api/reports.ts';
import { can } from '../../contract/access.ts';
import {
  anyDateFrom,
  anyDateTo,
  type FilterableColumn,
  filterableColumns,
  type Report,
  type ReportColumn,
  type ReportFormat,
  type ReportScope,
  reportColumns,
  reportDateLabel,
  reportScopeLabels,
  reportScopes,
  reportTexts,
} from '../../contract/reports.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { SelectField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { paymentOptions } from '../common.ts';
import {
  copyBody,
  draftOf,
  draftProblems,
  moveColumn,
  newDraft,
  type ReportDraft,
  toBody,
  toggleColumn,
} from './report-form.ts';

const columnLabel = (id: string) => reportColumns[id as keyof typeof reportColumns] ?? id;
const filterLabels: Record<FilterableColumn, string> = {
  'donations.amount': 'Amount',
  'users.name': 'Donor name',
  'users.email': 'Donor email',
  'organizations.ein': 'Organization EIN',
  'companies.name': 'Company',
  'addresses.city': 'City',
  'addresses.state': 'State',
  'donations.employer_method': 'Employer found by',
};

/** Reports (spec part 2, section 2, "/portal/reports"): 'My Reports' cards, a create/edit form and a details panel. */
export function ReportBuilder() {
  useSignals();
  return (
    <OrganizationPage title="Reports" className="reports">
      {(organization) => (
        <ReportsScreen
          organizationId={organization.id}
          canChange={can(currentLevel.value ?? 'none', 'reports.change')}
        />
      )}
    </OrganizationPage>
  );
}

type Mode = { kind: 'list' } | { kind: 'edit'; draft: ReportDraft } | { kind: 'details'; report: Report };

function ReportsScreen({ organizationId, canChange }: { organizationId: number; canChange: boolean }) {
  const [mine, setMine] = useState<Report[]>([]);
  const [shared, setShared] = useState<Report[]>([]);
  const [loading, setLoading] = useState(true);
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [deleting, setDeleting] = useState<Report | null>(null);
  const { host } = useElement();

  const load = useCallback(async () => {
    try {
      const result = await listReports(organizationId);
      setMine(result.reports);
      setShared(result.sharedReports);
    } catch {
      // spec: "a failed list load shows an empty list".
      setMine([]);
      setShared([]);
      toast({ title: reportTexts.loadFailed, variant: 'destructive' });
    } finally {
      setLoading(false);
    }
  }, [organizationId]);
  useEffect(() => {
    void load();
  }, [load]);

  const saved = async () => {
    setMode({ kind: 'list' });
    await load();
  };

  const copy = async (report: Report) => {
    try {
      await saveReport(organizationId, copyBody(report));
      toast({ title: reportTexts.saved });
      await load();
    } catch {
      toast({ title: reportTexts.saveFailed, variant: 'destructive' });
    }
  };

  const remove = async () => {
    const report = deleting;
    setDeleting(null);
    if (!report) return;
    try {
      await deleteReport(report.id);
      toast({ title: reportTexts.deleted });
      setMode({ kind: 'list' });
      await load();
    } catch {
      toast({ title: reportTexts.deleteFailed, variant: 'destructive' });
    }
  };

  const download = async (report: Report, format: ReportFormat) => {
    try {
      const url = await reportDownloadUrl(organizationId, report.id, format);
      toast({ title: reportTexts.downloadStarted });
      // spec: "Response: url; the browser navigates to it" (a host may take it over).
      if (emit(host, 'twofold-request-download', { url, reportId: report.id }))
        globalThis.location.assign(url);
    } catch {
      toast({ title: reportTexts.downloadFailed, variant: 'destructive' });
    }
  };

  if (loading) return <Skeleton label="Loading reports..." lines={4} />;
  if (mode.kind === 'edit')
    return (
      <ReportForm
        organizationId={organizationId}
        initial={mode.draft}
        onSaved={saved}
        onCancel={() => setMode({ kind: 'list' })}
      />
    );

  const actions = { canChange, onCopy: copy, onDelete: setDeleting, onDownload: download };
  return (
    <div className="reports__body">
      {canChange ? (
        <div className="reports__toolbar">
          <Button onClick={() => setMode({ kind: 'edit', draft: newDraft() })}>New Report</Button>
        </div>
      ) : null}
      {mode.kind === 'details' ? (
        <ReportDetails
          report={mode.report}
          onClose={() => setMode({ kind: 'list' })}
          onEdit={() => setMode({ kind: 'edit', draft: draftOf(mode.report) })}
          {...actions}
        />
      ) : null}
      <ReportCards
        title="My Reports"
        empty="You have no reports yet."
        reports={mine}
        onOpen={(report) => setMode({ kind: 'details', report })}
        onEdit={(report) => setMode({ kind: 'edit', draft: draftOf(report) })}
        {...actions}
      />
      <ReportCards
        title="Shared Reports"
        empty="No one has shared a report with this organization yet."
        reports={shared}
        onOpen={(report) => setMode({ kind: 'details', report })}
        onEdit={(report) => setMode({ kind: 'edit', draft: draftOf(report) })}
        {...actions}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete report"
        description={reportTexts.confirmDelete}
        confirmLabel="Delete report"
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

interface CardActions {
  canChange: boolean;
  onCopy: (report: Report) => void;
  onDelete: (report: Report) => void;
  onDownload: (report: Report, format: ReportFormat) => void;
}

function ReportCards({
  title,
  empty,
  reports,
  onOpen,
  onEdit,
  ...actions
}: CardActions & {
  title: string;
  empty: string;
  reports: Report[];
  onOpen: (report: Report) => void;
  onEdit: (report: Report) => void;
}) {
  const id = useId();
  return (
    <section className="reports__group" aria-labelledby={id}>
      <h2 id={id} className="reports__group-title">
        {title}
      </h2>
      {reports.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="reports__cards">
          {reports.map((report) => (
            <li key={report.id} className="reports__card" part="report-card">
              <h3 className="reports__card-title">
                <button type="button" className="btn btn--link" onClick={() => onOpen(report)}>
                  {report.name}
                </button>
              </h3>
              <p className="muted">
                {reportScopeLabels[report.scope]} · {Object.keys(report.columns).length} columns ·{' '}
                {report.downloads} downloads
                {report.author ? ` · by ${report.author}` : ''}
              </p>
              <p className="muted">
                Dates: {reportDateLabel(report.filters.date_from as string | undefined, 'from')} to{' '}
                {reportDateLabel(report.filters.date_to as string | undefined, 'to')}
              </p>
              <CardButtons report={report} onEdit={() => onEdit(report)} {...actions} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CardButtons({
  report,
  onEdit,
  canChange,
  onCopy,
  onDelete,
  onDownload,
}: CardActions & { report: Report; onEdit: () => void }) {
  const [format, setFormat] = useState<ReportFormat>('csv');
  const id = useId();
  return (
    <div className="reports__card-actions">
      <label className="visually-hidden" htmlFor={id}>
        File type for {report.name}
      </label>
      <select
        id={id}
        className="field__input reports__format"
        value={format}
        onChange={(e) => setFormat(e.currentTarget.value as ReportFormat)}
      >
        <option value="csv">CSV</option>
        <option value="xlsx">Excel (.xlsx)</option>
      </select>
      <Button
        variant="secondary"
        onClick={() => onDownload(report, format)}
        aria-label={`Download ${report.name}`}
      >
        Download
      </Button>
      {canChange ? (
        <>
          <Button variant="ghost" onClick={onEdit} aria-label={`Edit ${report.name}`}>
            Edit
          </Button>
          <Button variant="ghost" onClick={() => onCopy(report)} aria-label={`Copy ${report.name}`}>
            Copy
          </Button>
          <Button variant="ghost" onClick={() => onDelete(report)} aria-label={`Delete ${report.name}`}>
            Delete
          </Button>
        </>
      ) : null}
    </div>
  );
}

/** The details panel: everything the report holds, 'Any' for the open dates. */
function ReportDetails({
  report,
  onClose,
  onEdit,
  ...actions
}: CardActions & { report: Report; onClose: () => void; onEdit: () => void }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  const filters = filterableColumns.filter(
    (c) => typeof report.filters[c] === 'string' && report.filters[c] !== '',
  );
  return (
    <section className="reports__details" aria-labelledby="report-details-title" part="details">
      <div className="reports__details-head">
        <h2 id="report-details-title" className="reports__group-title" tabIndex={-1} ref={titleRef}>
          {report.name}
        </h2>
        <Button variant="ghost" onClick={onClose}>
          Close details
        </Button>
      </div>
      <dl className="reports__facts">
        <dt>Scope</dt>
        <dd>{reportScopeLabels[report.scope]}</dd>
        <dt>Columns</dt>
        <dd>
          {Object.entries(report.columns)
            .map(([id, name]) => (name === columnLabel(id) ? name : `${name} (${columnLabel(id)})`))
            .join(', ')}
        </dd>
        <dt>Filters</dt>
        <dd>
          {filters.length === 0
            ? 'None'
            : filters.map((c) => `${filterLabels[c]}: ${String(report.filters[c])}`).join('; ')}
        </dd>
        <dt>External matches</dt>
        <dd>{report.filters.include_inert === true ? 'Included' : 'Left out'}</dd>
        {report.filters.paid ? (
          <>
            <dt>Payment</dt>
            <dd>{report.filters.paid === 'paid' ? 'Received' : 'Not received'}</dd>
          </>
        ) : null}
        <dt>Dates</dt>
        <dd>
          {reportDateLabel(report.filters.date_from as string | undefined, 'from')} to{' '}
          {reportDateLabel(report.filters.date_to as string | undefined, 'to')}
        </dd>
        <dt>Sorted by</dt>
        <dd>
          {columnLabel(report.sort_field)}, {report.ascending ? 'ascending' : 'descending'}
        </dd>
        <dt>Downloads</dt>
        <dd>{report.downloads}</dd>
      </dl>
      <CardButtons report={report} onEdit={onEdit} {...actions} />
    </section>
  );
}

/** The create/edit form. Errors are the contract's (spec section 5) texts. */
function ReportForm({
  organizationId,
  initial,
  onSaved,
  onCancel,
}: {
  organizationId: number;
  initial: ReportDraft;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  // After the first Save the problems follow the form, so each message goes as soon as it is
  // fixed (issue 30: they stayed on screen until the next Save).
  const [attempted, setAttempted] = useState(false);
  const problems = attempted ? draftProblems(draft) : null;
  // The column whose arrow was used: its arrow keeps the focus after the list re-renders.
  const [moved, setMoved] = useState<{ column: ReportColumn; by: -1 | 1 } | null>(null);
  const [moveNote, setMoveNote] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  const [saving, setSaving] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => titleRef.current?.focus(), []);
  const set = (patch: Partial<ReportDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (draftProblems(draft)) return;
    setSaving(true);
    try {
      await saveReport(organizationId, toBody(draft));
      toast({ title: reportTexts.saved });
      onSaved();
    } catch (error) {
      toast({ title: reportTexts.saveFailed, description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const move = (index: number, by: -1 | 1) => {
    const column = draft.columns[index];
    if (!column) return;
    setDraft((d) => ({ ...d, columns: moveColumn(d.columns, index, by) }));
    setMoved({ column: column.id, by });
    setMoveNote(
      `${reportColumns[column.id]} moved to position ${index + by + 1} of ${draft.columns.length}.`,
    );
  };
  useEffect(() => {
    if (!moved) return;
    // Moving a row can take the focused arrow out of the document; at either end the arrow is
    // disabled, so the focus goes to the other one.
    const label = reportColumns[moved.column];
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    const named = (dir: string) =>
      [...buttons].find((b) => b.getAttribute('aria-label') === `Move ${label} ${dir}`);
    const same = named(moved.by < 0 ? 'up' : 'down');
    const target = same && !same.disabled ? same : named(moved.by < 0 ? 'down' : 'up');
    target?.focus();
  }, [moved]);
  const anyDay = (value: string, any: string) => (value === any ? '' : value);

  return (
    <form className="reports__form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} part="form">
      <h2 id={`${id}-title`} className="reports__group-title" tabIndex={-1} ref={titleRef}>
        {draft.id ? 'Edit Report' : 'New Report'}
      </h2>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Report name <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${id}-name`}
          className="field__input"
          value={draft.name}
          maxLength={200}
          aria-invalid={problems?.name ? true : undefined}
          aria-describedby={problems?.name ? `${id}-name-error` : undefined}
          onChange={(e) => set({ name: e.currentTarget.value })}
        />
        {problems?.name ? (
          <p id={`${id}-name-error`} className="field__error">
            {problems.name}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-scope`}>
          Who can see it
        </label>
        <select
          id={`${id}-scope`}
          className="field__input"
          value={draft.scope}
          onChange={(e) => set({ scope: e.currentTarget.value as ReportScope })}
        >
          {reportScopes.map((scope) => (
            <option key={scope} value={scope}>
              {reportScopeLabels[scope]}
            </option>
          ))}
        </select>
      </div>
      <fieldset
        className="reports__columns"
        aria-describedby={problems?.columns ? `${id}-columns-error` : undefined}
      >
        <legend>Columns (in the file’s order)</legend>
        {problems?.columns ? (
          <p id={`${id}-columns-error`} className="field__error">
            {problems.columns}
          </p>
        ) : null}
        <p className="visually-hidden" role="status">
          {moveNote}
        </p>
        <ul className="reports__column-list" ref={listRef}>
          {draft.columns.map((column, index) => (
            <li key={column.id} className="reports__column">
              <label className="reports__check">
                <input
                  type="checkbox"
                  checked={column.selected}
                  onChange={(e) => {
                    const selected = e.currentTarget.checked;
                    setDraft((d) => ({ ...d, columns: toggleColumn(d.columns, column.id, selected) }));
                  }}
                />
                {reportColumns[column.id]}
              </label>
              <label className="visually-hidden" htmlFor={`${id}-col-${index}`}>
                Display name for {reportColumns[column.id]}
              </label>
              <input
                id={`${id}-col-${index}`}
                className="field__input"
                value={column.name}
                maxLength={100}
                disabled={!column.selected}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  setDraft((d) => ({
                    ...d,
                    columns: d.columns.map((c) => (c.id === column.id ? { ...c, name } : c)),
                  }));
                }}
              />
              <span className="reports__move">
                <Button
                  variant="ghost"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  aria-label={`Move ${reportColumns[column.id]} up`}
                >
                  ↑
                </Button>
                <Button
                  variant="ghost"
                  disabled={index === draft.columns.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={`Move ${reportColumns[column.id]} down`}
                >
                  ↓
                </Button>
              </span>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset className="reports__filters">
        <legend>Filters</legend>
        {filterableColumns.map((column) => {
          const problem = problems?.[`filters.${column}`];
          return (
            <div className="field" key={column}>
              <label className="field__label" htmlFor={`${id}-f-${column}`}>
                {filterLabels[column]} filter
              </label>
              <input
                id={`${id}-f-${column}`}
                className="field__input"
                value={draft.filters[column]}
                maxLength={200}
                placeholder={
                  column === 'donations.amount'
                    ? reportTexts.amountPlaceholder
                    : column === 'donations.employer_method'
                      ? 'domain, name, alias, history or person'
                      : undefined
                }
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-f-${column}-error` : undefined}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setDraft((d) => ({ ...d, filters: { ...d.filters, [column]: value } }));
                }}
              />
              {problem ? (
                <p id={`${id}-f-${column}-error`} className="field__error">
                  {problem}
                </p>
              ) : null}
            </div>
          );
        })}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-from`}>
            Donated from (empty: Any)
          </label>
          <input
            id={`${id}-from`}
            className="field__input"
            type="date"
            value={anyDay(draft.date_from, anyDateFrom)}
            onChange={(e) => set({ date_from: e.currentTarget.value || anyDateFrom })}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-to`}>
            Donated to (empty: Any)
          </label>
          <input
            id={`${id}-to`}
            className="field__input"
            type="date"
            value={anyDay(draft.date_to, anyDateTo)}
            aria-invalid={problems?.['filters.date_to'] ? true : undefined}
            onChange={(e) => set({ date_to: e.currentTarget.value || anyDateTo })}
          />
          {problems?.['filters.date_to'] ? (
            <p className="field__error">{problems['filters.date_to']}</p>
          ) : null}
        </div>
        <label className="reports__check">
          <input
            type="checkbox"
            checked={draft.include_inert}
            onChange={(e) => set({ include_inert: e.currentTarget.checked })}
          />
          Include external matches
        </label>
        <SelectField
          label="Payment"
          value={draft.paid}
          options={paymentOptions}
          onChange={(e) => set({ paid: e.currentTarget.value })}
        />
      </fieldset>
      <div className="reports__sort">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-sort`}>
            Sort by
          </label>
          <select
            id={`${id}-sort`}
            className="field__input"
            value={draft.sort_field}
            onChange={(e) => set({ sort_field: e.currentTarget.value as ReportDraft['sort_field'] })}
          >
            {draft.columns.map((c) => (
              <option key={c.id} value={c.id}>
                {reportColumns[c.id]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-direction`}>
            Direction
          </label>
          <select
            id={`${id}-direction`}
            className="field__input"
            value={draft.ascending ? 'asc' : 'desc'}
            onChange={(e) => set({ ascending: e.currentTarget.value === 'asc' })}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
      </div>
      <div className="reports__form-actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Report'}
        </Button>
      </div>
    </form>
  );
}
