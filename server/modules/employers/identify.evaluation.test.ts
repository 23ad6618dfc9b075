import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEmployerThreshold } from '../../../src/contract/employers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { evaluationSet, scoreEvaluation } from './evaluation-set.ts';
import { identifyEmployers } from './identify.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

describe('the labelled evaluation set', () => {
  const set = evaluationSet();

  it('holds at least 1,000 records of every kind, the same every run', () => {
    expect(set.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(set.map((r) => r.kind)).size).toBe(15);
    expect(evaluationSet()).toEqual(set);
    expect(set.filter((r) => r.expected === null).length).toBeGreaterThan(300);
  });

  it('meets the goals at the default threshold: ≥ 95% of the findable found, ≤ 1% of those named wrong', async () => {
    const answers = await identifyEmployers(
      t.db,
      set.map((r) => ({ employer: r.employer, email: r.donorEmail })),
      { correctEmails: true },
    );
    const named = answers.map((a) => (a.confidence >= defaultEmployerThreshold ? a.company_name : null));
    const score = scoreEvaluation(set, named);
    const misses = set.flatMap((r, i) =>
      named[i] !== r.expected
        ? [
            `${r.kind}: '${r.employer}' <${r.donorEmail}> → ${named[i]} (${answers[i]?.confidence}, ${answers[i]?.reason})`,
          ]
        : [],
    );
    expect(score.foundShare, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score.wrongShare, misses.join('\n')).toBeLessThanOrEqual(0.01);
    // Every record that must not be identified is left for a person.
    for (const kind of ['free-mail', 'misspelt-free-mail', 'no-employer', 'blank'] as const)
      expect(score.byKind[kind]?.wrong, kind).toBe(0);
  });
});
