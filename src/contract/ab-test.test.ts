import { describe, expect, it } from 'vitest';
import { normalCdf, twoProportionTest } from './ab-test.ts';

describe('the two-proportion z-test', () => {
  it('matches the standard normal table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1.6449)).toBeCloseTo(0.05, 4);
  });

  it('finds 30% vs 20% confirm rates over 500 emails each significant (z ≈ 3.65)', () => {
    const r = twoProportionTest(150, 500, 100, 500);
    expect(r.enough).toBe(true);
    if (!r.enough) return;
    expect(r.z).toBeCloseTo(3.651, 2);
    expect(r.pValue).toBeLessThan(0.001);
    expect(r.significant).toBe(true);
    expect(r.message).toBe('The difference is significant (p = < 0.001).');
  });

  it('calls 12% vs 10% over 100 each chance', () => {
    const r = twoProportionTest(12, 100, 10, 100);
    expect(r).toMatchObject({ enough: true, significant: false });
    if (r.enough) expect(r.pValue).toBeCloseTo(0.653, 2);
  });

  it("says 'not enough data yet' below the minimum sample or with too few confirms", () => {
    expect(twoProportionTest(5, 10, 1, 10)).toEqual({ enough: false, message: 'not enough data yet' });
    expect(twoProportionTest(1, 200, 2, 200)).toEqual({ enough: false, message: 'not enough data yet' });
  });
});
