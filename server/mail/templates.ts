import { renderActionEmail, renderLinesEmail } from './staff-email.tsx';

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

type Recipient = { to: string; name: string; supportEmail: string };

export async function magicLinkMail(r: Recipient & { url: string; minutes: number }): Promise<MailMessage> {
  return renderActionEmail({
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

export async function passwordResetMail(
  r: Recipient & { url: string; minutes: number },
): Promise<MailMessage> {
  return renderActionEmail({
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

/**
 * Issue #24: an admin (or a super user) reset the member's second factor; their sessions ended. The
 * member signs in again with a password or a magic link, and sets up a new one on their account page.
 */
export async function twoFactorResetMail(
  r: Recipient & { by: string; organization: string | null; url: string },
): Promise<MailMessage> {
  return renderActionEmail({
    to: r.to,
    subject: 'Your Twofold two-factor sign-in was reset',
    greeting: `Hello ${r.name},`,
    paragraphs: [
      r.organization
        ? `${r.by}, an administrator of ${r.organization}, reset the two-factor sign-in of your Twofold account: your authenticator app and recovery codes were removed, and you were signed out everywhere.`
        : `${r.by}, a Twofold administrator, reset the two-factor sign-in of your Twofold account: your authenticator app and recovery codes were removed, and you were signed out everywhere.`,
      'Sign in again and set up a new authenticator app in the Security section of your account.',
    ],
    action: { label: 'Sign in to Twofold', url: r.url },
    footnote:
      'If you did not ask for this, tell your organization’s administrator or Twofold support at once.',
    supportEmail: r.supportEmail,
  });
}

/** An invitation to an organization: the new user sets a password through the link. */
export async function invitationMail(
  r: Recipient & { url: string; organizationName: string; invitedBy: string; days: number },
): Promise<MailMessage> {
  return renderActionEmail({
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
export async function organizationInvitationMail(
  r: Recipient & { url: string; organizationName: string; invitedBy: string; level: string; days: number },
): Promise<MailMessage> {
  return renderActionEmail({
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
export async function registrationMail(
  r: Recipient & { url: string; organizationName: string; days: number },
): Promise<MailMessage> {
  return renderActionEmail({
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
export async function registrationConfirmMail(
  r: Recipient & { url: string; organizationName: string; days: number },
): Promise<MailMessage> {
  return renderActionEmail({
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
export async function contactMail(m: {
  to: string;
  name: string;
  email: string;
  organization: string;
  subject: string;
  message: string;
}): Promise<MailMessage> {
  const subject = `Contact form: ${m.subject}`;
  const lines = [`From: ${m.name} <${m.email}>`, `Organization: ${m.organization}`, `Subject: ${m.subject}`];
  const mail = await renderLinesEmail({
    to: m.to,
    subject,
    lines,
    preformatted: m.message,
    text: [...lines, '', m.message].join('\n'),
  });
  return { ...mail, replyTo: m.email };
}

/** The donor link (GET /api/auth/otp with a donor-match-update redirect): edit one's match request. */
export async function donorLinkMail(
  r: Recipient & { organization: string; url: string; hours: number },
): Promise<MailMessage> {
  return renderActionEmail({
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
export async function actionDigestMail(r: {
  to: string;
  organizationName: string;
  /** Lines such as "4 matches to verify or sign (NPO to Verify/Sign)". */
  items: string[];
  url: string;
  /** The button's text (default: the donations list). */
  actionLabel?: string;
  supportEmail: string;
}): Promise<MailMessage> {
  return renderActionEmail({
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

/**
 * To an organization's admins when its verified sending domain stopped verifying (the daily
 * check found the DKIM record gone or changed): donor emails went back to the platform address.
 */
export async function sendingDomainLostMail(
  r: Recipient & {
    organizationName: string;
    domain: string;
    recordName: string;
    problem: string;
    url: string;
  },
): Promise<MailMessage> {
  return renderActionEmail({
    to: r.to,
    subject: `Donor emails for ${r.organizationName} no longer go from ${r.domain}`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `Twofold checked the DNS records of ${r.domain} and the DKIM record ${r.recordName} is ${r.problem}.`,
      `Until it is back, donor emails for ${r.organizationName} go from Twofold's address, with your address as Reply-To, so they keep being delivered.`,
      'Publish the record again as shown on the Email Templates screen, then choose Verify.',
    ],
    action: { label: 'Open the sender settings', url: r.url },
    footnote: 'You receive this because you are an admin of the organization on Twofold.',
    supportEmail: r.supportEmail,
  });
}

/** Single sign-on (issue #24): someone's first sign-in through the provider waits for an admin. */
export async function ssoJoinRequestMail(
  r: Recipient & { url: string; organizationName: string; requester: string; provider: string },
): Promise<MailMessage> {
  return renderActionEmail({
    to: r.to,
    subject: `${r.requester} asks to join ${r.organizationName} on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `${r.requester} signed in to Twofold with ${r.provider} for the first time and asks to join ${r.organizationName}.`,
      'Approve the request with the level they should have, or decline it, on the Single sign-on tab.',
    ],
    action: { label: 'Review the request', url: r.url },
    footnote: 'You receive this as an administrator of the organization.',
    supportEmail: r.supportEmail,
  });
}

/** Single sign-on (issue #24): an admin approved someone's first sign-in. */
export async function ssoJoinApprovedMail(
  r: Recipient & { url: string; organizationName: string; provider: string; level: string },
): Promise<MailMessage> {
  return renderActionEmail({
    to: r.to,
    subject: `You can now sign in to ${r.organizationName} on Twofold`,
    greeting: `Hello ${r.name},`,
    paragraphs: [
      `An administrator of ${r.organizationName} approved your access, with ${r.level} access.`,
      `Sign in with ${r.provider} from the sign-in page.`,
    ],
    action: { label: 'Sign in', url: r.url },
    footnote: 'If you were not expecting this, you can ignore this email.',
    supportEmail: r.supportEmail,
  });
}
