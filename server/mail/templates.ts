/** A rendered email: what the outbox stores and the transport sends. */
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where replies go instead of the sender (e.g. a contact form message: its author). */
  replyTo?: string | undefined;
};

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => escapes[ch] ?? ch);
}

type Layout = {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footnote: string;
  supportEmail: string;
};

/** One simple, inline-styled layout (mail clients ignore stylesheets), with a plain-text twin. */
function render(layout: Layout): MailMessage {
  const p = 'margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2937;';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(layout.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;">
<tr><td style="padding:32px;">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#0f766e;">Twofold</p>
<p style="${p}">${escapeHtml(layout.greeting)}</p>
${layout.paragraphs.map((text) => `<p style="${p}">${escapeHtml(text)}</p>`).join('\n')}
<p style="margin:24px 0;"><a href="${escapeHtml(layout.action.url)}" style="display:inline-block;padding:12px 20px;background:#0f766e;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">${escapeHtml(layout.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#6b7280;">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(layout.action.url)}" style="color:#0f766e;word-break:break-all;">${escapeHtml(layout.action.url)}</a></p>
<p style="margin:0;font-size:13px;line-height:1.5;color:#6b7280;">${escapeHtml(layout.footnote)} Questions? Write to <a href="mailto:${escapeHtml(layout.supportEmail)}" style="color:#0f766e;">${escapeHtml(layout.supportEmail)}</a>.</p>
</td></tr></table>
</body></html>`;
  const text = [
    layout.greeting,
    '',
    ...layout.paragraphs.flatMap((t) => [t, '']),
    `${layout.action.label}: ${layout.action.url}`,
    '',
    `${layout.footnote} Questions? Write to ${layout.supportEmail}.`,
    '',
    '— Twofold',
  ].join('\n');
  return { to: layout.to, subject: layout.subject, html, text };
}

type Recipient = { to: string; name: string; supportEmail: string };

export function magicLinkMail(r: Recipient & { url: string; minutes: number }): MailMessage {
  return render({
    to: r.to,
    subject: 'Your Twofold sign-in link',
    greeting: `Hello ${r.name},`,
    paragraphs: [
      'Use the button below to sign in to the Twofold portal. No password needed.',
      `The link works once and expires in ${r.minutes} minutes.`,
    ],
    action: { label: 'Sign in to Twofold', url: r.url },
    footnote: 'If you did not ask to sign in, you can ignore this email.',
    supportEmail: r.supportEmail,
  });
}

export function passwordResetMail(r: Recipient & { url: string; minutes: number }): MailMessage {
  return render({
    to: r.to,
    subject: 'Reset your Twofold password',
    greeting: `Hello ${r.name},`,
    paragraphs: [
      'Someone (hopefully you) asked to reset the password of your Twofold account.',
      `Choose a new password with the button below. The link works once and expires in ${r.minutes} minutes.`,
    ],
    action: { label: 'Reset password', url: r.url },
    footnote: 'If you did not ask for this, ignore this email: your password stays as it is.',
    supportEmail: r.supportEmail,
  });
}

/** An invitation to an organization: the new user sets a password through the link. */
export function invitationMail(
  r: Recipient & { url: string; organizationName: string; invitedBy: string; days: number },
): MailMessage {
  return render({
    to: r.to,
    subject: `You have been added to ${r.organizationName} on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `${r.invitedBy} added you to ${r.organizationName} on Twofold, the portal where your organization tracks employer gift matching.`,
      `Create your password with the button below. The link works once and expires in ${r.days} days.`,
    ],
    action: { label: 'Create your password', url: r.url },
    footnote: 'If you were not expecting this, you can ignore this email.',
    supportEmail: r.supportEmail,
  });
}

/**
 * An invitation to an existing account: its owner accepts through the link, or nothing changes.
 * (A new account gets `invitationMail`, which sets a password instead.)
 */
export function organizationInvitationMail(
  r: Recipient & { url: string; organizationName: string; invitedBy: string; level: string; days: number },
): MailMessage {
  return render({
    to: r.to,
    subject: `${r.invitedBy} invited you to ${r.organizationName} on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `${r.invitedBy} invited you to join ${r.organizationName} on Twofold, the portal where your organization tracks employer gift matching, with ${r.level} access.`,
      `You are added only if you accept, with the button below. The link works once and expires in ${r.days} days.`,
    ],
    action: { label: 'Accept the invitation', url: r.url },
    footnote: 'If you do not want to join, ignore this email: nothing changes without your acceptance.',
    supportEmail: r.supportEmail,
  });
}

/** After registration: the administrative contact creates a password through the link. */
export function registrationMail(
  r: Recipient & { url: string; organizationName: string; days: number },
): MailMessage {
  return render({
    to: r.to,
    subject: `${r.organizationName} is registered on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `Thank you for registering ${r.organizationName} on Twofold, the portal where your organization tracks employer gift matching. You are its administrator.`,
      `Create your password with the button below. The link works once and expires in ${r.days} days.`,
    ],
    action: { label: 'Create your password', url: r.url },
    footnote: 'If you did not register this organization, please tell us.',
    supportEmail: r.supportEmail,
  });
}

/** After registration, for a contact who already has a password: nothing to create, just sign in. */
export function registrationSignInMail(
  r: Recipient & { url: string; organizationName: string },
): MailMessage {
  return render({
    to: r.to,
    subject: `${r.organizationName} is registered on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `Thank you for registering ${r.organizationName} on Twofold. You are its administrator.`,
      'You already have a Twofold account: sign in with your usual password and choose the organization in the portal.',
    ],
    action: { label: 'Sign in to Twofold', url: r.url },
    footnote: 'If you did not register this organization, please tell us.',
    supportEmail: r.supportEmail,
  });
}

/** A contact form message, delivered to the support address; replies go to its author. */
export function contactMail(m: {
  to: string;
  name: string;
  email: string;
  organization: string;
  subject: string;
  message: string;
}): MailMessage {
  const subject = `Contact form: ${m.subject}`;
  const lines = [`From: ${m.name} <${m.email}>`, `Organization: ${m.organization}`, `Subject: ${m.subject}`];
  const p = 'margin:0 0 12px;font-size:15px;line-height:1.5;color:#1f2937;';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
${lines.map((line) => `<p style="${p}">${escapeHtml(line)}</p>`).join('\n')}
<p style="${p}white-space:pre-wrap;">${escapeHtml(m.message)}</p>
</body></html>`;
  const text = [...lines, '', m.message].join('\n');
  return { to: m.to, subject, html, text, replyTo: m.email };
}

/** The donor link (GET /api/auth/otp with a donor-match-update redirect): edit one's match request. */
export function donorLinkMail(
  r: Recipient & { organization: string; url: string; hours: number },
): MailMessage {
  return render({
    to: r.to,
    subject: `Edit your match request for ${r.organization}`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `You asked to correct your employer match request for your gift to ${r.organization}.`,
      'Use the button below to update your name, email or employer. The amount of your gift stays as it is.',
      `The link works once and expires in ${r.hours} hours.`,
    ],
    action: { label: 'Edit your match request', url: r.url },
    footnote: 'If you did not ask for this link, you can ignore this email; nothing changes.',
    supportEmail: r.supportEmail,
  });
}

/** What a donor match email says: the facts of one match, with the links it offers. */
export type DonorMatchFacts = {
  to: string;
  /** The donor's name as the nonprofit has it (the first word greets them). */
  donorName: string | null;
  organizationName: string;
  /** The employer: the catalogue company, else the name the donor typed; null when none. */
  companyName: string | null;
  /** The company's matching portal or guide (catalogue facts), when known. */
  companyUrl: string | null;
  companyGuide: string | null;
  minimumMatchCents: number | null;
  maximumMatchCents: number | null;
  amountCents: number;
  donatedAt: Date;
  /** The estimated match (0 when the gift will not be matched). */
  matchedCents: number;
  /** The public FAQ for this match, from where the donor can get a link to correct the request. */
  faqUrl: string;
  supportEmail: string;
};

/** The statuses a donor is emailed about (see server/modules/notifications/notifications.service.ts). */
export type DonorMatchStatus = 5 | 6 | 7 | 8 | 9 | 10 | 11 | 15 | 19 | 23 | 24;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usd = (cents: number) => money.format(cents / 100);
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

type DonorContent = {
  subject: string;
  paragraphs: string[];
  /** Numbered steps, each a title and its text. */
  steps: Array<{ title: string; text: string }>;
  action: { label: string; url: string } | null;
};

/** spec (section 3, Email template, variables): donor_first_name, receiving_org_name, matching_employer_name, … */
function donorContent(status: DonorMatchStatus, f: DonorMatchFacts): DonorContent {
  const org = f.organizationName;
  const company = f.companyName ?? 'your employer';
  const gift = `your gift of ${usd(f.amountCents)} on ${longDate.format(f.donatedAt)}`;
  const estimate = f.matchedCents > 0 ? ` ${company} could add about ${usd(f.matchedCents)} to it.` : '';
  const where = f.companyUrl ? { label: `Open ${company}'s matching gift site`, url: f.companyUrl } : null;
  const guide = f.companyGuide ? [f.companyGuide] : [];
  const correct = { label: 'Correct your match request', url: f.faqUrl };
  const wrongEmployer = `If ${company} is not your employer, correct your match request with the link below.`;
  switch (status) {
    case 5:
      return {
        subject: `Sign ${company}'s matching gift form for your gift to ${org}`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.${estimate}`,
          `${company} asks donors to sign its matching gift form online. You will receive the form by email shortly: please watch your inbox (and spam folder) and sign it.`,
          ...guide,
        ],
        steps: [
          { title: 'Watch for the form', text: 'It arrives by email from the e-signature service.' },
          { title: 'Sign it', text: 'It takes a minute; we handle the rest with your company.' },
        ],
        action: where,
      };
    case 6:
      return {
        subject: `${company} needs your signature to match your gift to ${org}`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.${estimate}`,
          `${company} accepts only an original, hand-signed matching gift form. ${org} will prepare the form; please sign it and return it as its instructions say.`,
          ...guide,
        ],
        steps: [],
        action: where,
      };
    case 7:
      return {
        subject: `Double your gift to ${org}: submit it in ${company}'s portal`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.${estimate}`,
          `${company} matches gifts that employees submit in its giving portal. It only takes a few minutes.`,
          ...guide,
        ],
        steps: [
          {
            title: `Sign in to ${company}'s giving portal`,
            text: f.companyUrl ?? 'Your HR or benefits site links to it.',
          },
          {
            title: 'Submit your gift for a match',
            text: `Choose ${org} and enter ${usd(f.amountCents)} given on ${longDate.format(f.donatedAt)}.`,
          },
        ],
        action: where,
      };
    case 8:
      return {
        subject: `Double your gift to ${org}: let ${company} know`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.${estimate}`,
          `${company} matches gifts when employees tell it about them. Please let your matching gift or HR team know about your gift to ${org}; we take it from there.`,
          ...guide,
        ],
        steps: [
          {
            title: `Contact ${company}`,
            text: 'Your matching gift or HR team, by email or through its site.',
          },
          {
            title: 'Tell them about your gift',
            text: `${usd(f.amountCents)} to ${org} on ${longDate.format(f.donatedAt)}.`,
          },
        ],
        action: where,
      };
    case 9:
      return {
        subject: `Help us find ${company}'s matching gift policy`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          `We do not yet know how ${company} matches gifts. If you know (your HR or benefits site usually says), please ask your matching gift team how to submit your gift to ${org}.`,
          wrongEmployer,
        ],
        steps: [],
        action: correct,
      };
    case 10:
      return {
        subject: `Your gift to ${org} is below ${company}'s matching minimum`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          `${company} matches gifts of ${f.minimumMatchCents === null ? 'a minimum amount' : `at least ${usd(f.minimumMatchCents)}`}, so this gift cannot be matched on its own. If you give again to ${org}, your gifts may be combined to reach the minimum.`,
          wrongEmployer,
        ],
        steps: [],
        action: correct,
      };
    case 11:
      return {
        subject: `${company} does not match gifts to ${org}`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          `${company}'s matching gift policy does not cover organizations like ${org}, so this gift cannot be matched. Your support means a great deal all the same.`,
          wrongEmployer,
        ],
        steps: [],
        action: correct,
      };
    case 15:
      return {
        subject: `${company} matches gifts made through its own giving site`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          `${company} only matches gifts made through its own giving site, so this gift cannot be matched. If you give to ${org} through ${company}'s site next time, your gift can be matched.`,
        ],
        steps: [],
        action: where ?? correct,
      };
    case 19:
      return {
        subject: `We could not find a matching gift program at ${company}`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          `As far as we know, ${company} has no matching gift program. If it does, or if you work somewhere else, please correct your match request.`,
        ],
        steps: [],
        action: correct,
      };
    case 23:
      return {
        subject: `Where do you work? Your gift to ${org} could be matched`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.`,
          'Many employers match their employees\u2019 gifts. Tell us where you work and we will find out whether your gift can be matched.',
        ],
        steps: [],
        action: { label: 'Add your employer', url: f.faqUrl },
      };
    case 24:
      return {
        subject: `Would you like ${company} to match your gift to ${org}?`,
        paragraphs: [
          `Thank you for ${gift} to ${org}.${estimate}`,
          `${org} can ask ${company} to match your gift. Review your match request and confirm your employer to go ahead; if you would rather not, you need not do anything.`,
        ],
        steps: [],
        action: { label: 'Review your match request', url: f.faqUrl },
      };
  }
}

/**
 * The email to a donor about their match: what their company needs from them, per status.
 * `openPixelUrl`, when given, adds the open-tracking image (left out of the copy kept for preview).
 */
export function donorMatchMail(
  status: DonorMatchStatus,
  facts: DonorMatchFacts,
  openPixelUrl?: string,
): MailMessage {
  const content = donorContent(status, facts);
  const firstName = facts.donorName?.trim().split(/\s+/)[0];
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const footnote = `You receive this email because you gave to ${facts.organizationName}. Questions? Visit the FAQ: ${facts.faqUrl}`;
  const p = 'margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2937;';
  const small = 'margin:0 0 8px;font-size:13px;line-height:1.5;color:#6b7280;';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;">
<tr><td style="padding:32px;">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#0f766e;">${escapeHtml(facts.organizationName)}</p>
<p style="${p}">${escapeHtml(greeting)}</p>
${content.paragraphs.map((text) => `<p style="${p}">${escapeHtml(text)}</p>`).join('\n')}
${
  content.steps.length > 0
    ? `<ol style="margin:0 0 16px;padding-left:24px;font-size:16px;line-height:1.5;color:#1f2937;">${content.steps
        .map(
          (s) =>
            `<li style="margin:0 0 8px;"><strong>${escapeHtml(s.title)}</strong><br>${escapeHtml(s.text)}</li>`,
        )
        .join('')}</ol>`
    : ''
}
${
  content.action
    ? `<p style="margin:24px 0;"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;background:#0f766e;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">${escapeHtml(content.action.label)}</a></p>
<p style="${small}">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:#0f766e;word-break:break-all;">${escapeHtml(content.action.url)}</a></p>`
    : ''
}
<p style="${p}">Thank you,<br>${escapeHtml(facts.organizationName)}</p>
<p style="${small}">You receive this email because you gave to ${escapeHtml(facts.organizationName)}. Questions? Read the <a href="${escapeHtml(facts.faqUrl)}" style="color:#0f766e;">matching gift FAQ</a> or write to <a href="mailto:${escapeHtml(facts.supportEmail)}" style="color:#0f766e;">${escapeHtml(facts.supportEmail)}</a>.</p>
</td></tr></table>${openPixelUrl ? `\n<img src="${escapeHtml(openPixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;">` : ''}
</body></html>`;
  const text = [
    greeting,
    '',
    ...content.paragraphs.flatMap((t) => [t, '']),
    ...content.steps.flatMap((s, i) => [`${i + 1}. ${s.title}: ${s.text}`]),
    ...(content.steps.length > 0 ? [''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    'Thank you,',
    facts.organizationName,
    '',
    `${footnote} — or write to ${facts.supportEmail}.`,
  ].join('\n');
  return { to: facts.to, subject: content.subject, html, text };
}
