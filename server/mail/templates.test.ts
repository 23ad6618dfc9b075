import { describe, expect, it } from 'vitest';
import { deliveryEmail } from '../modules/esign/esign.service.ts';
import { actionPage } from '../modules/templates/actions.ts';
import {
  actionDigestMail,
  contactMail,
  donorLinkMail,
  invitationMail,
  magicLinkMail,
  organizationInvitationMail,
  passwordResetMail,
  registrationConfirmMail,
  registrationMail,
} from './templates.ts';

// A name a person can type into a form: markup, both quotes and an ampersand.
const hostile = `<script>alert("x")</script> O'Neil & "Co"`;
const url = 'http://portal.test/portal/login?magic=abc&x="y"';
const common = { to: 'x@example.org', name: hostile, supportEmail: 'support@twofold.test', url };
const organization = { organizationName: hostile, days: 7 };

/** Every staff and system email, each given the hostile text wherever a person's words go. */
const emails = {
  magicLink: () => magicLinkMail({ ...common, minutes: 15 }),
  passwordReset: () => passwordResetMail({ ...common, minutes: 60 }),
  invitation: () => invitationMail({ ...common, ...organization, invitedBy: hostile }),
  organizationInvitation: () =>
    organizationInvitationMail({ ...common, ...organization, invitedBy: hostile, level: 'write' }),
  registration: () => registrationMail({ ...common, ...organization }),
  registrationConfirm: () => registrationConfirmMail({ ...common, ...organization }),
  donorLink: () => donorLinkMail({ ...common, organization: hostile, hours: 24 }),
  digest: () =>
    actionDigestMail({
      to: 'x@example.org',
      organizationName: hostile,
      items: [`3 matches of ${hostile}`],
      url,
      supportEmail: 'support@twofold.test',
    }),
  contact: () =>
    contactMail({
      to: 'support@twofold.test',
      name: hostile,
      email: 'visitor@example.org',
      organization: hostile,
      subject: hostile,
      message: `${hostile}\nsecond line`,
    }),
  esignDelivery: () =>
    deliveryEmail(
      'forms@example.org',
      {
        donationId: 41,
        transactionId: null,
        donatedAt: new Date('2026-02-01T12:00:00Z'),
        amountCents: 25_000,
        matchedCents: 0,
        donor: { name: hostile, email: 'donor@example.org' },
        organization: { name: hostile, ein: null, address: [hostile], email: null },
        company: { name: 'Acme', method: 'esign', guide: null },
      },
      41,
    ),
};

describe('staff and system emails (React Email)', () => {
  for (const [name, make] of Object.entries(emails))
    it(`${name}: a hostile name arrives escaped in the HTML and readable in the plain-text part`, async () => {
      const mail = await make();
      // Rendered by React Email, as the donor emails are (its XHTML doctype and Apple's
      // reformatting opt-out), never assembled from HTML strings.
      expect(mail.html.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"')).toBe(
        true,
      );
      expect(mail.html).toContain('<meta name="x-apple-disable-message-reformatting"/>');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).not.toContain('"Co"');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(mail.text.length).toBeGreaterThan(0);
      expect(mail.text).toContain(hostile);
      expect(mail.text).not.toContain('&lt;');
    });

  it('puts the link in an attribute escaped, and spelled out in the text', async () => {
    const mail = await magicLinkMail({ ...common, minutes: 15 });
    expect(mail.html).toContain('href="http://portal.test/portal/login?magic=abc&amp;x=&quot;y&quot;"');
    expect(mail.text).toContain(`Sign in to Twofold: ${url}`);
    expect(mail.text).toContain('expires in 15 minutes');
  });

  it('word the reset and invitation mails for what they do', async () => {
    const reset = await passwordResetMail({ ...common, name: 'Ann', minutes: 60 });
    expect(reset.subject).toBe('Reset your Twofold password');
    expect(reset.text).toContain('expires in 60 minutes');
    const invite = await invitationMail({
      ...common,
      name: 'Ann',
      organizationName: 'Maple Street PTA',
      invitedBy: 'Alex Morgan',
      days: 7,
    });
    expect(invite.subject).toBe('You have been added to Maple Street PTA on Twofold');
    expect(invite.text).toContain('Alex Morgan added you to Maple Street PTA');
  });

  it("keeps a contact message's line breaks and answers its author", async () => {
    const mail = await emails.contact();
    expect(mail.replyTo).toBe('visitor@example.org');
    expect(mail.html).toContain('white-space:pre-wrap');
    expect(mail.text).toContain('second line');
  });
});

describe("an email link's page", () => {
  it('escapes its title, message and form', () => {
    const page = actionPage({ title: hostile, message: hostile, form: { action: url, label: hostile } });
    expect(page).not.toContain('<script');
    expect(page).toContain('<h1>&lt;script&gt;');
    expect(page).toContain('action="http://portal.test/portal/login?magic=abc&amp;x=&quot;y&quot;"');
  });
});
