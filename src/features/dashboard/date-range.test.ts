import { describe, expect, it } from 'vitest';
import { chooseDay, defaultRange, displayDay, presetRange, presets } from './date-range.ts';

// A Wednesday in the middle of the second quarter.
const today = new Date(2025, 4, 14, 15, 30);

describe('the dashboard date filter', () => {
  it("offers the spec's presets in order and computes each from today", () => {
    expect(presets).toEqual([
      'Last 7 days',
      'Last 90 days',
      'Last Month',
      'Month to Date',
      'Last Quarter',
      'Quarter to Date',
      'Year to Date',
      'Custom Date Range',
    ]);
    expect(presetRange('Last 7 days', today)).toEqual({ from: '2025-05-08', to: '2025-05-14' });
    expect(presetRange('Last 90 days', today)).toEqual({ from: '2025-02-14', to: '2025-05-14' });
    expect(presetRange('Last Month', today)).toEqual({ from: '2025-04-01', to: '2025-04-30' });
    expect(presetRange('Month to Date', today)).toEqual({ from: '2025-05-01', to: '2025-05-14' });
    expect(presetRange('Last Quarter', today)).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    expect(presetRange('Quarter to Date', today)).toEqual({ from: '2025-04-01', to: '2025-05-14' });
    expect(presetRange('Year to Date', today)).toEqual({ from: '2025-01-01', to: '2025-05-14' });
    expect(presetRange('Custom Date Range', today)).toBeNull();
  });

  it('crosses the year for Last Month and Last Quarter in January', () => {
    const january = new Date(2026, 0, 10);
    expect(presetRange('Last Month', january)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('Last Quarter', january)).toEqual({ from: '2025-10-01', to: '2025-12-31' });
  });

  it('defaults to Jan 1 of the current year to today', () => {
    expect(defaultRange(today)).toEqual({ from: '2025-01-01', to: '2025-05-14' });
  });

  it('sets From only on or before To, and To only on or after From; otherwise ignores the choice', () => {
    const range = { from: '2025-02-01', to: '2025-03-01' };
    expect(chooseDay(range, 'from', '2025-03-01')).toEqual({ from: '2025-03-01', to: '2025-03-01' });
    expect(chooseDay(range, 'from', '2025-03-02')).toBe(range);
    expect(chooseDay(range, 'to', '2025-02-01')).toEqual({ from: '2025-02-01', to: '2025-02-01' });
    expect(chooseDay(range, 'to', '2025-01-31')).toBe(range);
    expect(chooseDay(range, 'to', '')).toBe(range);
  });

  it("shows days as 'MMM dd, yyyy'", () => {
    expect(displayDay('2025-03-05')).toBe('Mar 05, 2025');
  });
});
