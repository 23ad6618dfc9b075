import { useSignals } from '@preact/signals-react/runtime';
import { format, isValid, parseISO } from 'date-fns';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { getScheduledEmails } from '../../api/email-schedule.ts';
import type { ScheduledEmailsQuery, ScheduledEmailsResponse } from '../../contract/email-schedule.ts';
import type { Organization } from '../../contract/index.ts';
import { Button } from '../../ui/button.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { SkeletonRows } from '../../ui/skeleton.tsx';
import { MatchDialog } from '../match-dialog/match-dialog.tsx';

/** A UTC day (the scheduler's days) as the portal shows dates, with its weekday. */
function dayText(day: string): string {
  const date = parseISO(`${day}T12:00:00Z`);
  return isValid(date) ? format(date, 'EEE, MMM dd, yyyy') : day;
}

type Filters = { from: string; to: string; template: string; chapter: string };
const noFilters: Filters = { from: '', to: '', template: '', chapter: '' };

/**
 * Scheduled emails (/portal/scheduled-emails, issue #30): what the organization (and its
 * chapters) will send in the next 30 days, by day and template, with counts: donor reminders,
 * deadline emails and the weekly staff email. Each match opens in the match dialog.
 */
export function ScheduledEmails() {
  useSignals();
  return (
    <OrganizationPage title="Scheduled Emails" className="scheduled">
      {(organization) => <Schedule organization={organization} />}
    </OrganizationPage>
  );
}

type Load =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; data: ScheduledEmailsResponse };

function Schedule({ organization }: { organization: Organization }) {
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [openMatch, setOpenMatch] = useState<number | null>(null);
  const formId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads asks for the same query again
  useEffect(() => {
    let cancelled = false;
    setLoad({ kind: 'loading' });
    const query: ScheduledEmailsQuery = {
      ...(filters.from ? { from: filters.from } : {}),
      ...(filters.to ? { to: filters.to } : {}),
      ...(filters.template ? { template: filters.template } : {}),
      ...(filters.chapter ? { chapter: filters.chapter } : {}),
    };
    getScheduledEmails(organization.id, query).then(
      (data) => {
        if (cancelled) return;
        setLoad({ kind: 'ready', data });
        // The first answer fills the dates the view shows by default.
        setDraft((d) => ({ ...d, from: d.from || data.from, to: d.to || data.to }));
      },
      (error: unknown) => {
        if (!cancelled) setLoad({ kind: 'failed', message: errorMessage(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [organization.id, filters, reloads]);

  const data = load.kind === 'ready' ? load.data : null;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };

  return (
    <div className="scheduled__body">
      <form className="scheduled__filters" onSubmit={apply} aria-label="Filter scheduled emails" id={formId}>
        <Field
          label="From"
          type="date"
          value={draft.from}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setDraft((d) => ({ ...d, from: value }));
          }}
        />
        <Field
          label="To"
          type="date"
          value={draft.to}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setDraft((d) => ({ ...d, to: value }));
          }}
        />
        <SelectField
          label="Template"
          value={draft.template}
          placeholder="All templates"
          options={(data?.templates ?? []).map((t) => ({ value: t.value, label: t.name }))}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setDraft((d) => ({ ...d, template: value }));
          }}
        />
        {data && data.chapters.length > 0 ? (
          <SelectField
            label="Chapter"
            value={draft.chapter}
            placeholder="All (with chapters)"
            options={[
              { value: String(organization.id), label: organization.name },
              ...data.chapters.map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, chapter: value }));
            }}
          />
        ) : null}
        <div className="scheduled__filter-actions">
          <Button type="submit">Apply</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft(noFilters);
              setFilters({ ...noFilters });
            }}
          >
            Clear
          </Button>
        </div>
      </form>

      {load.kind === 'loading' ? (
        <SkeletonRows label="Loading scheduled emails..." columns={3} rows={4} />
      ) : null}
      {load.kind === 'failed' ? (
        <div className="scheduled__failed">
          <p className="alert" role="alert">
            The scheduled emails could not be loaded. {load.message}
          </p>
          <Button variant="secondary" onClick={() => setReloads((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : null}
      {data ? (
        <>
          <p className="scheduled__summary" role="status">
            {data.total === 1 ? '1 email' : `${data.total} emails`} from {dayText(data.from)} to{' '}
            {dayText(data.to)}
          </p>
          {data.days.length === 0 ? (
            <p className="muted">Nothing is scheduled in these days.</p>
          ) : (
            <ol className="scheduled__days">
              {data.days.map((day) => (
                <li key={day.day} className="scheduled__day">
                  <h2 className="scheduled__day-title">
                    {dayText(day.day)} <span className="scheduled__count">({day.count})</span>
                  </h2>
                  <ul className="scheduled__groups">
                    {day.groups.map((g) => (
                      <li key={`${g.template}:${g.label}:${g.template_name}`} className="scheduled__group">
                        <div className="scheduled__group-head">
                          <strong>{g.template_name}</strong> · {g.label}
                          <span className="scheduled__badge">
                            {g.count}{' '}
                            {g.template === 'digest'
                              ? g.count === 1
                                ? 'recipient'
                                : 'recipients'
                              : g.count === 1
                                ? 'email'
                                : 'emails'}
                          </span>
                          {g.projected ? (
                            <span className="scheduled__projected">if matches still wait</span>
                          ) : null}
                        </div>
                        {g.matches.length > 0 ? (
                          <ul
                            className="scheduled__matches"
                            aria-label={`Matches: ${g.template_name}, ${g.label}`}
                          >
                            {g.matches.map((m) => (
                              <li key={m.id}>
                                <button
                                  type="button"
                                  className="scheduled__match"
                                  onClick={() => setOpenMatch(m.id)}
                                >
                                  #{m.id}
                                  {m.donor_name ? ` ${m.donor_name}` : ''}
                                </button>
                              </li>
                            ))}
                            {g.count > g.matches.length ? (
                              <li className="muted">and {g.count - g.matches.length} more</li>
                            ) : null}
                          </ul>
                        ) : g.template === 'digest' ? (
                          <a className="scheduled__link" href="/portal/donations">
                            Open the donations list
                          </a>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          )}
        </>
      ) : null}
      <MatchDialog
        donationId={openMatch}
        open={openMatch !== null}
        onClose={() => setOpenMatch(null)}
        onChanged={() => setReloads((n) => n + 1)}
      />
    </div>
  );
}
