// The shell's elements load with the page; each screen's element (sign-in's too) when its route
// is first visited (screens.tsx).
import '../../elements/twofold-org-picker.ts';
import '../../elements/twofold-sidebar.ts';
import '../../elements/twofold-toaster.ts';
import './portal.css';
import { effect, untracked } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import {
  BrowserRouter,
  Link,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
import { setNavigate } from '../../src/state/navigation.ts';
import { startOrganization } from '../../src/state/organization.ts';
import {
  initSession,
  retrySession,
  sessionError,
  sessionStatus,
  signedOut,
} from '../../src/state/session.ts';
import { isPortalPath, routableClick } from './navigation.ts';
import { Loading, screen } from './screens.tsx';

const NotificationPreview = lazy(() =>
  import('../../src/features/notification-preview/notification-preview.tsx').then((m) => ({
    default: m.NotificationPreview,
  })),
);

// spec (part 1, section 4, Current organization): once signed in, pick the organization to work on.
// Untracked: the start-up reads organization state that must not re-trigger it.
effect(() => {
  if (sessionStatus.value === 'authenticated') untracked(() => void startOrganization());
});

/** Lets elements and the API client navigate with the router, and routes link clicks made inside elements. */
function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(
    () =>
      setNavigate((to, options) => {
        if (isPortalPath(to)) navigate(to, { replace: options?.replace ?? false });
        else if (options?.replace) location.replace(to);
        else location.assign(to);
      }),
    [navigate],
  );
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const to = routableClick(event, location.origin);
      if (!to) return;
      event.preventDefault();
      navigate(to);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return null;
}

/**
 * spec (part 1, section 4, Session): "Auth guard: while loading it shows a spinner;
 * unauthenticated visitors are redirected to login; otherwise the page renders." The requested
 * location travels in ?redirect= so sign-in (password or magic link) returns there.
 */
function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  const location = useLocation();
  const status = sessionStatus.value;
  useEffect(() => {
    void initSession();
  }, []);

  if (status === 'anonymous') {
    if (signedOut.value) return <Navigate to="/portal/login" replace />;
    const back = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/portal/login?redirect=${encodeURIComponent(back)}`} replace />;
  }
  if (status === 'error') {
    return (
      <main className="portal-center">
        <p role="alert">{sessionError.value}</p>
        <button type="button" className="portal-button" onClick={() => void retrySession()}>
          Try again
        </button>
      </main>
    );
  }
  if (status === 'loading') {
    return (
      <main>
        <Loading label="Loading your session..." />
      </main>
    );
  }
  return children;
}

function PortalLayout() {
  const { pathname } = useLocation();
  return (
    <div className="portal-layout">
      <twofold-sidebar current-path={pathname} />
      <div className="portal-main">
        <header className="portal-topbar">
          <twofold-org-picker />
        </header>
        <main className="portal-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** spec: "/portal/organization-details (query: tab)": the router's tab value travels to the element. */
function OrganizationDetailsPage() {
  const [params] = useSearchParams();
  // The element keeps the tab in the address itself (replaceState); a router navigation to this
  // page (a Configure link, the sidebar) starts it afresh on the tab it names.
  const { key } = useLocation();
  return screen(<twofold-organization-details key={key} tab={params.get('tab') ?? 'basic'} />);
}

/**
 * spec (section 2): "Query parameter template. If missing or 0 it redirects to /email-templates."
 */
function EmailCustomizationPage() {
  const [params] = useSearchParams();
  const template = params.get('template') ?? '';
  if (!/^[1-9][0-9]*$/.test(template)) return <Navigate to="/portal/email-templates" replace />;
  return screen(<twofold-template-editor key={template} template={template} />);
}

/** spec: "Public FAQ (/portal/faq)": no sidebar, no sign-in; a new query string starts it afresh. */
function FaqPage() {
  const { search } = useLocation();
  return <PublicPage>{screen(<twofold-faq key={search} />)}</PublicPage>;
}

/** spec: "Public route /portal/donor-match-update/{match_id}": no sidebar, no sign-in (the donor has a link). */
function DonorMatchUpdatePage() {
  const { matchId = '' } = useParams();
  return <PublicPage>{screen(<twofold-donor-match-update key={matchId} match-id={matchId} />)}</PublicPage>;
}

/** spec (part 1, section 1): "A public matching page exists per organization, at /match/{slug}". */
function MatchPage() {
  const { slug = '' } = useParams();
  return <PublicPage>{screen(<twofold-match-request key={slug} organization={slug} />)}</PublicPage>;
}

/** spec (part 1, section 2, Sidebar): "Companies (an external link to the product's public open-company page)". */
function CompaniesPage() {
  return (
    <PublicPage>
      <h1 className="portal-title">Companies</h1>
      {screen(<twofold-company-lookup />)}
    </PublicPage>
  );
}

/** The donor's signing page (issue #16): the link in the Donor to E-Sign Form email, /sign/{token}. */
function SignPage() {
  const { token = '' } = useParams();
  return <PublicPage>{screen(<twofold-esign key={token} token={token} />)}</PublicPage>;
}

/** spec (section 2): the match dialog's Preview link opens /preview-notification/{id} in a new tab (signed in). */
function NotificationPreviewPage() {
  const { id = '' } = useParams();
  return (
    <RequireAuth>
      <Suspense fallback={<Loading label="Loading..." />}>
        <NotificationPreview key={id} id={id} />
      </Suspense>
    </RequireAuth>
  );
}

function PublicPage({ children }: { children: ReactNode }) {
  return <main className="portal-public">{children}</main>;
}

function NotFound() {
  const { pathname } = useLocation();
  return (
    <div className="portal-center">
      <h1 className="portal-title">Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <Link className="portal-link" to="/portal">
        Go to the Dashboard
      </Link>
    </div>
  );
}

function App() {
  return (
    <BrowserRouter>
      <NavigationBridge />
      <div className="portal">
        <Routes>
          <Route path="/portal/login" element={<PublicPage>{screen(<twofold-login />)}</PublicPage>} />
          <Route
            path="/portal/reset-password"
            element={<PublicPage>{screen(<twofold-reset-password />)}</PublicPage>}
          />
          <Route
            path="/portal/register"
            element={<PublicPage>{screen(<twofold-registration />)}</PublicPage>}
          />
          <Route path="/portal/contact" element={<PublicPage>{screen(<twofold-contact />)}</PublicPage>} />
          <Route path="/portal/faq" element={<FaqPage />} />
          <Route path="/portal/donor-match-update/:matchId" element={<DonorMatchUpdatePage />} />
          <Route path="/match/:slug" element={<MatchPage />} />
          <Route path="/companies" element={<CompaniesPage />} />
          <Route path="/sign/:token" element={<SignPage />} />
          <Route path="/preview-notification/:id" element={<NotificationPreviewPage />} />
          <Route
            path="/portal"
            element={
              <RequireAuth>
                <PortalLayout />
              </RequireAuth>
            }
          >
            <Route index element={screen(<twofold-dashboard />)} />
            <Route path="donations" element={screen(<twofold-donations />)} />
            <Route path="companies" element={screen(<twofold-companies />)} />
            <Route path="verification" element={screen(<twofold-verification />)} />
            <Route path="employers" element={screen(<twofold-employers />)} />
            <Route path="payouts" element={screen(<twofold-payouts />)} />
            <Route path="organization-details" element={<OrganizationDetailsPage />} />
            <Route path="billing" element={screen(<twofold-billing key="plans" />)} />
            <Route path="integrations" element={screen(<twofold-integrations key="cards" />)} />
            <Route
              path="integrations/widget"
              element={screen(<twofold-integrations key="widget" view="widget" />)}
            />
            <Route path="webhooks" element={screen(<twofold-webhooks />)} />
            <Route path="email-templates" element={screen(<twofold-template-editor key="cards" />)} />
            <Route path="email-customization" element={<EmailCustomizationPage />} />
            <Route path="scheduled-emails" element={screen(<twofold-scheduled-emails />)} />
            <Route path="account" element={screen(<twofold-account />)} />
            <Route path="reports" element={screen(<twofold-report-builder />)} />
            <Route path="campaigns" element={screen(<twofold-campaigns />)} />
            <Route path="account" element={screen(<twofold-account />)} />
            <Route
              path="stripe-setup"
              element={screen(<twofold-billing key="stripe-setup" view="stripe-setup" />)}
            />
            <Route path="*" element={<NotFound />} />
          </Route>
          <Route
            path="*"
            element={
              <PublicPage>
                <NotFound />
              </PublicPage>
            }
          />
        </Routes>
        <twofold-toaster />
      </div>
    </BrowserRouter>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
