import { describe, expect, it } from 'vitest';
import { invitationMail, magicLinkMail, passwordResetMail } from './templates.ts';

describe('mail templates', () => {
  it('escape names and links in the HTML and keep them readable in the text', () => {
    const mail = magicLinkMail({
      to: 'x@example.org',
      name: '<script>alert(1)</script>',
      supportEmail: 'support@twofold.test',
      url: 'http://portal.test/portal/login?magic=abc&x="y"',
      minutes: 15,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('href="http://portal.test/portal/login?magic=abc&amp;x=&quot;y&quot;"');
    expect(mail.text).toContain('Hello <script>alert(1)</script>,');
    expect(mail.text).toContain('Sign in to Twofold: http://portal.test/portal/login?magic=abc&x="y"');
    expect(mail.text).toContain('expires in 15 minutes');
  });

  it('word the reset and invitation mails for what they do', () => {
    const reset = passwordResetMail({
      to: 'a@b.co',
      name: 'Ann',
      supportEmail: 's@t.co',
      url: 'http://x/r',
      minutes: 60,
    });
    expect(reset.subject).toBe('Reset your Twofold password');
    expect(reset.text).toContain('expires in 60 minutes');
    const invite = invitationMail({
      to: 'a@b.co',
      name: 'Ann',
      supportEmail: 's@t.co',
      url: 'http://x/set',
      organizationName: 'Maple Street PTA',
      invitedBy: 'Alex Morgan',
      days: 7,
    });
    expect(invite.subject).toBe('You have been added to Maple Street PTA on Twofold');
    expect(invite.text).toContain('Alex Morgan added you to Maple Street PTA');
  });
});
