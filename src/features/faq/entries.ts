import { donorMatchUpdatePath } from '../../contract/donor-paths.ts';
import { isEmailAddress } from '../../contract/email.ts';
/**
 * The public FAQ's content and its selection rule (spec, part 2, section 2, Public FAQ). Pure: no
 * DOM, no React, so the rule is unit-tested on its own and the element only renders what it gets.
 */

/** spec: "vr or apex selects a partner type." */
export const partnerTypes = ['vr', 'apex'] as const;
export type PartnerType = (typeof partnerTypes)[number];

/** spec: "portal, esign (or paper), contact (manual) or direct selects the matching process type." */
export const processTypes = ['portal', 'esign', 'contact', 'direct'] as const;
export type ProcessType = (typeof processTypes)[number];

/** The words that select a process type; paper and manual are other names for esign and contact. */
const processAliases: Readonly<Record<string, ProcessType>> = {
  portal: 'portal',
  esign: 'esign',
  paper: 'esign',
  contact: 'contact',
  manual: 'contact',
  direct: 'direct',
};

/** spec: "Shown: entries of type general plus those matching the partner type or process type." */
export type EntryType = 'general' | PartnerType | ProcessType;

/** What the page was opened with, after parsing. */
export interface FaqChoices {
  partner: PartnerType | null;
  process: ProcessType | null;
  /** The company's name (cn), or null when none was given. */
  company: string | null;
  /** The donor's match id and email (di, de): both present and well formed, or null. */
  donor: { matchId: string; email: string } | null;
}

/** spec: "cn: a company name shown as a badge (default 'General')". */
export const defaultCompanyBadge = 'General';

/** spec (section 2), word for word. */
export const faqTexts = {
  title: 'Frequently Asked Questions',
  subtitle: (company: string) => `Guidance for donors and nonprofits working with ${company}`,
  /** Where the spec is silent: the subtitle without a company name. */
  subtitleWithoutCompany: 'employer matching gift programs',
  selfServiceLink: 'Email me a secure link to correct my match request',
  selfServiceSending: 'Sending your link...',
  selfServiceSent: (email: string) =>
    `We sent a secure link to ${email}. Open it to correct your match request.`,
} as const;

/** Text a company name may carry: printable, trimmed, at most 120 characters. */
export function cleanCompanyName(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, 120) : null;
}

/**
 * A match id as the server knows one: a whole number from 1 to 2,147,483,647. Anything else
 * would reach GET /api/auth/otp as a staff redirect, and the donor would get no donor link.
 */
export function cleanMatchId(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const id = value.trim();
  return /^[1-9][0-9]{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? id : null;
}

/** A donor email good enough to ask for a link with (the server checks it properly). */
export function cleanEmail(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  return email.length <= 255 && isEmailAddress(email) ? email : null;
}

/** A query flag counts when present, unless it says no ('?vr=0', '?vr=false'). */
function flagSet(params: URLSearchParams, name: string): boolean {
  if (!params.has(name)) return false;
  const value = (params.get(name) ?? '').trim().toLowerCase();
  return value !== '0' && value !== 'false' && value !== 'no';
}

/** A partner named directly (an attribute's value). */
export function toPartner(value: string | null | undefined): PartnerType | null {
  const word = value?.trim().toLowerCase() ?? '';
  return (partnerTypes as readonly string[]).includes(word) ? (word as PartnerType) : null;
}

/** A process type named directly (an attribute's value): paper means esign, manual means contact. */
export function toProcess(value: string | null | undefined): ProcessType | null {
  const word = value?.trim().toLowerCase() ?? '';
  return Object.hasOwn(processAliases, word) ? (processAliases[word] ?? null) : null;
}

/**
 * The choices in a query string (spec: vr, apex, portal, esign, paper, contact, manual, direct,
 * cn, di, de). When several partner or process words are present, the first in the address wins.
 */
export function choicesFromQuery(search: string | URLSearchParams): FaqChoices {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  let partner: PartnerType | null = null;
  let process: ProcessType | null = null;
  for (const key of params.keys()) {
    const word = key.toLowerCase();
    if (!partner && toPartner(word) && flagSet(params, key)) partner = toPartner(word);
    if (!process && toProcess(word) && flagSet(params, key)) process = toProcess(word);
  }
  return {
    partner,
    process,
    company: cleanCompanyName(params.get('cn')),
    donor: donorOf(params.get('di'), params.get('de')),
  };
}

/** spec: "di (donor match id) and de (donor email) together enable a self-service link." */
export function donorOf(matchId: string | null | undefined, email: string | null | undefined) {
  const id = cleanMatchId(matchId);
  const address = cleanEmail(email);
  return id && address ? { matchId: id, email: address } : null;
}

/** Attributes set on the element, each falling back to the page's query string when absent. */
export interface FaqAttributes {
  partner?: string | null;
  process?: string | null;
  company?: string | null;
  matchId?: string | null;
  donorEmail?: string | null;
}

const given = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** The element's choices: an attribute that is set wins; one that is not falls back to the query. */
export function resolveChoices(attributes: FaqAttributes, search: string): FaqChoices {
  const query = choicesFromQuery(search);
  const donorGiven = given(attributes.matchId) || given(attributes.donorEmail);
  return {
    partner: given(attributes.partner) ? toPartner(attributes.partner) : query.partner,
    process: given(attributes.process) ? toProcess(attributes.process) : query.process,
    company: given(attributes.company) ? cleanCompanyName(attributes.company) : query.company,
    // The pair travels together: mixing an attribute's id with the address's email is never right.
    donor: donorGiven ? donorOf(attributes.matchId, attributes.donorEmail) : query.donor,
  };
}

/** The parts of an answer: paragraphs, and a list where steps read better as steps. */
export type AnswerBlock = { kind: 'p'; text: string } | { kind: 'list'; items: string[] };

export interface FaqEntry {
  id: string;
  type: EntryType;
  question: string;
  answer: AnswerBlock[];
  /** The entry that offers the donor's self-service link when di and de are present. */
  selfService?: boolean;
}

const p = (text: string): AnswerBlock => ({ kind: 'p', text });
const list = (...items: string[]): AnswerBlock => ({ kind: 'list', items });

/** How an answer names the company: its name when the page was given one. */
function employerOf(choices: FaqChoices): string {
  return choices.company ?? 'your employer';
}

/** Every entry of the spec, in the spec's order, written for the given choices. */
export function allEntries(choices: FaqChoices): FaqEntry[] {
  const employer = employerOf(choices);
  const Employer = employer.charAt(0).toUpperCase() + employer.slice(1);
  return [
    {
      id: 'role',
      type: 'general',
      question: 'What is Twofold, and what does it do?',
      answer: [
        p(
          'Twofold helps nonprofits, schools and parent-teacher organizations get their donors’ gifts matched by the donors’ employers. When you give, Twofold looks up your employer’s matching gift program and tells you exactly what your company needs from you to match the gift.',
        ),
        p(
          'Twofold never handles donations or matching funds. Your gift goes straight to the nonprofit, and your employer pays its match directly to the nonprofit. Twofold keeps track of each match request so nothing falls through the cracks.',
        ),
        p(
          'For companies that use electronic signature, paper or mailed forms, Twofold fills in the forms with your gift’s details, and mails or emails them to your company for you.',
        ),
      ],
    },
    {
      id: 'vr-not-matched',
      // spec lists it without '(vr only)', unlike the two partner entries after it: a general entry.
      type: 'general',
      question: 'My company says it does not match gifts to Vertical Raise. What should I do?',
      answer: [
        p(
          'Vertical Raise is the fundraising platform your school or team used to collect donations; it is not the organization your gift supports. Your donation went to the school or its parent-teacher organization, which is the nonprofit your company can match.',
        ),
        p(
          'Companies often decline a request that names Vertical Raise because Vertical Raise is not a charity. Please resubmit your match request with the school’s (or parent-teacher organization’s) name and its EIN (tax ID) instead. If you do not have the EIN, ask the school’s office or the organizer of your fundraiser.',
        ),
      ],
    },
    {
      id: 'apex-role',
      type: 'apex',
      question: 'What is the role of Apex Leadership?',
      answer: [
        p(
          'Apex Leadership runs the school fundraising program (such as a fun run) that your gift was part of. Apex organizes the event and collects pledges on the school’s behalf.',
        ),
        p(
          'Your gift supports the school or its parent-teacher organization, and that organization is the one your employer matches. Twofold works with Apex Leadership to help you ask your employer for the match; Apex does not receive the matching funds.',
        ),
      ],
    },
    {
      id: 'vr-role',
      type: 'vr',
      question: 'What is the role of Vertical Raise?',
      answer: [
        p(
          'Vertical Raise is the online platform your school or team used to run its fundraiser and accept your donation. It processes the gift on behalf of the school or team’s nonprofit organization.',
        ),
        p(
          'The nonprofit, not Vertical Raise, is who your employer matches. Twofold works with Vertical Raise to help you request the match and to tell you what your company needs.',
        ),
      ],
    },
    {
      id: 'wrong-details',
      type: 'general',
      question: 'My name, email or company is wrong on my match request. How do I fix it?',
      selfService: true,
      answer: choices.donor
        ? [
            p(
              'You can correct your name, email address or company yourself. We will email a secure, one-time link to the address on your match request; open it to edit the request. The amount of your gift cannot be changed.',
            ),
          ]
        : [
            p(
              'Use the link in any of the emails Twofold sent you about your match request. It opens your request, where you can correct your name, email address or company. The amount of your gift cannot be changed.',
            ),
            p(
              'If you cannot find those emails, check your spam or promotions folder, or ask the nonprofit you gave to; they can correct the request for you.',
            ),
          ],
    },
    {
      id: 'company-not-listed',
      type: 'general',
      question: 'My company is not listed. What should I do?',
      answer: [
        p(
          'Choose “Other” in the company dropdown and type your company’s name. Companies are added automatically when donors name them, and our team reviews each new company to find its matching gift program and add its requirements.',
        ),
        p(
          'Once your company has been reviewed, you will get an email telling you how to request your match.',
        ),
      ],
    },
    {
      id: 'broken-link',
      type: 'general',
      question: 'The link in my matching email does not work. What should I do?',
      answer: [
        p(
          'Some email programs break long links or mark them as unsafe. Try copying the whole link and pasting it into your browser’s address bar, or open the email on another device or browser.',
        ),
        p(
          'Secure links work once and expire after a while. If the link has already been used or has expired, ask for a new one from the match request page, or contact the nonprofit you gave to and they can send you a fresh email.',
        ),
      ],
    },
    {
      id: 'confirm-received',
      type: 'general',
      question: 'Can you confirm that the matching dollars have been received?',
      answer: [
        p(
          'Not really. Twofold never handles the money: companies pay matching gifts directly to the nonprofit, and how they pay varies. Some send a check, some send an electronic transfer, and many pay through a giving platform that combines several gifts into a single payment.',
        ),
        p(
          'Because of this, a payment often cannot be traced back to one donor’s gift. Your employer’s giving portal or matching gift administrator can usually tell you whether your match was approved and paid.',
        ),
      ],
    },
    {
      id: 'how-portal',
      type: 'portal',
      question: `How does matching work with ${employer}?`,
      answer: [
        p(`${Employer} takes matching requests through an online giving portal.`),
        list(
          'Sign in to your company’s giving portal (the emails from Twofold include a link and any guide we have for it).',
          'Find the nonprofit you gave to and submit a match request with the date and amount of your gift.',
          'The nonprofit confirms that it received your gift, and your company pays the match through its portal.',
        ),
        p('Twofold reminds you if your request has not been submitted as the deadline comes closer.'),
      ],
    },
    {
      id: 'how-contact',
      type: 'contact',
      question: `How does matching work with ${employer}?`,
      answer: [
        p(
          `${Employer} handles matching requests by email or in person rather than through an online portal.`,
        ),
        list(
          'Contact your company’s matching gift administrator, usually in Human Resources or the community giving team.',
          'Tell them about your gift (the nonprofit, the date and the amount) and ask them to match it; a receipt from the nonprofit helps.',
          'Follow any instructions they give you. The nonprofit confirms the gift when your company asks.',
        ),
      ],
    },
    {
      id: 'how-esign',
      type: 'esign',
      question: `How does matching work with ${employer}?`,
      answer: [
        p(`${Employer} asks for a signed matching gift form, and Twofold prepares it for you.`),
        list(
          'Twofold fills in your company’s form with your gift’s details and the nonprofit’s information.',
          'You get an email asking you to review and sign the form electronically; it takes a minute.',
          'Twofold sends the signed form to your company by email or mail, and your company pays the match to the nonprofit.',
        ),
      ],
    },
    {
      id: 'how-direct',
      type: 'direct',
      question: `How does matching work with ${employer}?`,
      answer: [
        p(
          `${Employer} lets the nonprofit request the match directly, so there is usually nothing you need to do.`,
        ),
        list(
          'The nonprofit submits the match request to your company with your gift’s details.',
          'Your company may ask you to confirm the gift; if it does, just follow the link in its email.',
          'Your company pays the match to the nonprofit once it has verified the gift.',
        ),
      ],
    },
    {
      id: 'below-minimum',
      type: 'general',
      question: 'My donation is below my company’s minimum. Can it still be matched?',
      answer: [
        p(
          'Many companies only match gifts above a minimum amount. If your gift is below it, you can give again to the same nonprofit: Twofold automatically merges your gifts to the same nonprofit that are below the minimum, so that together they can reach it and be matched as one request.',
        ),
      ],
    },
    {
      id: 'child-credit',
      type: 'general',
      question: 'Will my child (or my child’s class) get credit for the matching gift?',
      answer: [
        p(
          'Probably not. Companies pay matching gifts to the organization as a whole, usually weeks or months later, and the payment rarely names the donor or the student. Most fundraisers count only the original gift toward a student’s or class’s total.',
        ),
        p('Your match still adds to what the school or organization receives, so it helps everyone.'),
      ],
    },
    {
      id: 'deadline',
      type: 'general',
      question: 'Is there a deadline to request a match?',
      answer: [
        p(
          'Most companies have one, often the end of the year of the gift or a set number of months after it. Check your company’s matching gift guidelines to be sure.',
        ),
        p(
          'Twofold keeps an eye on it for you: if your match request has not progressed, a “Match About to Expire” email goes out a week before the deadline.',
        ),
      ],
    },
    {
      id: 'payout-date',
      type: 'general',
      question: 'When will the matching gift be paid?',
      answer: [
        p(
          'It varies by company. Some pay monthly, some quarterly, and some once a year. Payments typically arrive a few weeks to a few months after the match is approved.',
        ),
      ],
    },
  ];
}

/**
 * spec: "Shown: entries of type general plus those matching the partner type or process type."
 * The spec's order is kept.
 */
export function selectEntries(choices: FaqChoices): FaqEntry[] {
  return allEntries(choices).filter(
    (entry) => entry.type === 'general' || entry.type === choices.partner || entry.type === choices.process,
  );
}

/** The badge text: the company's name, or 'General'. */
export function companyBadge(choices: FaqChoices): string {
  return choices.company ?? defaultCompanyBadge;
}

/** The subtitle under the title. */
export function subtitleOf(choices: FaqChoices): string {
  return faqTexts.subtitle(choices.company ?? faqTexts.subtitleWithoutCompany);
}

/**
 * Where the donor goes after asking for the link: the hosted portal's donor page, under
 * `portalBase` (an origin, optionally with a path prefix).
 */
export function donorPageUrl(portalBase: string, matchId: string): string {
  return `${portalBase.replace(/\/+$/, '')}${donorMatchUpdatePath(matchId)}`;
}
