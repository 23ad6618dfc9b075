import { describe, expect, it, vi } from 'vitest';
import {
  type TemplateStage,
  type TemplateTexts,
  templateTextFields,
  templateVariables,
} from '../../src/contract/email-templates.ts';
import { shippedTemplates } from '../modules/templates/defaults.ts';
import { sampleValues } from '../modules/templates/variables.ts';
import { type DonorEmailInput, fillVariables, renderDonorEmail, renderDonorEmails } from './donor-email.tsx';

/** React Email's render, counted: how many layouts a batch renders. */
const renders = vi.hoisted(() => ({ count: 0 }));
vi.mock('@react-email/components', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@react-email/components')>();
  return {
    ...actual,
    render: (...args: Parameters<typeof actual.render>) => {
      renders.count += 1;
      return actual.render(...args);
    },
  };
});

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

describe('rendering many donor emails at once', () => {
  // Values that could tell a shared layout from the email's own render: markup, entities,
  // quotes, emoji and other scripts, combining marks, line breaks, whitespace at the ends or
  // doubled, Unicode spaces, empty values, a lone surrogate, braces, a javascript: URL, and a
  // text longer than the preheader's 150 characters.
  const hostile = [
    '<b>Bold</b> & "co"',
    `O'Brien`,
    '😀 Zoë 李 محمد',
    'e\u0301 \u202Eright-to-left',
    'line one\nline two',
    '  padded  ',
    '',
    'two  spaces',
    'tab\there',
    '\u00A0nbsp\u2028',
    '\uD800lone',
    '{{donor_first_name}}',
    'javascript:alert(1)',
    'https://evil.example/?q=<x>&y="z"',
    `${'Long '.repeat(40)}end`,
    'Ana María',
    'x',
  ];
  const everywhere = Object.fromEntries(
    templateTextFields.map((field) => [
      field,
      `${field}: ${templateVariables.map((v, i) => (i % 2 ? `{{${v}}}` : `{{ ${v} }}`)).join(' / ')}`,
    ]),
  ) as TemplateTexts;
  // A text that holds the batch's token marks itself: its emails are rendered one by one.
  const marked = {
    ...shippedTemplates[23],
    greeting: 'Hi {{donor_first_name}} \uE000donor_last_name\uE001,',
  };
  const templates = [...Object.values(shippedTemplates), everywhere, marked];
  const link = (kind: string, n: number) => `https://portal.test/api/email/${kind}?t=${n}.${kind}.sig-_`;

  /** Donor n of a batch: every variable and per-email link from the hostile list, shifted by n. */
  const donor = (n: number, texts: TemplateTexts, stage: TemplateStage): DonorEmailInput => {
    const base = input({ texts, stage });
    const pick = (j: number) => hostile[(n + j) % hostile.length] as string;
    const values = { ...base.values };
    templateVariables.forEach((name, j) => {
      values[name] = n % 3 === 0 ? `${values[name]} ${n}` : pick(j);
    });
    if (n % 4 === 0) values.receiving_org_logo = 'https://cdn.test/logo.png?a=1&b=2';
    // The batch's own token marks in a value: that email is rendered on its own.
    if (n % 9 === 4) values.campaign_msg = '\uE000donor_first_name\uE001';
    const odd = n % 5 === 0;
    return {
      ...base,
      to: `donor${n}@example.org`,
      values,
      links: {
        confirm: odd ? pick(30) : link('confirm', n),
        decline: n % 7 === 0 ? null : link('decline', n),
        sign: n % 2 ? link('sign', n) : null,
        unsubscribe: odd ? pick(31) : link('unsubscribe', n),
        faq: `https://portal.test/portal/faq?di=${n}&de=donor${n}%40example.org&cn=${encodeURIComponent(pick(3).replace(/[\uD800-\uDFFF]/g, '?'))}`,
        companyUrl: n % 6 === 0 ? pick(32) : 'https://example.com/give?a=1&b="2"',
        companyGuide: n % 2 ? pick(33) : null,
        openPixel: n % 8 === 0 ? null : `https://portal.test/api/notification/open.gif?t=tok${n}`,
      },
    };
  };

  /** Donors whose values differ only in what may stand behind a token (lengths differ too). */
  const ordinary = (n: number, texts: TemplateTexts, stage: TemplateStage): DonorEmailInput => {
    const base = donor(0, texts, stage);
    const values = { ...base.values };
    for (const name of templateVariables)
      if (name !== 'receiving_org_logo') values[name] = `${name}${'x'.repeat(n * 7)} "${n}" <&> 😀`;
    return {
      ...base,
      values,
      links: {
        ...base.links,
        confirm: link('confirm', n),
        unsubscribe: link('unsubscribe', n),
        faq: `https://portal.test/portal/faq?di=${n}`,
      },
    };
  };

  it('gives byte for byte the emails rendered one by one, whatever the values hold', async () => {
    const inputs = templates.flatMap((texts) =>
      ([1, 2, 3] as const).flatMap((stage) => [
        ...Array.from({ length: hostile.length + 2 }, (_, n) => donor(n, texts, stage)),
        ...Array.from({ length: 4 }, (_, n) => ordinary(n, texts, stage)),
      ]),
    );
    const oneByOne = await Promise.all(inputs.map((i) => renderDonorEmail(i)));
    const together = await renderDonorEmails(inputs);
    expect(together).toHaveLength(inputs.length);
    together.forEach((mail, i) => {
      expect(mail).toEqual(oneByOne[i]);
    });
  });

  it('lets the event loop in while a large batch renders (no gap between timer ticks near the whole batch)', async () => {
    // Distinct layouts (each donor's own values in its texts): every email a React render of its own.
    const inputs = Array.from({ length: 600 }, (_, n) =>
      donor(n, templates[n % templates.length] as TemplateTexts, 1),
    );
    // Warm (the first render loads and compiles the layout's modules).
    await renderDonorEmails(inputs.slice(0, 20));
    let last = performance.now();
    let longestGap = 0;
    const ticking = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const together = await renderDonorEmails(inputs);
    const took = performance.now() - started;
    clearInterval(ticking);
    longestGap = Math.max(longestGap, performance.now() - last);
    expect(together).toHaveLength(inputs.length);
    // The batch takes about a second; no tick waited more than a small part of it (rendered all
    // at once, the first tick came after the whole batch).
    expect(took).toBeGreaterThan(100);
    expect(longestGap).toBeLessThan(took / 4);
  });

  it('renders the layout of one template once for many donors, each email with its own values', async () => {
    const inputs = Array.from({ length: 40 }, (_, n) => ({
      ...input({ texts: shippedTemplates[23] }),
      to: `donor${n}@example.org`,
      values: {
        ...input().values,
        donor_first_name: `Donor${n}<&>"'`,
        donor_full_name: `Donor${n} 😀 Example`,
        donation_transaction_id: `TX-${n}`,
      },
      links: {
        ...input().links,
        confirm: link('confirm', n),
        decline: link('decline', n),
        unsubscribe: link('unsubscribe', n),
        faq: `https://portal.test/portal/faq?di=${n}&de=donor${n}%40example.org`,
        openPixel: `https://portal.test/api/notification/open.gif?t=tok${n}`,
      },
    }));
    renders.count = 0;
    const together = await renderDonorEmails(inputs);
    expect(renders.count).toBe(1);
    renders.count = 0;
    const oneByOne = await Promise.all(inputs.map((i) => renderDonorEmail(i)));
    expect(renders.count).toBe(inputs.length);
    expect(together).toEqual(oneByOne);
    expect(together[7]?.html).toContain('Hi Donor7&lt;&amp;&gt;&quot;&#x27;,');
    expect(together[7]?.html).toContain('open.gif?t=tok7');
  });
});
