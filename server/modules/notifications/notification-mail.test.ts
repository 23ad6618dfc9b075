import { describe, expect, it } from 'vitest';
import { type DonorMatchFacts, type DonorMatchStatus, donorMatchMail } from '../../mail/templates.ts';
import { notifiedStatuses } from './notifications.service.ts';

const facts: DonorMatchFacts = {
  to: 'sam@example.org',
  donorName: 'Sam "Sammy" O\'Neil',
  organizationName: 'Shelter & Co <NGO>',
  companyName: 'Acme <Corp>',
  companyUrl: 'https://acme.example.com/give?a=1&b=2',
  companyGuide: 'Use the "Match" button.',
  minimumMatchCents: 2500,
  maximumMatchCents: null,
  amountCents: 12_345,
  donatedAt: new Date('2026-03-05T12:00:00Z'),
  matchedCents: 12_345,
  faqUrl: 'https://portal.test/portal/faq?di=1&de=sam%40example.org',
  supportEmail: 'support@twofold.test',
};

describe('donor match emails', () => {
  it('have a template for every notified status, each with its own subject, a greeting and a text part', () => {
    const subjects = new Set<string>();
    for (const status of notifiedStatuses) {
      const mail = donorMatchMail(status as DonorMatchStatus, facts);
      expect(mail.to).toBe('sam@example.org');
      expect(mail.subject.length, String(status)).toBeGreaterThan(10);
      subjects.add(mail.subject);
      expect(mail.text).toContain('Hi Sam,');
      expect(mail.text).toContain('$123.45');
      expect(mail.text).toContain('March 5, 2026');
      expect(mail.html).toContain('<html lang="en">');
    }
    expect(subjects.size).toBe(notifiedStatuses.size);
  });

  it('escapes every fact in the HTML and keeps them readable in the text', () => {
    const mail = donorMatchMail(7, facts);
    expect(mail.html).not.toMatch(/<NGO>|<Corp>|"Match"/);
    expect(mail.html).toContain('Shelter &amp; Co &lt;NGO&gt;');
    expect(mail.html).toContain('href="https://acme.example.com/give?a=1&amp;b=2"');
    expect(mail.text).toContain('Acme <Corp>');
    expect(mail.text).toContain('Use the "Match" button.');
  });

  it('adds the open-tracking image only when given its address', () => {
    expect(donorMatchMail(8, facts).html).not.toContain('<img');
    const tracked = donorMatchMail(8, facts, 'https://portal.test/api/notification/open.gif?t=abc');
    expect(tracked.html).toContain(
      '<img src="https://portal.test/api/notification/open.gif?t=abc" width="1" height="1" alt=""',
    );
    expect(tracked.text).not.toContain('open.gif');
  });

  it('greets without a name and names no employer when the donor gave none', () => {
    const mail = donorMatchMail(23, { ...facts, donorName: null, companyName: null, companyUrl: null });
    expect(mail.text.startsWith('Hello,')).toBe(true);
    expect(mail.text).toContain(`Add your employer: ${facts.faqUrl}`);
  });
});
