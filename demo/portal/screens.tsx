import { Component, type ReactElement, type ReactNode, Suspense, use } from 'react';

/**
 * Each screen's element module, loaded when its route is first visited (issue #17: the portal's
 * first load is the shell alone: sidebar, org picker and toaster, which main.tsx imports).
 * A custom element rendered before its module has loaded is upgraded once it is defined; the
 * route shows a spinner until then.
 */
const screens = {
  'twofold-account': () => import('../../elements/twofold-account.ts'),
  'twofold-billing': () => import('../../elements/twofold-billing.ts'),
  'twofold-campaigns': () => import('../../elements/twofold-campaigns.ts'),
  'twofold-companies': () => import('../../elements/twofold-companies.ts'),
  'twofold-company-lookup': () => import('../../elements/twofold-company-lookup.ts'),
  'twofold-contact': () => import('../../elements/twofold-contact.ts'),
  'twofold-dashboard': () => import('../../elements/twofold-dashboard.ts'),
  'twofold-donations': () => import('../../elements/twofold-donations.ts'),
  'twofold-donor-match-update': () => import('../../elements/twofold-donor-match-update.ts'),
  'twofold-esign': () => import('../../elements/twofold-esign.ts'),
  'twofold-faq': () => import('../../elements/twofold-faq.ts'),
  'twofold-integrations': () => import('../../elements/twofold-integrations.ts'),
  'twofold-login': () => import('../../elements/twofold-login.ts'),
  'twofold-match-request': () => import('../../elements/twofold-match-request.ts'),
  'twofold-organization-details': () => import('../../elements/twofold-organization-details.ts'),
  'twofold-payouts': () => import('../../elements/twofold-payouts.ts'),
  'twofold-registration': () => import('../../elements/twofold-registration.ts'),
  'twofold-report-builder': () => import('../../elements/twofold-report-builder.ts'),
  'twofold-reset-password': () => import('../../elements/twofold-reset-password.ts'),
  'twofold-scheduled-emails': () => import('../../elements/twofold-scheduled-emails.ts'),
  'twofold-template-editor': () => import('../../elements/twofold-template-editor.ts'),
  'twofold-verification': () => import('../../elements/twofold-verification.ts'),
  'twofold-employers': () => import('../../elements/twofold-employers.ts'),
  'twofold-webhooks': () => import('../../elements/twofold-webhooks.ts'),
} satisfies Record<string, () => Promise<unknown>>;

export type ScreenTag = keyof typeof screens;

const loading = new Map<ScreenTag, Promise<unknown>>();

/** The module of `tag`, loaded once; a failed load is forgotten so that trying again fetches it anew. */
function load(tag: ScreenTag): Promise<unknown> {
  let pending = loading.get(tag);
  if (!pending) {
    pending = screens[tag]().catch((error: unknown) => {
      loading.delete(tag);
      throw error;
    });
    loading.set(tag, pending);
  }
  return pending;
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="portal-center" role="status">
      <span className="portal-spinner" aria-hidden="true" />
      <span className="portal-hidden">{label}</span>
    </div>
  );
}

function Loaded({ tag, children }: { tag: ScreenTag; children: ReactNode }) {
  use(load(tag));
  return children;
}

interface ScreenErrorState {
  failed: boolean;
}

/** A screen whose code could not be loaded (offline, or a release replaced it): say so, offer to try again. */
class ScreenError extends Component<{ children: ReactNode }, ScreenErrorState> {
  override state: ScreenErrorState = { failed: false };

  static getDerivedStateFromError(): ScreenErrorState {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="portal-center">
        <p role="alert">This page could not be loaded. Check your connection and try again.</p>
        <button type="button" className="portal-button" onClick={() => this.setState({ failed: false })}>
          Try again
        </button>
      </div>
    );
  }
}

/**
 * A route's element, e.g. `screen(<twofold-dashboard />)`: renders it once its module has loaded,
 * with a spinner meanwhile.
 */
export function screen(element: ReactElement<unknown, ScreenTag>): ReactElement {
  const tag = element.type;
  return (
    <ScreenError key={tag}>
      <Suspense fallback={<Loading label="Loading..." />}>
        <Loaded tag={tag}>{element}</Loaded>
      </Suspense>
    </ScreenError>
  );
}
