/** A rendered email: what the outbox stores and the transport sends. */
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where replies go instead of the sender (e.g. a contact form message: its author). */
  replyTo?: string | undefined;
  /** Extra headers: a donor email's List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string> | undefined;
  /** Files sent with it (the worker reads them from file storage: see OutboxAttachment). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }> | undefined;
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

/**
 * After a registration naming an existing account as the contact: the registration form is public,
 * so the account's owner confirms before becoming the organization's administrator.
 */
export function registrationConfirmMail(
  r: Recipient & { url: string; organizationName: string; days: number },
): MailMessage {
  return render({
    to: r.to,
    subject: `Confirm that you registered ${r.organizationName} on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `${r.organizationName} was registered on Twofold, the portal where your organization tracks employer gift matching, with your email as its administrative contact.`,
      `You already have a Twofold account. You become the organization's administrator only if you confirm, with the button below. The link works once and expires in ${r.days} days.`,
    ],
    action: { label: 'Confirm and sign in', url: r.url },
    footnote:
      'If you did not register this organization, ignore this email: nothing is added to your account without your confirmation.',
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

/**
 * The weekly notification email to an organization's notification emails and primary contact:
 * what needs the nonprofit's action, with counts and a link to the donations list.
 */
export function actionDigestMail(r: {
  to: string;
  organizationName: string;
  /** Lines such as "4 matches to verify or sign (NPO to Verify/Sign)". */
  items: string[];
  url: string;
  /** The button's text (default: the donations list). */
  actionLabel?: string;
  supportEmail: string;
}): MailMessage {
  return render({
    to: r.to,
    subject: `${r.organizationName}: matches waiting for your action`,
    greeting: 'Hello,',
    paragraphs: [
      `These match requests of ${r.organizationName} are waiting for your action on Twofold:`,
      ...r.items.map((item) => `• ${item}`),
    ],
    action: { label: r.actionLabel ?? 'Open the donations list', url: r.url },
    footnote:
      'You receive this summary at most once a week as a notification email or primary contact of the organization.',
    supportEmail: r.supportEmail,
  });
}
