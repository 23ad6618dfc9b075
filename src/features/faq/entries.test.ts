import { describe, expect, it } from 'vitest';
import { donorLinkRedirect } from '../../contract/donor-paths.ts';
import {
  allEntries,
  choicesFromQuery,
  cleanCompanyName,
  companyBadge,
  donorPageUrl,
  type FaqChoices,
  resolveChoices,
  selectEntries,
  subtitleOf,
} from './entries.ts';

const none: FaqChoices = { partner: null, process: null, company: null, donor: null };
const ids = (choices: Partial<FaqChoices>) => selectEntries({ ...none, ...choices }).map((e) => e.id);

const general = [
  'role',
  'vr-not-matched',
  'wrong-details',
  'company-not-listed',
  'broken-link',
  'confirm-received',
  'below-minimum',
  'child-credit',
  'deadline',
  'payout-date',
];

describe('FAQ entries', () => {
  it('lists every entry of the spec, each with a question and an answer', () => {
    const entries = allEntries(none);
    expect(entries.map((e) => e.id)).toEqual([
      'role',
      'vr-not-matched',
      'apex-role',
      'vr-role',
      'wrong-details',
      'company-not-listed',
      'broken-link',
      'confirm-received',
      'how-portal',
      'how-contact',
      'how-esign',
      'how-direct',
      'below-minimum',
      'child-credit',
      'deadline',
      'payout-date',
    ]);
    for (const entry of entries) {
      expect(entry.question.length).toBeGreaterThan(10);
      expect(entry.answer.length).toBeGreaterThan(0);
    }
  });

  it('shows only the general entries when neither partner nor process is chosen', () => {
    expect(ids({})).toEqual(general);
  });

  it('adds the Vertical Raise entry for vr, and nothing of Apex', () => {
    const shown = ids({ partner: 'vr' });
    expect(shown).toEqual(['role', 'vr-not-matched', 'vr-role', ...general.slice(2)]);
    expect(shown).not.toContain('apex-role');
  });

  it('adds the Apex Leadership entry for apex, and nothing of Vertical Raise', () => {
    const shown = ids({ partner: 'apex' });
    expect(shown).toContain('apex-role');
    expect(shown).not.toContain('vr-role');
    // spec gives the 'does not match Vertical Raise' entry no partner: everyone sees it.
    expect(shown).toContain('vr-not-matched');
  });

  it.each([
    ['portal', 'how-portal'],
    ['esign', 'how-esign'],
    ['contact', 'how-contact'],
    ['direct', 'how-direct'],
  ] as const)('adds exactly the %s answer to how matching works', (process, id) => {
    const shown = ids({ process });
    expect(shown.filter((e) => e.startsWith('how-'))).toEqual([id]);
    expect(shown).toHaveLength(general.length + 1);
  });

  it('combines a partner and a process (vr and esign)', () => {
    expect(ids({ partner: 'vr', process: 'esign' })).toEqual([
      'role',
      'vr-not-matched',
      'vr-role',
      'wrong-details',
      'company-not-listed',
      'broken-link',
      'confirm-received',
      'how-esign',
      'below-minimum',
      'child-credit',
      'deadline',
      'payout-date',
    ]);
  });

  it('names the company in how matching works, or says "your employer" without one', () => {
    const named = selectEntries({ ...none, process: 'portal', company: 'Acme' }).find(
      (e) => e.id === 'how-portal',
    );
    expect(named?.question).toBe('How does matching work with Acme?');
    const unnamed = selectEntries({ ...none, process: 'portal' }).find((e) => e.id === 'how-portal');
    expect(unnamed?.question).toBe('How does matching work with your employer?');
    expect(unnamed?.answer[0]).toEqual({
      kind: 'p',
      text: 'Your employer takes matching requests through an online giving portal.',
    });
  });

  it('offers the self-service link with di and de, and the emails advice without them', () => {
    const withDonor = allEntries({ ...none, donor: { matchId: '42', email: 'dee@example.org' } }).find(
      (e) => e.id === 'wrong-details',
    );
    expect(withDonor?.selfService).toBe(true);
    expect(JSON.stringify(withDonor?.answer)).toContain('We will email a secure, one-time link');
    const without = allEntries(none).find((e) => e.id === 'wrong-details');
    expect(JSON.stringify(without?.answer)).toContain('Use the link in any of the emails Twofold sent you');
  });

  it("tells what the spec's one-line summaries say", () => {
    const text = (id: string) => JSON.stringify(allEntries(none).find((e) => e.id === id)?.answer);
    expect(text('role')).toContain('never handles donations or matching funds');
    expect(text('vr-not-matched')).toContain('name and its EIN');
    expect(text('company-not-listed')).toContain('Choose “Other” in the company dropdown');
    expect(text('company-not-listed')).toContain('added automatically');
    expect(text('confirm-received')).toMatch(/^\[\{"kind":"p","text":"Not really\./);
    expect(text('below-minimum')).toContain('give again to the same nonprofit');
    expect(text('below-minimum')).toContain('merges');
    expect(text('child-credit')).toContain('Probably not.');
    expect(text('deadline')).toContain('“Match About to Expire” email goes out a week before the deadline');
    expect(text('payout-date')).toContain('It varies by company.');
  });
});

describe('the badge and subtitle', () => {
  it("shows the company's name, or 'General' on the badge", () => {
    expect(companyBadge({ ...none, company: 'Acme' })).toBe('Acme');
    expect(companyBadge(none)).toBe('General');
    expect(subtitleOf({ ...none, company: 'Acme' })).toBe(
      'Guidance for donors and nonprofits working with Acme',
    );
  });

  it('keeps company names printable and short', () => {
    expect(cleanCompanyName('  Acme\u0000  Corp\n ')).toBe('Acme Corp');
    expect(cleanCompanyName('   ')).toBeNull();
    expect(cleanCompanyName('x'.repeat(300))).toHaveLength(120);
  });
});

describe('choices from the query string', () => {
  it('reads value-less flags, cn, di and de (/portal/faq?vr&esign&cn=Acme)', () => {
    expect(choicesFromQuery('?vr&esign&cn=Acme')).toEqual({
      partner: 'vr',
      process: 'esign',
      company: 'Acme',
      donor: null,
    });
  });

  it('treats paper as esign and manual as contact', () => {
    expect(choicesFromQuery('?paper').process).toBe('esign');
    expect(choicesFromQuery('?manual').process).toBe('contact');
    expect(choicesFromQuery('?apex&direct').partner).toBe('apex');
    expect(choicesFromQuery('?apex&direct').process).toBe('direct');
  });

  it('takes the first partner and process in the address when several are given', () => {
    expect(choicesFromQuery('?apex&vr&portal&esign')).toMatchObject({ partner: 'apex', process: 'portal' });
  });

  it('ignores flags that say no and words it does not know', () => {
    expect(choicesFromQuery('?vr=0&esign=false&foo&portal=no')).toMatchObject({
      partner: null,
      process: null,
    });
  });

  it('needs both di and de, well formed, for the self-service link', () => {
    expect(choicesFromQuery('?di=42&de=dee%40example.org').donor).toEqual({
      matchId: '42',
      email: 'dee@example.org',
    });
    expect(choicesFromQuery('?di=42').donor).toBeNull();
    expect(choicesFromQuery('?de=dee%40example.org').donor).toBeNull();
    expect(choicesFromQuery('?di=..%2F..%2Fadmin&de=dee%40example.org').donor).toBeNull();
    expect(choicesFromQuery('?di=42&de=not-an-email').donor).toBeNull();
    // Match ids are whole numbers the server knows; anything else would be a staff sign-in link.
    expect(choicesFromQuery('?di=abc-1&de=dee%40example.org').donor).toBeNull();
    expect(choicesFromQuery('?di=042&de=dee%40example.org').donor).toBeNull();
    expect(choicesFromQuery('?di=2147483648&de=dee%40example.org').donor).toBeNull();
    expect(choicesFromQuery('?di=2147483647&de=dee%40example.org').donor?.matchId).toBe('2147483647');
  });
});

describe('attributes against the query string', () => {
  it('lets each attribute that is set win, and falls back to the query for the others', () => {
    const choices = resolveChoices({ partner: 'apex', company: 'Globex' }, '?vr&portal&cn=Acme');
    expect(choices).toEqual({ partner: 'apex', process: 'portal', company: 'Globex', donor: null });
  });

  it('reads attribute values the way the query words read (paper → esign)', () => {
    expect(resolveChoices({ process: 'paper' }, '').process).toBe('esign');
    expect(resolveChoices({ process: 'nonsense' }, '?direct').process).toBeNull();
  });

  it('takes the donor pair from the attributes as a pair, never half from the address', () => {
    expect(resolveChoices({ matchId: '7', donorEmail: 'a@b.org' }, '?di=8&de=c%40d.org').donor).toEqual({
      matchId: '7',
      email: 'a@b.org',
    });
    expect(resolveChoices({ matchId: '7' }, '?di=8&de=c%40d.org').donor).toBeNull();
    expect(resolveChoices({}, '?di=8&de=c%40d.org').donor).toEqual({ matchId: '8', email: 'c@d.org' });
  });
});

describe('the donor link', () => {
  it('asks for the redirect the spec names, and sends the donor to the hosted portal page', () => {
    expect(donorLinkRedirect('42')).toBe('/donor-match-update/42');
    expect(donorPageUrl('https://portal.twofold.test/', '42')).toBe(
      'https://portal.twofold.test/portal/donor-match-update/42',
    );
    expect(donorPageUrl('https://example.org/twofold', '7')).toBe(
      'https://example.org/twofold/portal/donor-match-update/7',
    );
  });
});
