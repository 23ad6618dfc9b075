/**
 * Whether two template versions' confirm rates differ by more than chance: a two-proportion
 * z-test (pooled), two-sided. Below the minimum sample the answer is 'not enough data yet'.
 */

/** Emails per version before a comparison means anything, and the pooled expected counts the normal approximation needs. */
export const minSentPerVersion = 30;
const minExpectedCount = 5;
/** The significance level the panel uses. */
export const significanceLevel = 0.05;

/** The standard normal cumulative distribution (Abramowitz & Stegun 26.2.17, error below 7.5e-8). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const tail =
    d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

export type ProportionTest =
  | { enough: false; message: string }
  | { enough: true; z: number; pValue: number; significant: boolean; message: string };

/** Compares successes a/na with b/nb. */
export function twoProportionTest(a: number, na: number, b: number, nb: number): ProportionTest {
  const pooled = na + nb > 0 ? (a + b) / (na + nb) : 0;
  const enough =
    na >= minSentPerVersion &&
    nb >= minSentPerVersion &&
    Math.min(na, nb) * pooled >= minExpectedCount &&
    Math.min(na, nb) * (1 - pooled) >= minExpectedCount;
  if (!enough) return { enough: false, message: 'not enough data yet' };
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  const z = (a / na - b / nb) / se;
  const pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  const significant = pValue < significanceLevel;
  return {
    enough: true,
    z,
    pValue,
    significant,
    message: significant
      ? `The difference is significant (p = ${pValue < 0.001 ? '< 0.001' : pValue.toFixed(3)}).`
      : `The difference may be chance (p = ${pValue.toFixed(3)}).`,
  };
}
