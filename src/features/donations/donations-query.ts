import { format, subDays } from 'date-fns';
import type { DonationListParams } from '../../api/donation-list.ts';
import {
  type DonationSortField,
  defaultDonationSort,
  defaultDonationsPerPage,
  paidFilters,
} from '../../contract/donations.ts';
import { type StatusGroup, statusGroupIds, statusGroups } from '../../contract/statuses.ts';
import { formatGiftDay } from '../common.ts';

/** What the filter panel holds (the inputs' text, as typed). */
export interface DonationFilters {
  dateFrom: string;
  dateTo: string;
  company: string;
  donor: string;
  minAmount: string;
  /** Set by a link only (a dashboard figure): one organization of the family, by id. */
  organization: string;
  /** Set by a link only (the dashboard's forecast): the month the company is expected to pay, yyyy-MM. */
  expectedMonth: string;
  /** Set by a link only (the dashboard's top companies): the company's name, matched exactly. */
  companyName: string;
  /** Beyond the spec (issue 12): a campaign's id, '' for all. */
  campaign: string;
  /** Beyond the spec: '' (any), 'paid' (payment received) or 'unpaid'. */
  paid: string;
}

export const emptyFilters: DonationFilters = {
  dateFrom: '',
  dateTo: '',
  company: '',
  donor: '',
  minAmount: '',
  organization: '',
  expectedMonth: '',
  companyName: '',
  campaign: '',
  paid: '',
};

/** spec (part 1, section 3, Listing options): "The filters dateFrom and dateTo cover the last 90 days". */
export const defaultWindowDays = 90;

/** What the list opens with: the last 90 days up to today (the user's calendar), nothing else. */
export function defaultFilters(today: Date = new Date()): DonationFilters {
  return {
    ...emptyFilters,
    dateFrom: format(subDays(today, defaultWindowDays), 'yyyy-MM-dd'),
    dateTo: format(today, 'yyyy-MM-dd'),
  };
}

/** Whether any filter differs from blank: 'Clear filters' has something to clear. */
export function hasFilters(filters: DonationFilters): boolean {
  return Object.values(filters).some((value) => value.trim() !== '');
}

export interface DonationSort {
  field: DonationSortField;
  ascending: boolean;
}

/** spec: "Default sort donated_at descending". */
export const defaultSort: DonationSort = { ...defaultDonationSort };
export const perPage = defaultDonationsPerPage;
/** spec: "Filter changes debounce 300 ms and reset the page to 1." */
export const filterDebounceMs = 300;

const tileConstants: Record<StatusGroup, string> = {
  donor_contacted: 'DONOR_CONTACTED',
  npo_verify: 'NPO_TO_VERIFY',
  engaged_submitted: 'SUBMITTED_ENGAGED',
  no_response: 'NO_RESPONSE',
};

/**
 * spec: "Four status quick-filter tiles: DONOR_CONTACTED, NPO_TO_VERIFY, SUBMITTED_ENGAGED,
 * NO_RESPONSE" — each the list's name for one of the dashboard's status groups.
 */
export const statusTiles: ReadonlyArray<{ group: StatusGroup; constant: string; label: string }> =
  statusGroupIds.map((group) => ({
    group,
    constant: tileConstants[group],
    label: statusGroups[group].label,
  }));

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * The filters a link opens the list with (`?status_group=npo_verify&dateFrom=…&dateTo=…&company=…`,
 * and the link-only `organization=<id>`, `expectedMonth=yyyy-MM` and `companyName=<exact name>`),
 * as the dashboard's figures link to the matches behind them. Anything else in the query is ignored.
 */
export function linkedFilters(search: string): { filters: DonationFilters; group: StatusGroup | null } {
  const params = new URLSearchParams(search);
  const text = (name: string) => params.get(name)?.slice(0, 200) ?? '';
  const group = params.get('status_group');
  return {
    filters: {
      ...emptyFilters,
      dateFrom: text('dateFrom'),
      dateTo: text('dateTo'),
      company: text('company'),
      donor: text('donor'),
      minAmount: text('minAmount'),
      organization: /^[1-9]\d{0,9}$/.test(text('organization')) ? text('organization') : '',
      expectedMonth: monthPattern.test(text('expectedMonth')) ? text('expectedMonth') : '',
      // Up to 500 characters, as long as the dashboard's company names are.
      companyName: params.get('companyName')?.slice(0, 500) ?? '',
      campaign: /^\d{1,10}$/.test(text('campaign')) ? text('campaign') : '',
      paid: (paidFilters as readonly string[]).includes(params.get('paid') ?? '')
        ? (params.get('paid') ?? '')
        : '',
    },
    group: (statusGroupIds as readonly string[]).includes(group ?? '') ? (group as StatusGroup) : null,
  };
}

const amountPattern = /^\d{1,9}(\.\d{1,2})?$/;

/** Problems with what was typed, by field: such a filter is not sent until it is fixed. */
export function filterProblems(filters: DonationFilters): Partial<Record<keyof DonationFilters, string>> {
  const problems: Partial<Record<keyof DonationFilters, string>> = {};
  const amount = filters.minAmount.trim();
  if (amount !== '' && !amountPattern.test(amount)) {
    problems.minAmount = 'Enter an amount in dollars, such as 100 or 250.50';
  }
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) {
    problems.dateTo = 'The end date must be on or after the start date';
  }
  return problems;
}

/** The list call's query for the filters, the active tile, the page and the sort. Invalid or blank filters are left out. */
export function listQuery(
  filters: DonationFilters,
  statusGroup: StatusGroup | null,
  sort: DonationSort,
  page?: number,
): DonationListParams {
  const problems = filterProblems(filters);
  const query: DonationListParams = {
    sort_field: sort.field,
    ascending: String(sort.ascending) as 'true' | 'false',
  };
  if (page !== undefined) {
    query.page = String(page);
    query.per_page = String(perPage);
  }
  if (filters.dateFrom && !problems.dateTo) query['filters[dateFrom]'] = filters.dateFrom;
  if (filters.dateTo && !problems.dateTo) query['filters[dateTo]'] = filters.dateTo;
  const company = filters.company.trim();
  if (company) query['filters[company]'] = company;
  const donor = filters.donor.trim();
  if (donor) query['filters[donor]'] = donor;
  const amount = filters.minAmount.trim();
  if (amount && !problems.minAmount) query['filters[minAmount]'] = amount;
  if (/^\d{1,10}$/.test(filters.campaign)) query['filters[campaign]'] = filters.campaign;
  if (filters.paid === 'paid' || filters.paid === 'unpaid') query['filters[paid]'] = filters.paid;
  if (statusGroup) query['filters[status_group]'] = statusGroup;
  if (filters.organization) query['filters[organization]'] = filters.organization;
  if (filters.expectedMonth) query['filters[expectedMonth]'] = filters.expectedMonth;
  if (filters.companyName) query['filters[companyName]'] = filters.companyName;
  return query;
}

/** The pages needed for `total` rows; at least one. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * spec: "Dates display as 'MMM dd, yyyy'." The server stores the gift's day at UTC midnight and
 * filters by UTC day, so the UTC calendar day is shown (a local conversion would move it a day
 * back west of Greenwich).
 */
export const formatDonated = formatGiftDay;

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** spec: "Amounts are dollars with thousands separators." */
export function formatAmount(amount: number): string {
  return dollars.format(amount);
}

/** Sorting by a column: the same column flips direction; a new one starts descending for dates and amounts. */
export function nextSort(current: DonationSort, field: DonationSortField): DonationSort {
  if (current.field === field) return { field, ascending: !current.ascending };
  const descendingFirst = field === 'donated_at' || field === 'amount' || field === 'created_at';
  return { field, ascending: !descendingFirst };
}

/** What an empty list means and what to do next; the company cell of a match without one. */
export const emptyTexts = {
  filtered:
    'Nothing matches these filters and dates. Widen the dates or choose Clear filters to see every match.',
  upload:
    'Matches appear here as donors request them on your matching page, or upload a CSV or Excel file of your gifts.',
  none: 'Matches appear here as donors request them on your matching page.',
  noCompany: 'No company',
} as const;
