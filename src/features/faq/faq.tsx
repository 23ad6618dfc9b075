import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { errorMessage, getApiBase } from '../../api/client.ts';
import { requestDonorLink } from '../../api/donor-link.ts';
import { navigate } from '../../state/navigation.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import {
  type AnswerBlock,
  companyBadge,
  donorPageUrl,
  type FaqChoices,
  type FaqEntry,
  faqTexts,
  resolveChoices,
  selectEntries,
  subtitleOf,
} from './entries.ts';

/** What the host page hears when the donor's link was sent (before the page moves on). */
export interface DonorLinkSentDetail {
  matchId: string;
  /** Where the element is about to send the donor; `preventDefault()` keeps them on the page. */
  redirect: string;
}

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** The FAQ emailed the donor a one-time link to their match request. Cancelable. */
    'twofold-donor-link-sent': DonorLinkSentDetail;
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-donor-link-sent': TwofoldEvent<'twofold-donor-link-sent'>;
  }
}

export interface FaqProps {
  /** vr or apex; absent: the page's ?vr / ?apex. */
  partner?: string;
  /** portal, esign (paper), contact (manual) or direct; absent: the page's query. */
  process?: string;
  /** The company's name; absent: the page's ?cn. */
  company?: string;
  /** The donor's match id; with `donorEmail`, enables the self-service link. Absent: ?di. */
  matchId?: string;
  /** The donor's email; absent: ?de. */
  donorEmail?: string;
  /** Where the hosted portal lives (origin, optionally with a path). Default: the API's origin. */
  portalBase?: string;
}

/** The API's origin: where the hosted portal is unless `portal-base` says otherwise. */
function apiOrigin(): string {
  try {
    return new URL(getApiBase()).origin;
  } catch {
    return globalThis.location?.origin ?? '';
  }
}

/** spec (part 2, section 2, Public FAQ): title, logo strip, badge, subtitle and one-at-a-time entries. */
export function Faq({ partner, process, company, matchId, donorEmail, portalBase }: FaqProps) {
  const search = globalThis.location?.search ?? '';
  const choices = useMemo(
    () => resolveChoices({ partner, process, company, matchId, donorEmail }, search),
    [partner, process, company, matchId, donorEmail, search],
  );
  const entries = useMemo(() => selectEntries(choices), [choices]);
  const [openId, setOpenId] = useState<string | null>(null);
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  // WAI-ARIA accordion keys: arrows, Home and End move between the questions.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('.faq__toggle') ?? [])];
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    if (index < 0) return;
    const next = {
      ArrowDown: (index + 1) % buttons.length,
      ArrowUp: (index - 1 + buttons.length) % buttons.length,
      Home: 0,
      End: buttons.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    buttons[next]?.focus();
  };

  return (
    <article className="faq" part="faq">
      <header className="faq__header" part="header">
        <LogoStrip partner={choices.partner} />
        <div className="faq__heading">
          <h1 className="faq__title">{faqTexts.title}</h1>
          <span className="faq__badge" part="badge">
            <Badge variant="info">{companyBadge(choices)}</Badge>
          </span>
        </div>
        <p className="faq__subtitle muted">{subtitleOf(choices)}</p>
      </header>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys are handled for the buttons inside (accordion pattern). */}
      <div className="faq__entries" part="entries" ref={listRef} onKeyDown={onKeyDown}>
        {entries.map((entry) => {
          const open = entry.id === openId;
          const buttonId = `${baseId}-q-${entry.id}`;
          const panelId = `${baseId}-a-${entry.id}`;
          return (
            <div
              key={entry.id}
              className={open ? 'faq__entry faq__entry--open' : 'faq__entry'}
              part="entry"
              data-entry={entry.id}
            >
              <h2 className="faq__question">
                <button
                  type="button"
                  id={buttonId}
                  className="faq__toggle"
                  aria-expanded={open}
                  aria-controls={panelId}
                  onClick={() => setOpenId(open ? null : entry.id)}
                >
                  <span>{entry.question}</span>
                  <svg className="faq__chevron" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M5 7.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
                  </svg>
                </button>
              </h2>
              <section
                id={panelId}
                className="faq__answer"
                part="answer"
                aria-labelledby={buttonId}
                hidden={!open}
              >
                <Answer blocks={entry.answer} />
                {entry.selfService && choices.donor ? (
                  <DonorLink donor={choices.donor} portalBase={portalBase || apiOrigin()} />
                ) : null}
              </section>
            </div>
          );
        })}
      </div>
    </article>
  );
}

function Answer({ blocks }: { blocks: FaqEntry['answer'] }) {
  return blocks.map((block: AnswerBlock) =>
    block.kind === 'p' ? (
      <p key={block.text}>{block.text}</p>
    ) : (
      <ol key={block.items.join('\n')} className="faq__steps">
        {block.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ol>
    ),
  );
}

const partnerNames = { vr: 'Vertical Raise', apex: 'Apex Leadership' } as const;

/** spec: "a header logo strip": Twofold's mark, and the partner's when the page names one. */
function LogoStrip({ partner }: { partner: FaqChoices['partner'] }) {
  return (
    <div className="faq__logos" part="logo-strip">
      <span className="faq__logo">
        <svg className="faq__mark" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
          <rect width="40" height="40" rx="8" fill="var(--twofold-color-primary)" />
          <circle
            cx="16"
            cy="20"
            r="8"
            fill="none"
            stroke="var(--twofold-color-on-primary)"
            strokeWidth="3"
          />
          <circle
            cx="24"
            cy="20"
            r="8"
            fill="none"
            stroke="var(--twofold-color-on-primary)"
            strokeWidth="3"
            opacity="0.75"
          />
        </svg>
        <span className="faq__wordmark">Twofold</span>
      </span>
      {partner ? (
        <>
          <span className="faq__logo-separator" aria-hidden="true" />
          <span className="faq__logo faq__logo--partner">
            <span className="visually-hidden">{' in partnership with '}</span>
            {partnerNames[partner]}
          </span>
        </>
      ) : null}
    </div>
  );
}

type LinkState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'error'; message: string };

/**
 * spec: "if di and de are present, a link that emails the donor a one-time link and then redirects
 * to /donor-match-update/{di}" — the hosted portal's page, where the emailed link leads too.
 */
function DonorLink({ donor, portalBase }: { donor: NonNullable<FaqChoices['donor']>; portalBase: string }) {
  const { host } = useElement();
  const [state, setState] = useState<LinkState>({ kind: 'idle' });

  const send = async () => {
    setState({ kind: 'sending' });
    try {
      await requestDonorLink(donor.email, donor.matchId);
    } catch (error) {
      setState({ kind: 'error', message: errorMessage(error) });
      return;
    }
    setState({ kind: 'sent' });
    const redirect = donorPageUrl(portalBase, donor.matchId);
    if (!emit(host, 'twofold-donor-link-sent', { matchId: donor.matchId, redirect })) return;
    const target = new URL(redirect, globalThis.location?.href);
    // On the portal's own origin the router takes the path; anywhere else it is a page load.
    navigate(
      target.origin === globalThis.location?.origin ? `${target.pathname}${target.search}` : target.href,
    );
  };

  return (
    <div className="faq__self-service">
      <Button
        variant="secondary"
        part="donor-link-button"
        disabled={state.kind === 'sending'}
        onClick={() => void send()}
      >
        {state.kind === 'sending' ? faqTexts.selfServiceSending : faqTexts.selfServiceLink}
      </Button>
      <p className="faq__status" role="status">
        {state.kind === 'sent' ? faqTexts.selfServiceSent(donor.email) : ''}
      </p>
      {state.kind === 'error' ? (
        <p className="alert" role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
