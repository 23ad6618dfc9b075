import type { TemplateTexts, TemplateTypeId } from '../../../src/contract/email-templates.ts';

/**
 * The shipped Default version of every template type: what an organization that changed nothing
 * sends. Texts use the spec's variables (section 3); the renderer escapes what they expand to.
 *
 * Field sets: subject1/preheader1/header1/paragraph_one_1 are the initial email, ...2 the 1st
 * reminder and ...3 the 2nd (only 6, 7, 8 and 25 have reminders). The step buttons are the
 * email's signed links: step one's button confirms ("I've done it": Donor Engaged), step two's
 * declines (Donor Declined). A template whose donor has nothing to do leaves both buttons empty,
 * and the email shows no steps.
 */
const blank: TemplateTexts = {
  subject1: '',
  subject2: '',
  subject3: '',
  preheader1: '',
  preheader2: '',
  preheader3: '',
  header1: '',
  header2: '',
  header3: '',
  greeting: 'Hi {{donor_first_name}},',
  paragraph_one_1: '',
  paragraph_one_2: '',
  paragraph_one_3: '',
  paragraph_two: '',
  paragraph_three: '',
  salutation: 'With gratitude,\n{{receiving_org_name}}',
  step_one_title: '',
  step_one_text: '',
  step_one_note: '',
  step_one_btn: '',
  step_two_title: '',
  step_two_text: '',
  step_two_note: '',
  step_two_btn: '',
};

const declineStep = {
  step_two_title: 'Not able to?',
  step_two_text: 'No problem. Let us know and we will stop reminding you about this gift.',
  step_two_note: '',
  step_two_btn: "I won't be submitting",
};

const t = (texts: Partial<TemplateTexts>): TemplateTexts => ({ ...blank, ...texts });

export const shippedTemplates: Record<TemplateTypeId, TemplateTexts> = {
  6: t({
    subject1: '{{matching_employer_name}} needs your signature to match your gift',
    subject2: 'Reminder: sign your matching gift form for {{receiving_org_name}}',
    subject3: 'Last reminder: your matching gift form for {{receiving_org_name}}',
    preheader1: 'Your employer accepts only an original, hand-signed form.',
    preheader2: 'One signature doubles your gift.',
    preheader3: 'Your signature is all that is missing.',
    header1: 'One signature doubles your gift',
    header2: 'Have you signed the form yet?',
    header3: 'Your match is waiting on your signature',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} accepts only an original, hand-signed matching gift form, so {{receiving_org_name}} will send you the form to sign.',
    paragraph_one_2:
      'A few days ago we let you know that {{matching_employer_name}} can match your gift to {{receiving_org_name}} once you sign its form. Have you had a chance to sign it?',
    paragraph_one_3:
      'This is our last reminder: {{matching_employer_name}} will match your gift to {{receiving_org_name}} once you sign and return its form.',
    paragraph_two: 'Sign the form and return it as its instructions say. It takes a minute.',
    step_one_title: 'Sign and return the form',
    step_one_text: 'Then tell us, so we stop reminding you.',
    step_one_btn: "I've done it",
    ...declineStep,
  }),
  7: t({
    subject1: 'Double your gift to {{receiving_org_name}}',
    subject2: 'Reminder: {{matching_employer_name}} can match your gift',
    subject3: 'Last chance to double your gift to {{receiving_org_name}}',
    preheader1: '{{matching_employer_name}} matches gifts submitted in its giving portal.',
    preheader2: 'It only takes a few minutes in {{matching_employer_name}}’s portal.',
    preheader3: 'Your gift can still be matched.',
    header1: 'Your gift can be doubled',
    header2: 'Have you submitted your match?',
    header3: 'Don’t leave matching dollars behind',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. Good news: {{matching_employer_name}} matches gifts that employees submit in its giving portal ({{matching_employer_vendor}}).',
    paragraph_one_2:
      'A few days ago we let you know that {{matching_employer_name}} can match your gift to {{receiving_org_name}}. Submitting it in the company’s giving portal takes only a few minutes.',
    paragraph_one_3:
      'This is our last reminder: {{matching_employer_name}} will match your gift to {{receiving_org_name}} once you submit it in its giving portal.',
    paragraph_two:
      'Sign in to {{matching_employer_name}}’s giving portal, choose {{receiving_org_name}} (EIN {{receiving_org_ein}}) and enter your gift.',
    paragraph_three: 'Questions about the portal? {{matching_employer_contact_email}} can help.',
    step_one_title: 'Submit your gift in the portal',
    step_one_text: 'Then tell us, so we stop reminding you.',
    step_one_btn: "I've done it",
    ...declineStep,
  }),
  8: t({
    subject1: 'Double your gift to {{receiving_org_name}}: let {{matching_employer_name}} know',
    subject2: 'Reminder: tell {{matching_employer_name}} about your gift',
    subject3: 'Last reminder: your gift to {{receiving_org_name}} can be matched',
    preheader1: '{{matching_employer_name}} matches gifts when employees tell it about them.',
    preheader2: 'A short email to your matching gift team doubles your gift.',
    preheader3: 'Your gift can still be matched.',
    header1: 'Your gift can be doubled',
    header2: 'Have you told your employer?',
    header3: 'Don’t leave matching dollars behind',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} matches gifts when employees let its matching gift team know.',
    paragraph_one_2:
      'A few days ago we let you know that {{matching_employer_name}} can match your gift to {{receiving_org_name}}. A short email to its matching gift team is all it takes.',
    paragraph_one_3:
      'This is our last reminder: {{matching_employer_name}} will match your gift to {{receiving_org_name}} once you tell its matching gift team about it.',
    paragraph_two:
      // {{matching_employer_contact_email}} already reads "your matching gift or HR team" when the
      // company names no address, so the sentence adds no alternative of its own.
      'Email {{matching_employer_contact_email}} about your gift to {{receiving_org_name}} (EIN {{receiving_org_ein}}, transaction {{donation_transaction_id}}).',
    step_one_title: 'Tell your matching gift team',
    step_one_text: 'Then tell us, so we stop reminding you.',
    step_one_btn: "I've done it",
    ...declineStep,
  }),
  9: t({
    subject1: 'Help us find {{matching_employer_name}}’s matching gift policy',
    preheader1: 'Your gift may be matched: we need a little more about the policy.',
    header1: 'Your gift may be matched',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. We do not yet know enough about how {{matching_employer_name}} matches gifts. {{missing_policy_block}}',
    paragraph_two:
      'Your HR or benefits site usually says how to submit a matching gift. If you find out, please submit your gift to {{receiving_org_name}} (EIN {{receiving_org_ein}}).',
  }),
  10: t({
    subject1: 'Your gift to {{receiving_org_name}} is below {{matching_employer_name}}’s minimum',
    preheader1: 'Give again and your gifts may be combined to reach it.',
    header1: 'Almost there',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} matches gifts of at least {{matching_employer_min_match}}, so this gift cannot be matched on its own.',
    paragraph_two:
      'If you give again to {{receiving_org_name}}, we combine your gifts into one match request once they reach the minimum.',
  }),
  11: t({
    subject1: '{{matching_employer_name}} does not match gifts to {{receiving_org_name}}',
    preheader1: 'Your support means a great deal all the same.',
    header1: 'Thank you for your support',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}}’s matching gift policy does not cover organizations like {{receiving_org_name}}, so this gift cannot be matched.',
    paragraph_two: 'Your support means a great deal all the same.',
  }),
  15: t({
    subject1: '{{matching_employer_name}} matches gifts made through its own giving site',
    preheader1: 'Next time, give through your company’s site to have your gift matched.',
    header1: 'Thank you for your gift',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} only matches gifts made through its own giving site, so this gift cannot be matched.',
    paragraph_two:
      'If you give to {{receiving_org_name}} through {{matching_employer_name}}’s giving site next time, your gift can be matched.',
  }),
  19: t({
    subject1: 'We could not find a matching gift program at {{matching_employer_name}}',
    preheader1: 'If your employer does match gifts, let us know.',
    header1: 'Thank you for your gift',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. As far as we know, {{matching_employer_name}} has no matching gift program.',
    paragraph_two: 'If it does, or if you work somewhere else, please correct your match request.',
  }),
  23: t({
    subject1: 'Where do you work? Your gift to {{receiving_org_name}} could be matched',
    preheader1: 'Many employers match their employees’ gifts.',
    header1: 'Your gift could be doubled',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. Many employers match their employees’ gifts.',
    paragraph_two: 'Tell us where you work and we will find out whether your gift can be matched.',
  }),
  24: t({
    subject1: 'Would you like {{matching_employer_name}} to match your gift to {{receiving_org_name}}?',
    preheader1: 'Confirm and we take it from there.',
    header1: 'Your gift can be matched',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{receiving_org_name}} can ask {{matching_employer_name}} to match your gift.',
    paragraph_two: 'Confirm below to go ahead; if you would rather not, let us know.',
    step_one_title: 'Yes, match my gift',
    step_one_text: '{{receiving_org_name}} takes it from there.',
    step_one_btn: 'Match my gift',
    step_two_title: 'No, thank you',
    step_two_text: 'We will not ask {{matching_employer_name}} to match this gift.',
    step_two_btn: 'No, thank you',
  }),
  25: t({
    subject1: 'Sign {{matching_employer_name}}’s matching gift form for your gift to {{receiving_org_name}}',
    subject2: 'Reminder: your matching gift form is waiting for your signature',
    subject3: 'Last reminder: sign your matching gift form',
    preheader1: 'Your form is filled in: review it and sign online in a minute.',
    preheader2: 'One signature doubles your gift.',
    preheader3: 'Your signature is all that is missing.',
    header1: 'One signature doubles your gift',
    header2: 'Have you signed the form yet?',
    header3: 'Your match is waiting on your signature',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} asks donors to sign its matching gift form. We have filled it in with your gift’s details: review it and sign online with the button below.',
    paragraph_one_2:
      'A few days ago we sent you {{matching_employer_name}}’s matching gift form to sign online. Have you had a chance to sign it?',
    paragraph_one_3:
      'This is our last reminder: {{matching_employer_name}} will match your gift to {{receiving_org_name}} once you sign its form.',
    paragraph_two:
      'Signing takes a minute; {{receiving_org_name}} countersigns it and sends it to your company.',
    step_one_title: 'Review and sign the form',
    step_one_text: 'You can type your name or draw your signature, on your phone or computer.',
    step_one_note: 'The link works once and for 14 days; an expired link lets you ask for a new one.',
    step_one_btn: 'Review and sign',
    ...declineStep,
  }),
  /**
   * Match Deadline Approaching. Its second field set is the 'Match About to Expire' email sent a
   * week before the deadline (spec section 9); the editor shows no reminder tabs for it, as the
   * spec says, so only the API changes those texts.
   */
  102: t({
    subject1: 'The deadline to match your gift to {{receiving_org_name}} is approaching',
    subject2: 'Match About to Expire: your gift to {{receiving_org_name}}',
    preheader1: '{{matching_employer_name}} accepts match requests for a limited time.',
    preheader2: 'One week left to have your gift matched.',
    header1: 'Your match deadline is approaching',
    header2: 'Match About to Expire',
    paragraph_one_1:
      'Thank you for your gift to {{receiving_org_name}} on {{donation_date}}. {{matching_employer_name}} accepts match requests for a limited time, and the deadline for this gift is less than three weeks away.',
    paragraph_one_2:
      'The deadline to have {{matching_employer_name}} match your gift to {{receiving_org_name}} is one week away. After it, the gift can no longer be matched.',
    paragraph_two: 'Submit your gift for a match before the deadline and let us know.',
    step_one_title: 'Submit before the deadline',
    step_one_text: 'Then tell us, so we stop reminding you.',
    step_one_btn: "I've done it",
    ...declineStep,
  }),
};

/** The template type of a match's status: 5 (Donor to E-Sign Form) uses the e-sign template 25. */
export function templateTypeOfStatus(statusId: number): TemplateTypeId | null {
  if (statusId === 5) return 25;
  return (Object.hasOwn(shippedTemplates, statusId) ? statusId : null) as TemplateTypeId | null;
}
