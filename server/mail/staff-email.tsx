import {
  Body,
  Button,
  Container,
  Head,
  Html,
  Link,
  Preview,
  render,
  Section,
  Text,
} from '@react-email/components';
import type { MailMessage } from './templates.ts';

/*
 * The staff and system emails (sign-in, invitations, registration, the donor link, the weekly
 * digest, contact messages, signed packets to companies) on the same path as the donor emails:
 * React Email components rendered by React, which escapes every value it is given. No email is
 * assembled from HTML strings, so a name such as `<script>` or `"` can only ever read as text.
 */

const font = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const styles = {
  body: { margin: 0, padding: '24px', backgroundColor: '#f3f4f6', fontFamily: font },
  container: {
    maxWidth: '560px',
    margin: '0 auto',
    backgroundColor: '#ffffff',
    borderRadius: '8px',
    padding: '32px',
  },
  brand: { margin: '0 0 24px', fontSize: '20px', fontWeight: 700, color: '#0f766e' },
  p: { margin: '0 0 16px', fontSize: '16px', lineHeight: '1.5', color: '#1f2937' },
  compact: { margin: '0 0 12px', fontSize: '15px', lineHeight: '1.5', color: '#1f2937' },
  button: {
    display: 'inline-block',
    padding: '12px 20px',
    backgroundColor: '#0f766e',
    color: '#ffffff',
    textDecoration: 'none',
    borderRadius: '6px',
    fontWeight: 600,
  },
  small: { margin: '0 0 16px', fontSize: '13px', lineHeight: '1.5', color: '#6b7280' },
  link: { color: '#0f766e', wordBreak: 'break-all' },
} as const;

/** A message with one action: greeting, paragraphs, a button, the link spelled out, a footnote. */
export type ActionLayout = {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footnote: string;
  supportEmail: string;
};

function ActionEmail({ layout }: { layout: ActionLayout }) {
  return (
    <Html lang="en">
      <Head>
        <title>{layout.subject}</title>
      </Head>
      <Preview>{layout.paragraphs[0] ?? layout.subject}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text style={styles.brand}>Twofold</Text>
          <Text style={styles.p}>{layout.greeting}</Text>
          {layout.paragraphs.map((text, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one fixed message
            <Text key={i} style={styles.p}>
              {text}
            </Text>
          ))}
          <Section style={{ margin: '24px 0' }}>
            <Button href={layout.action.url} style={styles.button}>
              {layout.action.label}
            </Button>
          </Section>
          <Text style={styles.small}>
            If the button does not work, copy this address into your browser:
            <br />
            <Link href={layout.action.url} style={styles.link}>
              {layout.action.url}
            </Link>
          </Text>
          <Text style={{ ...styles.small, margin: 0 }}>
            {layout.footnote} Questions? Write to{' '}
            <Link href={`mailto:${layout.supportEmail}`} style={styles.link}>
              {layout.supportEmail}
            </Link>
            .
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Plain lines of text, one paragraph each, and an optional last line in small print. */
function LinesEmail({
  subject,
  lines,
  preformatted,
  small,
}: {
  subject: string;
  lines: string[];
  /** A visitor's message: its line breaks kept. */
  preformatted?: string;
  small?: string;
}) {
  return (
    <Html lang="en">
      <Head>
        <title>{subject}</title>
      </Head>
      <Body style={styles.body}>
        <Container style={styles.container}>
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed message
            <Text key={i} style={styles.compact}>
              {line}
            </Text>
          ))}
          {preformatted !== undefined ? (
            <Text style={{ ...styles.compact, whiteSpace: 'pre-wrap' }}>{preformatted}</Text>
          ) : null}
          {small ? <Text style={{ ...styles.small, margin: 0 }}>{small}</Text> : null}
        </Container>
      </Body>
    </Html>
  );
}

/** React 19 adds preload links for images: meaningless in an email (as in donor-email.tsx). */
const withoutPreloads = (html: string) => html.replace(/<link rel="preload" as="image"[^>]*\/>/g, '');

/** An action email, with its plain-text twin. */
export async function renderActionEmail(layout: ActionLayout): Promise<MailMessage> {
  const html = withoutPreloads(await render(<ActionEmail layout={layout} />));
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

/** A lines email (a contact message, a packet's cover note), with its plain-text twin. */
export async function renderLinesEmail(m: {
  to: string;
  subject: string;
  lines: string[];
  preformatted?: string;
  small?: string;
  /** The plain text, when it is laid out otherwise than one line per paragraph. */
  text: string;
}): Promise<MailMessage> {
  const html = withoutPreloads(
    await render(
      <LinesEmail
        subject={m.subject}
        lines={m.lines}
        {...(m.preformatted !== undefined ? { preformatted: m.preformatted } : {})}
        {...(m.small ? { small: m.small } : {})}
      />,
    ),
  );
  return { to: m.to, subject: m.subject, html, text: m.text };
}
