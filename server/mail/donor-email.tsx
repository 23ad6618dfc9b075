import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  render,
  Section,
  Text,
} from '@react-email/components';
import type { ReactNode } from 'react';
import type { TemplateStage, TemplateTexts, TemplateVariable } from '../../src/contract/email-templates.ts';
import { yieldingMapAsync } from '../jobs/yielding.ts';
import type { MailMessage } from './templates.ts';

/** The value of every variable for one email (spec section 3), as plain text. */
export type VariableValues = Record<TemplateVariable, string>;

/** Where a donor email's links point. */
export type DonorEmailLinks = {
  /** The signed links of the two step buttons (absent: no steps are shown). */
  confirm: string | null;
  decline: string | null;
  /**
   * The donor's signing page (a match at Donor to E-Sign Form): step one's button opens it
   * instead of confirming, since signing is the step.
   */
  sign?: string | null | undefined;
  /** The one-click unsubscribe link (also the List-Unsubscribe header). */
  unsubscribe: string;
  /** The public FAQ for this match (correcting the request, how matching works). */
  faq: string;
  /** The employer's matching gift site and guide, when the catalogue knows them. */
  companyUrl: string | null;
  companyGuide?: string | null | undefined;
  /** The open-tracking image; absent from the copy kept for the portal's preview. */
  openPixel: string | null;
};

export type DonorEmailInput = {
  to: string;
  texts: TemplateTexts;
  stage: TemplateStage;
  values: VariableValues;
  links: DonorEmailLinks;
  supportEmail: string;
};

/**
 * Replaces `{{ variable }}` with its value. The result is plain text: React escapes it when it
 * renders, so a donor named `<b>` reads as `<b>`, never as markup. An unknown name (saving
 * refuses them; a shipped text never has one) becomes empty.
 */
export function fillVariables(text: string, values: Partial<Record<string, string>>): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

const font = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const styles = {
  body: { margin: 0, padding: '24px 0', backgroundColor: '#f3f4f6', fontFamily: font },
  container: { maxWidth: '560px', margin: '0 auto', backgroundColor: '#ffffff', padding: '32px' },
  org: { margin: '0 0 16px', fontSize: '14px', fontWeight: 700, color: '#0f766e' },
  header: { margin: '0 0 16px', fontSize: '22px', lineHeight: '1.3', color: '#111827' },
  p: { margin: '0 0 16px', fontSize: '16px', lineHeight: '1.5', color: '#1f2937' },
  step: { margin: '0 0 20px', padding: '16px', backgroundColor: '#f9fafb', borderRadius: '6px' },
  stepTitle: { margin: '0 0 4px', fontSize: '16px', fontWeight: 700, color: '#111827' },
  note: { margin: '8px 0 0', fontSize: '13px', lineHeight: '1.5', color: '#6b7280' },
  primary: {
    backgroundColor: '#0f766e',
    color: '#ffffff',
    padding: '12px 20px',
    borderRadius: '6px',
    fontWeight: 600,
    textDecoration: 'none',
  },
  secondary: {
    backgroundColor: '#ffffff',
    color: '#0f766e',
    border: '1px solid #0f766e',
    padding: '11px 19px',
    borderRadius: '6px',
    fontWeight: 600,
    textDecoration: 'none',
  },
  small: { margin: '0 0 8px', fontSize: '13px', lineHeight: '1.5', color: '#6b7280' },
  link: { color: '#0f766e' },
} as const;

/** Keeps the line breaks of a text (a salutation's "With gratitude,\n{{org}}"). */
function Lines({ text }: { text: string }): ReactNode {
  const lines = text.split('\n');
  return lines.map((line, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed text
    <span key={i}>
      {line}
      {i < lines.length - 1 ? <br /> : null}
    </span>
  ));
}

type Content = {
  subject: string;
  preheader: string;
  header: string;
  greeting: string;
  paragraphs: string[];
  steps: Array<{ title: string; text: string; note: string; button: string; url: string; primary: boolean }>;
  salutation: string;
  orgName: string;
  logo: string;
};

/**
 * The match's campaign said in a sentence, after the first paragraph, when it has one and the
 * template's texts of this stage do not already use {{campaign_name}} or {{campaign_msg}}: the
 * shipped templates predate campaigns, and a donor whose gift is doubled by a match day should
 * hear of it whichever version is live.
 */
function campaignParagraph({ texts, stage, values }: DonorEmailInput): string {
  const name = values.campaign_name.trim();
  if (!name) return '';
  const used = [
    texts[`subject${stage}`],
    texts[`preheader${stage}`],
    texts[`header${stage}`],
    texts.greeting,
    texts[`paragraph_one_${stage}`],
    texts.paragraph_two,
    texts.paragraph_three,
    texts.salutation,
  ].some((t) => /\{\{\s*campaign_(name|msg)\s*\}\}/.test(t));
  if (used) return '';
  const message = values.campaign_msg.trim();
  return message ? `${name}: ${message}` : `Your gift is part of ${name}.`;
}

/** The texts of one stage with the variables filled in. */
function contentOf(input: DonorEmailInput): Content {
  const { texts, stage, values, links } = input;
  const fill = (t: string) => fillVariables(t, values).trim();
  const steps: Content['steps'] = [];
  if (links.confirm && texts.step_one_btn.trim())
    steps.push({
      title: fill(texts.step_one_title),
      text: fill(texts.step_one_text),
      note: fill(texts.step_one_note),
      button: fill(texts.step_one_btn),
      url: links.sign ?? links.confirm,
      primary: true,
    });
  if (links.decline && texts.step_two_btn.trim())
    steps.push({
      title: fill(texts.step_two_title),
      text: fill(texts.step_two_text),
      note: fill(texts.step_two_note),
      button: fill(texts.step_two_btn),
      url: links.decline,
      primary: false,
    });
  return {
    subject: fill(texts[`subject${stage}`]).replace(/\s+/g, ' ') || fill(texts.subject1),
    preheader: fill(texts[`preheader${stage}`]),
    header: fill(texts[`header${stage}`]),
    greeting: fill(texts.greeting),
    // spec: greeting, paragraphs two and three, salutation and steps are edited on the initial
    // tab only: every email of the sequence shares them; paragraph one is the stage's own.
    paragraphs: [
      fill(texts[`paragraph_one_${stage}`]),
      campaignParagraph(input),
      fill(texts.paragraph_two),
      fill(texts.paragraph_three),
    ].filter(Boolean),
    steps,
    salutation: fill(texts.salutation),
    orgName: values.receiving_org_name,
    logo: /^https?:\/\//.test(values.receiving_org_logo) ? values.receiving_org_logo : '',
  };
}

function DonorEmail({ c, input }: { c: Content; input: DonorEmailInput }) {
  const { links } = input;
  return (
    <Html lang="en">
      <Head>
        <title>{c.subject}</title>
      </Head>
      {c.preheader ? <Preview>{c.preheader}</Preview> : null}
      <Body style={styles.body}>
        <Container style={styles.container}>
          {c.logo ? (
            <Img src={c.logo} alt={c.orgName} height="48" style={{ margin: '0 0 16px' }} />
          ) : (
            <Text style={styles.org}>{c.orgName}</Text>
          )}
          {c.header ? (
            <Heading as="h1" style={styles.header}>
              {c.header}
            </Heading>
          ) : null}
          {c.greeting ? <Text style={styles.p}>{c.greeting}</Text> : null}
          {c.paragraphs.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one email
            <Text key={i} style={styles.p}>
              <Lines text={p} />
            </Text>
          ))}
          {links.companyUrl ? (
            <Text style={styles.p}>
              <Link href={links.companyUrl} style={styles.link}>
                Open {input.values.matching_employer_name || 'your employer'}'s matching gift site
              </Link>
            </Text>
          ) : null}
          {links.companyGuide ? <Text style={styles.p}>{links.companyGuide}</Text> : null}
          {c.steps.map((s) => (
            <Section key={s.url} style={styles.step}>
              {s.title ? <Text style={styles.stepTitle}>{s.title}</Text> : null}
              {s.text ? <Text style={{ ...styles.p, margin: '0 0 12px' }}>{s.text}</Text> : null}
              <Button href={s.url} style={s.primary ? styles.primary : styles.secondary}>
                {s.button}
              </Button>
              {s.note ? <Text style={styles.note}>{s.note}</Text> : null}
            </Section>
          ))}
          {c.salutation ? (
            <Text style={styles.p}>
              <Lines text={c.salutation} />
            </Text>
          ) : null}
          <Hr />
          <Text style={styles.small}>
            You receive this email because you gave to {c.orgName}. Wrong name, email or employer?{' '}
            <Link href={links.faq} style={styles.link}>
              Correct your match request or read the matching gift FAQ
            </Link>
            . Questions? Write to{' '}
            <Link href={`mailto:${input.supportEmail}`} style={styles.link}>
              {input.supportEmail}
            </Link>
            .
          </Text>
          <Text style={styles.small}>
            <Link href={links.unsubscribe} style={styles.link}>
              Unsubscribe
            </Link>{' '}
            from {c.orgName}’s matching gift emails.
          </Text>
        </Container>
        {links.openPixel ? (
          <Img src={links.openPixel} width="1" height="1" alt="" style={{ display: 'block', border: 0 }} />
        ) : null}
      </Body>
    </Html>
  );
}

/** The plain-text part: the same content, with every link written out. */
function plainText(c: Content, input: DonorEmailInput): string {
  const { links } = input;
  const lines: string[] = [];
  if (c.header) lines.push(c.header, '');
  if (c.greeting) lines.push(c.greeting, '');
  for (const p of c.paragraphs) lines.push(p, '');
  if (links.companyUrl)
    lines.push(
      `Open ${input.values.matching_employer_name || 'your employer'}'s matching gift site: ${links.companyUrl}`,
      '',
    );
  if (links.companyGuide) lines.push(links.companyGuide, '');
  for (const s of c.steps) {
    if (s.title) lines.push(s.title);
    if (s.text) lines.push(s.text);
    lines.push(`${s.button}: ${s.url}`);
    if (s.note) lines.push(s.note);
    lines.push('');
  }
  if (c.salutation) lines.push(c.salutation, '');
  lines.push(
    '--',
    `You receive this email because you gave to ${c.orgName}.`,
    `Wrong name, email or employer? Correct your match request or read the FAQ: ${links.faq}`,
    `Questions? Write to ${input.supportEmail}.`,
    `Unsubscribe from ${c.orgName}’s matching gift emails: ${links.unsubscribe}`,
  );
  return lines.join('\n');
}

/** The HTML of one email's content: the React Email layout, without React's image preloads. */
async function renderHtml(c: Content, input: DonorEmailInput): Promise<string> {
  // React 19 adds a preload <link> for every image: meaningless in an email, and it would load
  // the open-tracking image a second time.
  return (await render(<DonorEmail c={c} input={input} />)).replace(
    /<link rel="preload" as="image"[^>]*\/>/g,
    '',
  );
}

/** The message of an email whose content and HTML are made. */
function message(c: Content, input: DonorEmailInput, html: string): MailMessage {
  return {
    to: input.to,
    subject: c.subject,
    html,
    text: plainText(c, input),
    headers: {
      'List-Unsubscribe': `<${input.links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * The one rendering path of every donor email: a template version's texts for one stage, the
 * variables filled in and escaped, the React Email layout (table-based, inline styles: it holds
 * up in Gmail, Outlook and Apple Mail), a plain-text part, and one-click unsubscribe headers
 * (RFC 8058).
 */
export async function renderDonorEmail(input: DonorEmailInput): Promise<MailMessage> {
  const c = contentOf(input);
  return message(c, input, await renderHtml(c, input));
}

/*
 * Many emails at once (an import queues thousands, a day of reminders as many) share their layout:
 * they differ in the donor's and the match's values and in their links. Rendering React for each
 * is most of the cost, so `renderDonorEmails` renders each distinct email once with a token in
 * place of every such value, then writes each email's values into that HTML, escaped as React
 * escapes them. The subject and the plain-text part are made per email as `renderDonorEmail`
 * makes them (plain strings, cheap). The result is byte for byte what `renderDonorEmail` gives
 * (server/mail/donor-email.test.ts compares them), because a value only stands behind a token
 * when the layout cannot tell it from the token:
 * - React writes it only as escaped text or an attribute value (escapeTextForBrowser), never
 *   into a URL check (a link stands behind a token only when it starts with http(s)://, so React's
 *   javascript: guard leaves it alone) or a test of its content (the logo's http check is not
 *   tokenised);
 * - the layout's own string work treats both alike: the value is non-empty (an empty text hides
 *   its paragraph, heading or button), has no whitespace at its ends (trim), and none inside but
 *   single spaces (the subject's whitespace collapse, line breaks turned into <br/>);
 * - it is well-formed Unicode (the stream's UTF-8 encoding would replace a lone surrogate);
 * - the preheader is never tokenised: react-email's Preview cuts it at 150 characters and pads
 *   it by its length, so its text is part of what tells two layouts apart;
 * - no text of the email holds the token's private-use marks, so every mark in the HTML is a
 *   token (an email where one does is rendered on its own).
 */
const open = '\uE000';
const close = '\uE001';
const tokenOf = (name: string) => `${open}${name}${close}`;
const tokenPattern = /\uE000([A-Za-z_.]+)\uE001/g;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** React's escaping of text and attribute values (escapeTextForBrowser in react-dom/server). */
const reactEscapes: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
};
const escapeAsReact = (text: string) => text.replace(/["&'<>]/g, (ch) => reactEscapes[ch] ?? ch);

/** The layout cannot tell this value from a token (see above). */
const tokenisable = (value: string) => /^\S+(?: \S+)*$/.test(value) && !loneSurrogate.test(value);
/** The links made per email (signed actions, the FAQ and tracking image); the company's own stay literal. */
const tokenLinks = ['confirm', 'decline', 'sign', 'unsubscribe', 'faq', 'openPixel'] as const;
/** Variables the layout looks into (the logo must be an http(s) URL to show). */
const literalVariables: ReadonlySet<string> = new Set(['receiving_org_logo']);

const marked = (text: string) => /[\uE000\uE001]/.test(text);

/**
 * The same emails as `renderDonorEmail` gives one by one, in order, with React rendering each
 * distinct layout once (see above).
 */
export async function renderDonorEmails(inputs: readonly DonorEmailInput[]): Promise<MailMessage[]> {
  const layouts = new Map<string, Promise<string>>();
  // Each texts object of the batch once: a number naming it in layout keys, and whether it holds marks.
  const textsSeen = new Map<TemplateTexts, { id: number; marks: boolean }>();
  const textsInfo = (texts: TemplateTexts) => {
    let info = textsSeen.get(texts);
    if (!info) {
      info = { id: textsSeen.size, marks: marked(JSON.stringify(texts)) };
      textsSeen.set(texts, info);
    }
    return info;
  };
  // Eight at a time, giving the event loop back every 10 ms: thousands of renders started in one
  // Promise.all all ran in one turn of the event loop, which no request could get between.
  return yieldingMapAsync(inputs, async (input) => {
    const c = contentOf(input);
    const hasMarks =
      textsInfo(input.texts).marks ||
      marked(JSON.stringify([input.values, input.links, input.supportEmail, input.to]));
    if (hasMarks) return message(c, input, await renderHtml(c, input));
    const escaped = new Map<string, string>();
    const values = { ...input.values };
    for (const [name, value] of Object.entries(input.values) as Array<[keyof VariableValues, string]>)
      if (!literalVariables.has(name) && tokenisable(value)) {
        values[name] = tokenOf(name);
        escaped.set(name, escapeAsReact(value));
      }
    const links = { ...input.links };
    for (const name of tokenLinks) {
      const url = links[name];
      if (typeof url === 'string' && /^https?:\/\//i.test(url) && tokenisable(url)) {
        links[name] = tokenOf(`link.${name}`);
        escaped.set(`link.${name}`, escapeAsReact(url));
      }
    }
    // The same texts object, stage and literal values and links: the same layout (texts are
    // named by object, so equal texts in two objects only cost a second render).
    const key = JSON.stringify([
      textsInfo(input.texts).id,
      input.stage,
      values,
      links,
      input.supportEmail,
      c.preheader,
    ]);
    let layout = layouts.get(key);
    if (!layout) {
      const tokenInput = { ...input, values, links };
      layout = renderHtml({ ...contentOf(tokenInput), preheader: c.preheader }, tokenInput);
      layouts.set(key, layout);
    }
    const html = (await layout).replace(tokenPattern, (_, name: string) => {
      const value = escaped.get(name);
      if (value === undefined) throw new Error(`no value for the email token ${name}`);
      return value;
    });
    return message(c, input, html);
  });
}
