import { useSignals } from '@preact/signals-react/runtime';
import { format, parseISO } from 'date-fns';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { listCampaigns } from '../../api/campaigns.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { csvExportUrl, listDonations } from '../../api/donation-list.ts';
import { can } from '../../contract/access.ts';
import type { Donation, DonationCounts, DonationSortField } from '../../contract/donations.ts';
import type { StatusGroup } from '../../contract/statuses.ts';
import { currentLevel, knownOrganizations } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { SkeletonRows } from '../../ui/skeleton.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { paymentOptions } from '../common.ts';
import { ImportFlow } from '../import/import-flow.tsx';
import { MatchDialog } from '../match-dialog/match-dialog.tsx';
import {
  type DonationFilters,
  type DonationSort,
  defaultFilters,
  defaultSort,
  emptyFilters,
  emptyTexts,
  filterDebounceMs,
  filterProblems,
  formatAmount,
  formatDonated,
  hasFilters,
  linkedFilters,
  listQuery,
  nextSort,
  pageCount,
  perPage,
  statusTiles,
} from './donations-query.ts';

/**
 * The Donations list (spec part 2, section 2, "Donations list (/portal/donations)") of the current
 * organization and its chapters: status tiles, filters, the table, paging, upload and CSV export.
 */
export function Donations() {
  useSignals();
  const level = currentLevel.value ?? 'none';
  return (
    <OrganizationPage title="Donations" className="donations">
      {(organization) => (
        <>
          {organization.complete ? null : (
            <p className="donations__notice" role="note">
              {organization.name}’s setup is not complete, so its new matches wait at ‘NPO Registration
              Incomplete’, which no tile counts, and no donor is emailed yet. Finish the steps on the{' '}
              <a href="/portal">Dashboard</a> and mark setup complete: they then move on to what each donor’s
              company needs.
            </p>
          )}
          <DonationsList organizationId={organization.id} canUpload={can(level, 'donations.change')} />
        </>
      )}
    </OrganizationPage>
  );
}

const noCounts: DonationCounts = { donor_contacted: 0, npo_verify: 0, engaged_submitted: 0, no_response: 0 };

interface ListState {
  donations: Donation[];
  total: number;
  counts: DonationCounts;
}

const columns: ReadonlyArray<{ label: string; sort?: DonationSortField; numeric?: boolean }> = [
  { label: 'Donated', sort: 'donated_at' },
  { label: 'Donor Name', sort: 'donor_name' },
  { label: 'Amount', sort: 'amount', numeric: true },
  { label: 'Company', sort: 'company_name' },
  { label: 'Organization', sort: 'organization_name' },
  { label: 'Status', sort: 'status_id' },
];

function DonationsList({ organizationId, canUpload }: { organizationId: number; canUpload: boolean }) {
  // spec: the list opens on the last 90 days, unless a link (a dashboard figure) names the
  // filters of the matches behind it.
  const [linked] = useState(() => {
    const fromLink = linkedFilters(globalThis.location?.search ?? '');
    return fromLink.group !== null || hasFilters(fromLink.filters)
      ? fromLink
      : { filters: defaultFilters(), group: null };
  });
  const [draft, setDraft] = useState<DonationFilters>(linked.filters);
  const [filters, setFilters] = useState<DonationFilters>(linked.filters);
  const [statusGroup, setStatusGroup] = useState<StatusGroup | null>(linked.group);
  const [sort, setSort] = useState<DonationSort>(defaultSort);
  const [page, setPage] = useState(1);
  const [reloads, setReloads] = useState(0);
  const [list, setList] = useState<ListState>({ donations: [], total: 0, counts: noCounts });
  const [loading, setLoading] = useState(true);
  // Until the first answer the count is unknown: '0 Found' would be a claim, not a fact.
  const [answered, setAnswered] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [openDonation, setOpenDonation] = useState<number | null>(null);
  const latest = useRef(0);
  const problems = filterProblems(draft);
  const foundId = useId();
  // The organization's campaigns, for the Campaign filter (shown once it has any).
  const [campaigns, setCampaigns] = useState<Array<{ id: number; name: string }>>([]);
  useEffect(() => {
    let live = true;
    listCampaigns(organizationId)
      .then((list) => {
        if (live) setCampaigns(list.map((c) => ({ id: c.id, name: c.name })));
      })
      // A filter is a courtesy: without the list, the list works unfiltered.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [organizationId]);

  // spec: "Filter changes debounce 300 ms and reset the page to 1."
  useEffect(() => {
    if (sameFilters(draft, filters)) return;
    const timer = setTimeout(() => {
      setFilters(draft);
      setPage(1);
    }, filterDebounceMs);
    return () => clearTimeout(timer);
  }, [draft, filters]);

  // Every change asks again; only the newest request's answer is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` is a deliberate trigger
  useEffect(() => {
    const ticket = ++latest.current;
    setLoading(true);
    listDonations(organizationId, listQuery(filters, statusGroup, sort, page))
      .then((result) => {
        if (ticket !== latest.current) return;
        setList(result);
      })
      .catch((error: unknown) => {
        if (ticket !== latest.current) return;
        // spec: "a failed list load shows an empty list".
        setList({ donations: [], total: 0, counts: noCounts });
        if (!(error instanceof ApiError && error.status === 401)) {
          toast({
            title: 'Failed to load donations',
            description: errorMessage(error),
            variant: 'destructive',
          });
        }
      })
      .finally(() => {
        if (ticket !== latest.current) return;
        setLoading(false);
        setAnswered(true);
      });
  }, [organizationId, filters, statusGroup, sort, page, reloads]);

  const reload = () => setReloads((n) => n + 1);

  /** Every filter and the tile cleared at once (dates too: the whole history). */
  function clearFilters() {
    setDraft(emptyFilters);
    setFilters(emptyFilters);
    setStatusGroup(null);
    setPage(1);
  }

  function toggleTile(group: StatusGroup) {
    // spec: "Clicking the active tile clears it."
    setStatusGroup((current) => (current === group ? null : group));
    setPage(1);
  }

  async function downloadCsv() {
    setExporting(true);
    try {
      // The export honours what the list shows: its filters, tile and order (every row, not one page).
      const url = await csvExportUrl(organizationId, listQuery(filters, statusGroup, sort));
      if (url) window.open(url, '_blank', 'noopener');
    } catch (error) {
      toast({ title: 'Download failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  const edit = (field: keyof DonationFilters) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setDraft((current) => ({ ...current, [field]: value }));
  };

  const pages = pageCount(list.total);
  const activate = (id: number) => setOpenDonation(id);
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, id: number) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(id);
    }
  };

  return (
    <>
      <div className="donations__actions" part="actions">
        {canUpload ? (
          <Button variant="secondary" onClick={() => setUploadOpen(true)}>
            Upload
          </Button>
        ) : null}
        <Button
          variant="secondary"
          onClick={() => void downloadCsv()}
          disabled={exporting}
          aria-busy={exporting || undefined}
        >
          {exporting ? 'Preparing CSV...' : 'Download CSV'}
        </Button>
      </div>

      <ul className="donations__tiles" part="tiles" aria-label="Filter by status">
        {statusTiles.map((tile) => (
          <li key={tile.group}>
            <button
              type="button"
              className="donations__tile"
              data-status={tile.constant}
              aria-pressed={statusGroup === tile.group}
              onClick={() => toggleTile(tile.group)}
            >
              <span className="donations__tile-label">{tile.label}</span>
              <span className="donations__tile-count">{list.counts[tile.group]}</span>
            </button>
          </li>
        ))}
      </ul>

      <form
        className="donations__filters"
        part="filters"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field
          label="From"
          type="date"
          value={draft.dateFrom}
          max={draft.dateTo || undefined}
          onChange={edit('dateFrom')}
        />
        <Field
          label="To"
          type="date"
          value={draft.dateTo}
          min={draft.dateFrom || undefined}
          error={problems.dateTo}
          onChange={edit('dateTo')}
        />
        <Field
          label="Company"
          type="search"
          value={draft.company}
          maxLength={200}
          onChange={edit('company')}
        />
        <Field
          label="Donor name or email"
          type="search"
          value={draft.donor}
          maxLength={200}
          onChange={edit('donor')}
        />
        <Field
          label="Minimum amount"
          inputMode="decimal"
          placeholder="0.00"
          value={draft.minAmount}
          error={problems.minAmount}
          onChange={edit('minAmount')}
        />
        {draft.organization || draft.expectedMonth || draft.companyName ? (
          <p className="donations__linked muted" part="linked-filters">
            {draft.organization ? `Only ${organizationName(draft.organization)}. ` : ''}
            {draft.companyName ? `Only matches at ${draft.companyName}. ` : ''}
            {draft.expectedMonth
              ? `Submitted matches expected to be paid in ${format(parseISO(`${draft.expectedMonth}-01`), 'MMMM yyyy')}.`
              : ''}
          </p>
        ) : null}
        {campaigns.length > 0 || draft.campaign ? (
          <SelectField
            label="Campaign"
            value={draft.campaign}
            placeholder="All campaigns"
            options={campaigns.map((c) => ({ value: String(c.id), label: c.name }))}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setDraft((current) => ({ ...current, campaign: value }));
            }}
          />
        ) : null}
        <SelectField
          label="Payment"
          value={draft.paid}
          options={paymentOptions}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setDraft((current) => ({ ...current, paid: value }));
          }}
        />
        <div className="donations__found-row">
          <p id={foundId} className="donations__found" aria-live="polite">
            {answered ? `${list.total} Found` : null}
          </p>
          <Button
            variant="secondary"
            onClick={clearFilters}
            disabled={!hasFilters(draft) && statusGroup === null}
          >
            Clear filters
          </Button>
        </div>
      </form>

      <div className="donations__table-wrap card-table-wrap" part="table">
        <table
          className="donations__table card-table"
          aria-describedby={foundId}
          aria-busy={loading || undefined}
        >
          <caption className="visually-hidden">Donations</caption>
          <thead>
            <tr>
              {columns.map((column) => {
                const active = column.sort !== undefined && sort.field === column.sort;
                return (
                  <th
                    key={column.label}
                    scope="col"
                    className={column.numeric ? 'donations__numeric' : undefined}
                    aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : undefined}
                  >
                    {column.sort ? (
                      <button
                        type="button"
                        className="donations__sort"
                        onClick={() => {
                          const field = column.sort as DonationSortField;
                          setSort((current) => nextSort(current, field));
                          setPage(1);
                        }}
                      >
                        {column.label}
                        <span className="donations__sort-mark" aria-hidden="true">
                          {active ? (sort.ascending ? '▲' : '▼') : ''}
                        </span>
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <SkeletonRows label="Loading donations..." columns={columns.length} rows={5} />
            ) : list.donations.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="donations__message">
                  <div className="empty-state">
                    <p className="empty-state__title">No donations found</p>
                    <p className="empty-state__next">
                      {hasFilters(filters) || statusGroup !== null
                        ? emptyTexts.filtered
                        : canUpload
                          ? emptyTexts.upload
                          : emptyTexts.none}
                    </p>
                  </div>
                </td>
              </tr>
            ) : (
              list.donations.map((donation) => (
                <tr
                  key={donation.id}
                  className="donations__row"
                  tabIndex={0}
                  aria-label={`${donation.donor?.name ?? donation.donor_name ?? 'Donation'}, ${formatAmount(donation.amount)}, ${formatDonated(donation.donated_at)}: open details`}
                  onClick={() => activate(donation.id)}
                  onKeyDown={(event) => onRowKey(event, donation.id)}
                >
                  <td className="donations__date" data-label="Donated">
                    {formatDonated(donation.donated_at)}
                  </td>
                  {/* A cut name is whole on hover (title) and in the row's label. */}
                  <td
                    data-label="Donor Name"
                    title={donation.donor?.name ?? donation.donor_name ?? undefined}
                  >
                    {donation.donor?.name ?? donation.donor_name ?? ''}
                  </td>
                  <td className="donations__numeric" data-label="Amount">
                    {formatAmount(donation.amount)}
                  </td>
                  <td
                    data-label="Company"
                    title={donation.company?.name ?? donation.company_name ?? undefined}
                  >
                    {donation.company?.name ?? donation.company_name ?? (
                      <span className="placeholder">{emptyTexts.noCompany}</span>
                    )}
                  </td>
                  <td data-label="Organization" title={donation.organization.name}>
                    {donation.organization.name}
                  </td>
                  <td className="donations__status" data-label="Status">
                    <StatusBadge status={donation.status_id} name={donation.status.name} />
                    {donation.paid_amount != null ? (
                      <span className="donations__paid">
                        Paid {formatAmount(donation.paid_amount)}
                        {donation.paid_at ? ` on ${formatDonated(`${donation.paid_at}T12:00:00Z`)}` : ''}
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      {list.total > perPage ? (
        <nav className="donations__pager" part="pager" aria-label="Pages">
          <Button
            variant="secondary"
            disabled={page <= 1 || loading}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            Previous
          </Button>
          <span className="donations__page">
            Page {page} of {pages}
          </span>
          <Button
            variant="secondary"
            disabled={page >= pages || loading}
            onClick={() => setPage((p) => Math.min(pages, p + 1))}
          >
            Next
          </Button>
        </nav>
      ) : null}

      {canUpload ? (
        <ImportFlow
          organizationId={organizationId}
          open={uploadOpen}
          onClose={() => setUploadOpen(false)}
          onUploaded={reload}
        />
      ) : null}
      <MatchDialog
        donationId={openDonation}
        open={openDonation !== null}
        onClose={() => setOpenDonation(null)}
        onChanged={reload}
      />
    </>
  );
}

/** A linked organization's name as the user knows it, else its number. */
function organizationName(id: string): string {
  return knownOrganizations.value.find((o) => String(o.id) === id)?.name ?? `organization ${id}`;
}

function sameFilters(a: DonationFilters, b: DonationFilters): boolean {
  return (
    a.dateFrom === b.dateFrom &&
    a.dateTo === b.dateTo &&
    a.company === b.company &&
    a.donor === b.donor &&
    a.minAmount === b.minAmount &&
    a.organization === b.organization &&
    a.expectedMonth === b.expectedMonth &&
    a.companyName === b.companyName &&
    a.campaign === b.campaign &&
    a.paid === b.paid
  );
}
