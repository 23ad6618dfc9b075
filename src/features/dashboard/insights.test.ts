import { describe, expect, it } from 'vitest';
import { ageingBuckets } from '../../contract/dashboard.ts';
import { ageingRange, monthRange } from './insights.tsx';

const range = { from: '2025-01-15', to: '2025-04-30' };

describe('the links behind the figures', () => {
  it('covers a month of gifts within the range', () => {
    expect(monthRange('2025-01', range)).toEqual({ from: '2025-01-15', to: '2025-01-31' });
    expect(monthRange('2025-02', range)).toEqual({ from: '2025-02-01', to: '2025-02-28' });
  });

  it('covers an ageing bucket as of the end of the range', () => {
    const [recent, middle, old] = ageingBuckets;
    expect(ageingRange(recent, range)).toEqual({ from: '2025-03-31', to: '2025-04-30' });
    expect(ageingRange(middle, range)).toEqual({ from: '2025-01-30', to: '2025-03-30' });
    expect(ageingRange(old, range)).toEqual({ from: '2025-01-15', to: '2025-01-29' });
  });
});
