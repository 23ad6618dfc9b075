import { describe, expect, it } from 'vitest';
import { shippedTemplates } from '../modules/templates/defaults.ts';
import { sampleValues } from '../modules/templates/variables.ts';
import { type DonorEmailInput, fillVariables, renderDonorEmail } from './donor-email.tsx';

const input = (change: Partial<DonorEmailInput> = {}): DonorEmailInput => ({
  to: 'donor@example.org',
  texts: shippedTemplates[7],
  stage: 1,
  values: {
    ...sampleValues({
      name: 'Hope & <Harbor>',
      ein: '12-3456789',
      url: null,
      mission: null,
      file_logo: null,
      notify_contact: {},
    }),
    donor_first_name: '<script>x</script>',
  },
  links: {
    confirm: 'https://portal.test/api/email/confirm?t=1.confirm.abc',
    decline: 'https://portal.test/api/email/decline?t=1.decline.abc',
    unsubscribe: 'https://portal.test/api/email/unsubscribe?t=1.unsubscribe.abc',
    faq: 'https://portal.test/portal/faq?di=1&de=donor%40example.org',
    companyUrl: 'https://example.com/give?a=1&b="2"',
    openPixel: null,
  },
  supportEmail: 'support@twofold.test',
  ...change,
});

describe('the donor email renderer', () => {
  it('escapes every variable value in the HTML and keeps it readable in the plain text', async () => {
    const mail = await renderDonorEmail(input());
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Hi &lt;script&gt;x&lt;/script&gt;,');
    expect(mail.html).toContain('Hope &amp; &lt;Harbor&gt;');
    expect(mail.html).toContain('href="https://example.com/give?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain('Hi <script>x</script>,');
    expect(mail.subject).toBe('Double your gift to Hope & <Harbor>');
  });

  it('renders the stage: the 1st reminder has its own subject, preheader, header and first paragraph', async () => {
    const mail = await renderDonorEmail(input({ stage: 2 }));
    expect(mail.subject).toBe('Reminder: Example Corp can match your gift');
    expect(mail.html).toContain('Have you submitted your match?');
    expect(mail.html).toContain('It only takes a few minutes in Example Corp’s portal.');
    expect(mail.text).toContain('A few days ago we let you know');
    // Shared parts (edited on the initial tab) are in every email of the sequence.
    expect(mail.text).toContain("I've done it: https://portal.test/api/email/confirm?t=1.confirm.abc");
  });

  it('has a plain-text part and one-click unsubscribe headers (RFC 8058)', async () => {
    const mail = await renderDonorEmail(input());
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://portal.test/api/email/unsubscribe?t=1.unsubscribe.abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.text).toContain('https://portal.test/api/email/unsubscribe?t=1.unsubscribe.abc');
    expect(mail.text).not.toContain('<p');
  });

  it('shows no steps when the template has no buttons, and the tracking image only when given', async () => {
    const plain = await renderDonorEmail(input({ texts: shippedTemplates[11] }));
    expect(plain.html).not.toContain('/api/email/confirm');
    expect(plain.html).not.toContain('open.gif');
    const tracked = await renderDonorEmail(
      input({ links: { ...input().links, openPixel: 'https://portal.test/api/notification/open.gif?t=x' } }),
    );
    expect(tracked.html.match(/open\.gif/g)).toHaveLength(1);
  });

  it('fills {{ variables }} with or without spaces and leaves no braces behind', () => {
    expect(
      fillVariables('Hi {{donor_first_name}} / {{ donor_first_name }}', { donor_first_name: 'Al' }),
    ).toBe('Hi Al / Al');
    expect(fillVariables('{{nope}}!', {})).toBe('!');
  });
});
