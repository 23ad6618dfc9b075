import { type Ref, useCallback, useEffect, useRef, useState } from 'react';
import { auditCsvUrl, listAuditEvents } from '../../api/audit.ts';
import { errorMessage } from '../../api/client.ts';
import {
  type AuditEvent,
  type AuditFilters,
  auditKindLabel,
  auditKinds,
  auditMessages,
} from '../../contract/audit.ts';
import { noName, type Organization } from '../../contract/index.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Section, SelectField, TextField } from './fields.tsx';

/** Not in the spec (issue #24): the audit log tab's words. */
export const auditTexts = {
  title: 'Audit log',
  description:
    'Who did what in this organization, newest first: access and invitations, API keys and webhooks, exports and report downloads, template changes, and its members’ sign-ins and second factors. Entries are kept for at least a year and can never be changed or deleted. Days are UTC days.',
  loading: 'Loading audit log...',
  empty: 'No entries yet.',
  noMatch: 'No entries match these filters.',
  loadMore: 'Load more',
  loadingMore: 'Loading...',
  exportCsv: 'Export CSV',
  exporting: 'Preparing...',
  clear: 'Clear filters',
  person: 'Person',
  kind: 'Event',
  from: 'From',
  to: 'To',
  everyone: 'Everyone',
  everyKind: 'Every event',
  exportFailed: 'Export failed',
  loadFailed: 'The audit log could not be loaded.',
} as const;

const kindOptions = Object.entries(auditKinds)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

const timeFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** An entry's time as people read it, in UTC (the filters' days are UTC days). */
export function auditTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${timeFormat.format(time)} UTC`;
}

/** A detail's value as text: lists joined, objects as their JSON. */
function detailText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(detailText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Draft = { person: string; kind: string; from: string; to: string };
const noFilters: Draft = { person: '', kind: '', from: '', to: '' };

function filtersOf(draft: Draft): AuditFilters {
  return {
    ...(draft.person ? { person: draft.person } : {}),
    ...(draft.kind ? { kind: draft.kind } : {}),
    ...(draft.from ? { from: draft.from } : {}),
    ...(draft.to ? { to: draft.to } : {}),
  };
}

/**
 * The Audit log tab of Organization Details (admins only; the tab is not offered to others): the
 * log newest first, filtered by person, event and days, a page at a time ("Load more"), and the
 * same selection as a CSV file.
 */
export function AuditTab({ organization }: { organization: Organization }) {
  const [draft, setDraft] = useState<Draft>(noFilters);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Only the newest request's answer is shown: a filter changed while a page loads wins.
  const latest = useRef(0);
  const firstNew = useRef<HTMLTableRowElement>(null);
  const focusFrom = useRef<number | null>(null);

  const dateProblem = draft.from && draft.to && draft.from > draft.to ? auditMessages.dateOrder : null;
  const filters = filtersOf(draft);
  const filterKey = JSON.stringify(filters);

  const load = useCallback(
    async (after: string | null) => {
      const ticket = ++latest.current;
      const applied = JSON.parse(filterKey) as AuditFilters;
      if (after) setLoadingMore(true);
      else setLoading(true);
      setProblem(null);
      try {
        const page = await listAuditEvents(organization.id, applied, after);
        if (ticket !== latest.current) return;
        setEvents((current) => (after ? [...current, ...page.events] : page.events));
        setCursor(page.next_cursor);
      } catch (error) {
        if (ticket !== latest.current) return;
        setProblem(errorMessage(error) || auditTexts.loadFailed);
        if (!after) setEvents([]);
      } finally {
        if (ticket === latest.current) {
          setLoading(false);
          setLoadingMore(false);
        }
      }
    },
    [organization.id, filterKey],
  );

  useEffect(() => {
    if (dateProblem) return;
    void load(null);
  }, [load, dateProblem]);

  // After "Load more", the first new row takes the focus, so a keyboard user reads on from there.
  useEffect(() => {
    if (focusFrom.current !== null && events.length > focusFrom.current) {
      focusFrom.current = null;
      firstNew.current?.focus();
    }
  }, [events]);

  const more = () => {
    focusFrom.current = events.length;
    void load(cursor);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const url = await auditCsvUrl(organization.id, filters);
      if (url) window.open(url, '_blank', 'noopener');
    } catch (error) {
      toast({ title: auditTexts.exportFailed, description: errorMessage(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const people = organization.users
    .filter((u) => !u.pending)
    .map((u) => ({
      value: String(u.id),
      label: u.name && u.name !== noName && u.name !== u.email ? `${u.name} (${u.email})` : u.email,
    }));
  const filtered = Object.keys(filters).length > 0;

  return (
    <Section title={auditTexts.title} description={auditTexts.description}>
      <form className="audit__filters" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={auditTexts.person}
          name="audit_person"
          value={draft.person}
          onChange={set('person')}
          options={[{ value: '', label: auditTexts.everyone }, ...people]}
        />
        <SelectField
          label={auditTexts.kind}
          name="audit_kind"
          value={draft.kind}
          onChange={set('kind')}
          options={[{ value: '', label: auditTexts.everyKind }, ...kindOptions]}
        />
        <TextField
          label={auditTexts.from}
          name="audit_from"
          type="date"
          value={draft.from}
          onChange={set('from')}
        />
        <TextField
          label={auditTexts.to}
          name="audit_to"
          type="date"
          value={draft.to}
          onChange={set('to')}
          error={dateProblem ?? undefined}
        />
        <div className="audit__filter-actions">
          <Button type="button" variant="secondary" onClick={() => setDraft(noFilters)} disabled={!filtered}>
            {auditTexts.clear}
          </Button>
          <Button
            type="button"
            onClick={() => void exportCsv()}
            disabled={exporting || Boolean(dateProblem)}
            part="export-button"
          >
            {exporting ? auditTexts.exporting : auditTexts.exportCsv}
          </Button>
        </div>
      </form>
      {problem ? (
        <p role="alert" className="alert">
          {problem}
        </p>
      ) : null}
      <div className="card-table-wrap audit__table-wrap">
        <table
          className="details__table card-table audit__table"
          aria-label={auditTexts.title}
          aria-busy={loading}
        >
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">By</th>
              <th scope="col">What happened</th>
              <th scope="col">IP address</th>
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <LoadingRows />
            ) : events.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted" role="status">
                  {filtered ? auditTexts.noMatch : auditTexts.empty}
                </td>
              </tr>
            ) : (
              events.map((event, index) => (
                <AuditRow
                  key={event.id}
                  event={event}
                  rowRef={index === focusFrom.current ? firstNew : undefined}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
      {cursor && !loading ? (
        <div className="audit__more">
          <Button variant="secondary" onClick={more} disabled={loadingMore}>
            {loadingMore ? auditTexts.loadingMore : auditTexts.loadMore}
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

/**
 * SkeletonRows' placeholder (src/ui/skeleton.tsx, the same classes from ui.css), written here:
 * importing it would split the skeleton into a chunk of its own and add it to the portal's route
 * map, which is part of the first load (budget: 120,000 B).
 */
function LoadingRows() {
  return (
    <>
      <tr className="skeleton-row skeleton-row--label">
        <td colSpan={5}>
          <span role="status" className="skeleton__label">
            {auditTexts.loading}
          </span>
        </td>
      </tr>
      {[1, 2, 3].map((row) => (
        <tr key={row} className="skeleton-row">
          {[1, 2, 3, 4, 5].map((cell) => (
            <td key={cell}>
              <span className="skeleton__bar" aria-hidden="true" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function AuditRow({ event, rowRef }: { event: AuditEvent; rowRef: Ref<HTMLTableRowElement> | undefined }) {
  const by =
    event.actor.kind === 'user'
      ? (event.actor.label ?? `user ${event.actor.user_id ?? ''}`)
      : event.actor.kind === 'api'
        ? `API: ${event.actor.label ?? 'key'}`
        : (event.actor.label ?? 'Twofold');
  const details = Object.entries(event.details);
  return (
    <tr ref={rowRef} tabIndex={rowRef ? -1 : undefined} className="audit__row">
      <td data-label="When">
        <time dateTime={event.occurred_at}>{auditTime(event.occurred_at)}</time>
      </td>
      <td data-label="Event">{auditKindLabel(event.kind)}</td>
      <td data-label="By" className="audit__who">
        {by}
      </td>
      <td data-label="What happened" className="audit__summary">
        {event.summary}
        {event.subject?.email && !event.summary.includes(event.subject.email) ? (
          <span className="muted"> (about {event.subject.email})</span>
        ) : null}
        {details.length > 0 ? (
          <details className="audit__details">
            <summary>Details</summary>
            <dl>
              {details.map(([key, value]) => (
                <div key={key} className="audit__detail">
                  <dt>{key.replaceAll('_', ' ')}</dt>
                  <dd>{detailText(value)}</dd>
                </div>
              ))}
            </dl>
          </details>
        ) : null}
      </td>
      <td data-label="IP address">{event.ip_address ?? '—'}</td>
    </tr>
  );
}
