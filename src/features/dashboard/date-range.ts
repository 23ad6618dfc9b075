import {
  endOfMonth,
  endOfQuarter,
  format,
  parseISO,
  startOfMonth,
  startOfQuarter,
  startOfYear,
  subDays,
  subMonths,
  subQuarters,
} from 'date-fns';

/** A range of whole days, as yyyy-MM-dd (what the statistics call takes). */
export interface DayRange {
  from: string;
  to: string;
}

/** spec section 2: the date filter's presets, in its order. */
export const presets = [
  'Last 7 days',
  'Last 90 days',
  'Last Month',
  'Month to Date',
  'Last Quarter',
  'Quarter to Date',
  'Year to Date',
  'Custom Date Range',
] as const;
export type Preset = (typeof presets)[number];

const day = (date: Date) => format(date, 'yyyy-MM-dd');

/** The days a preset covers, counted from today (local time); null for Custom Date Range. */
export function presetRange(preset: Preset, today = new Date()): DayRange | null {
  switch (preset) {
    case 'Last 7 days':
      return { from: day(subDays(today, 6)), to: day(today) };
    case 'Last 90 days':
      return { from: day(subDays(today, 89)), to: day(today) };
    case 'Last Month': {
      const last = subMonths(today, 1);
      return { from: day(startOfMonth(last)), to: day(endOfMonth(last)) };
    }
    case 'Month to Date':
      return { from: day(startOfMonth(today)), to: day(today) };
    case 'Last Quarter': {
      const last = subQuarters(today, 1);
      return { from: day(startOfQuarter(last)), to: day(endOfQuarter(last)) };
    }
    case 'Quarter to Date':
      return { from: day(startOfQuarter(today)), to: day(today) };
    case 'Year to Date':
      return { from: day(startOfYear(today)), to: day(today) };
    case 'Custom Date Range':
      return null;
  }
}

/** spec: "The default range is Jan 1 of the current year to today." */
export const defaultPreset: Preset = 'Year to Date';
export function defaultRange(today = new Date()): DayRange {
  return presetRange(defaultPreset, today) as DayRange;
}

/**
 * spec section 5: "From may be set only if on or before the current To; To only if on or after
 * From; otherwise the selection is ignored." Returns the range after the choice (the same range
 * when it is ignored, or when the input is empty or not a day).
 */
export function chooseDay(range: DayRange, which: 'from' | 'to', value: string): DayRange {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(parseISO(value).getTime())) return range;
  if (which === 'from') return value <= range.to ? { ...range, from: value } : range;
  return value >= range.from ? { ...range, to: value } : range;
}

/** spec: "Dates display as 'MMM dd, yyyy'." */
export function displayDay(value: string): string {
  return format(parseISO(value), 'MMM dd, yyyy');
}
