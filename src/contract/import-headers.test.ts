import { describe, expect, it } from 'vitest';
import { importTargets, normaliseHeader } from './donation-import.ts';
import { importHeaderSynonyms, recogniseImportHeader } from './import-headers.ts';

describe('the recognised header table', () => {
  it('lists each header once, already normalised, under a real target', () => {
    const all = Object.values(importHeaderSynonyms).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const header of all) expect(normaliseHeader(header)).toBe(header);
    for (const meaning of Object.keys(importHeaderSynonyms))
      expect([...importTargets, 'donor.first_name', 'donor.last_name']).toContain(meaning);
  });

  it('recognises a header whatever its case, punctuation, spacing and unit', () => {
    expect(recogniseImportHeader('Donor Email Address')).toBe('donor.email');
    expect(recogniseImportHeader('  DONOR-EMAIL  address ')).toBe('donor.email');
    expect(recogniseImportHeader('Employer Name')).toBe('company.name');
    expect(recogniseImportHeader('Gift Amount (USD)')).toBe('amount');
    expect(recogniseImportHeader('Primary Email (Home)')).toBe('donor.email');
    expect(recogniseImportHeader('Surname')).toBe('donor.last_name');
    expect(recogniseImportHeader('Favourite colour')).toBeNull();
    expect(recogniseImportHeader('')).toBeNull();
  });
});
