import { useSignals } from '@preact/signals-react/runtime';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { currentOrganization, organizationLoading } from '../../state/organization.ts';
import { initSession, isSuperUser, logout } from '../../state/session.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { DefaultLogo, icons } from './icons.tsx';

export interface MenuEntry {
  label: string;
  href: string;
  icon: ReactNode;
  /** Opens in a new tab (spec: the public open-company page). */
  external?: boolean;
  /** Other paths on which this entry is the current one. */
  alsoActiveOn?: string[];
}

/**
 * spec (part 1, section 2, Sidebar): the entries, in order. A super user's Companies entry is the
 * catalogue screen they maintain (/portal/companies, with its queue of suggested corrections at
 * the top) instead of the public lookup: they are the only ones who can act on either.
 */
export function menuEntries(companiesUrl: string | undefined, superUser = false): MenuEntry[] {
  return [
    { label: 'Dashboard', href: '/portal', icon: icons.dashboard },
    { label: 'Donations', href: '/portal/donations', icon: icons.donations },
    { label: 'Campaigns', href: '/portal/campaigns', icon: icons.campaigns },
    { label: 'Verification', href: '/portal/verification', icon: icons.verification },
    // Issue 31: how employers were found, Find employers and its review list.
    { label: 'Employers', href: '/portal/employers', icon: icons.employers },
    { label: 'Payouts', href: '/portal/payouts', icon: icons.payouts },
    // spec: "The sidebar entry Companies is an external link to the product's public open-company
    // page, opened in a new tab": Twofold's own public employer lookup at /companies, unless a host
    // names another page (companies-url).
    superUser
      ? { label: 'Companies', href: '/portal/companies', icon: icons.companies }
      : { label: 'Companies', href: companiesUrl || '/companies', icon: icons.companies, external: true },
    { label: 'Reports', href: '/portal/reports', icon: icons.reports },
    {
      label: 'Email Templates',
      href: '/portal/email-templates',
      icon: icons.templates,
      alsoActiveOn: ['/portal/email-customization'],
    },
    // Issue #30: what the reminders, deadline emails and the weekly staff email will send, and when.
    { label: 'Scheduled Emails', href: '/portal/scheduled-emails', icon: icons.scheduled },
    { label: 'Integrations', href: '/portal/integrations', icon: icons.integrations },
    { label: 'Organization', href: '/portal/organization-details', icon: icons.organization },
    { label: 'Billing', href: '/portal/billing', icon: icons.billing },
  ];
}

/** Is `entry` the page at `path`? Dashboard only on /portal itself; others on their sub-paths too. */
export function isActive(entry: MenuEntry, path: string): boolean {
  if (entry.external) return false;
  const clean = path.replace(/\/+$/, '') || '/';
  const matches = (p: string) => clean === p || (p !== '/portal' && clean.startsWith(`${p}/`));
  return matches(entry.href) || (entry.alsoActiveOn ?? []).some(matches);
}

/** Where an organization's logo is served: absolute names as they are, others under `logoBase`. */
export function logoUrl(fileLogo: string, logoBase: string): string {
  if (/^(https?:)?\/\//.test(fileLogo) || fileLogo.startsWith('/')) return fileLogo;
  return `${logoBase.replace(/\/*$/, '/')}${encodeURIComponent(fileLogo)}`;
}

function usePathname(given: string | undefined): string {
  const [path, setPath] = useState(() => location.pathname);
  useEffect(() => {
    if (given !== undefined) return;
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, [given]);
  return given ?? path;
}

export interface SidebarProps {
  /** The page's path, to mark the current entry; the host sets it on every route change. */
  currentPath?: string;
  /** Where logos are served (spec: a CDN path plus the file_logo name). */
  logoBase?: string;
  /** The public open-company page; without one the Companies entry is left out. */
  companiesUrl?: string;
  /** Start collapsed to icons (otherwise the user's last choice on this browser). */
  collapsed?: boolean;
}

/** Below this width the sidebar is a drawer, closed until the menu button opens it. */
export const drawerBreakpoint = 900;
const narrowQuery = `(max-width: ${drawerBreakpoint - 1}px)`;
/** Where the wide sidebar's collapsed state is remembered (this browser only). */
export const collapsedStorageKey = 'twofold.sidebar.collapsed';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(narrowQuery).matches);
  useEffect(() => {
    const query = matchMedia(narrowQuery);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

function storedCollapsed(): boolean | null {
  try {
    const value = localStorage.getItem(collapsedStorageKey);
    return value === null ? null : value === 'true';
  } catch {
    return null; // storage refused (private mode, a sandboxed frame): nothing remembered
  }
}

export function Sidebar({
  currentPath,
  logoBase = '/files/logos/',
  companiesUrl,
  collapsed: startCollapsed = false,
}: SidebarProps) {
  useSignals();
  const { host } = useElement();
  const path = usePathname(currentPath);
  const narrow = useNarrow();
  const [collapsed, setCollapsed] = useState(() => storedCollapsed() ?? startCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerRef = useRef<HTMLDialogElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const drawerId = useId();
  const organization = currentOrganization.value;
  // Whether this is a super user (their Companies entry differs) comes from the session.
  useEffect(() => {
    void initSession();
  }, []);

  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    try {
      localStorage.setItem(collapsedStorageKey, String(next));
    } catch {
      /* storage refused: the choice lasts for this page only */
    }
    emit(host, 'twofold-sidebar-toggle', { collapsed: next });
  };

  // The drawer is a native modal <dialog>: the page behind is inert, focus stays inside, Escape
  // closes it. It closes on every navigation (a link chosen, or the path changed).
  useEffect(() => {
    const dialog = drawerRef.current;
    if (!dialog) return;
    if (drawerOpen && !dialog.open) dialog.showModal();
    if (!drawerOpen && dialog.open) dialog.close();
  }, [drawerOpen]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is the trigger
  useEffect(() => setDrawerOpen(false), [path, narrow]);

  const nav = (isCollapsed: boolean, onNavigate?: () => void) => (
    <SidebarNav
      path={path}
      logoBase={logoBase}
      companiesUrl={companiesUrl}
      collapsed={isCollapsed}
      onNavigate={onNavigate}
      toggle={(listId) =>
        narrow ? (
          <Button
            variant="ghost"
            className="sidebar__toggle"
            aria-label="Close menu"
            title="Close menu"
            onClick={() => setDrawerOpen(false)}
          >
            {icons.collapse}
          </Button>
        ) : (
          <Button
            variant="ghost"
            className="sidebar__toggle"
            aria-expanded={!collapsed}
            aria-controls={listId}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            onClick={toggle}
          >
            {collapsed ? icons.expand : icons.collapse}
          </Button>
        )
      }
    />
  );

  if (!narrow) return nav(collapsed);
  return (
    <nav className="sidebar-bar" part="menu-bar" aria-label="Menu">
      <button
        ref={menuButtonRef}
        type="button"
        className="sidebar-bar__menu"
        aria-haspopup="dialog"
        aria-expanded={drawerOpen}
        aria-controls={drawerId}
        onClick={() => setDrawerOpen(true)}
      >
        {icons.menu}
        <span className="visually-hidden">Open menu</span>
      </button>
      <p className="sidebar-bar__org">
        {organization?.name ??
          (organizationLoading.value ? 'Loading organization...' : 'No organization selected')}
      </p>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click is the pointer's Escape; the native dialog closes on Escape */}
      <dialog
        ref={drawerRef}
        id={drawerId}
        className="sidebar-drawer"
        aria-label="Menu"
        onClose={() => {
          setDrawerOpen(false);
          menuButtonRef.current?.focus();
        }}
        onClick={(event) => {
          // A click on the backdrop (the dialog box itself, outside the panel) closes it.
          if (event.target === event.currentTarget) setDrawerOpen(false);
        }}
      >
        {drawerOpen ? nav(false, () => setDrawerOpen(false)) : null}
      </dialog>
    </nav>
  );
}

interface SidebarNavProps {
  path: string;
  logoBase: string;
  companiesUrl: string | undefined;
  collapsed: boolean;
  /** The button beside the organization (collapse, or close the drawer), given the menu's id. */
  toggle: (listId: string) => ReactNode;
  /** Called when a link is followed (the drawer closes). */
  onNavigate?: (() => void) | undefined;
}

/** The organization, the menu and Logout: the wide sidebar and the phone drawer show the same. */
function SidebarNav({ path, logoBase, companiesUrl, collapsed, toggle, onNavigate }: SidebarNavProps) {
  useSignals();
  const { host } = useElement();
  // The logo that failed to load, so the default shows instead (and a new logo gets its own try).
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const organization = currentOrganization.value;
  const listId = useId();
  const fileLogo = organization?.file_logo;

  const signOut = () => {
    emit(host, 'twofold-signed-out', {});
    logout();
  };

  const label = (text: string) => (
    <span className={collapsed ? 'visually-hidden' : 'sidebar__label'}>{text}</span>
  );

  return (
    <nav className={`sidebar${collapsed ? ' sidebar--collapsed' : ''}`} aria-label="Main" part="sidebar">
      <div className="sidebar__top">
        <div className="sidebar__org" part="organization">
          {fileLogo && fileLogo !== failedLogo ? (
            <img
              className="sidebar__logo"
              src={logoUrl(fileLogo, logoBase)}
              alt=""
              onError={() => setFailedLogo(fileLogo)}
            />
          ) : (
            <DefaultLogo />
          )}
          {organization ? (
            <div className={collapsed ? 'visually-hidden' : 'sidebar__org-text'}>
              <p className="sidebar__org-name">{organization.name}</p>
              <p className="sidebar__org-id">ID: {organization.id}</p>
            </div>
          ) : (
            <p className={collapsed ? 'visually-hidden' : 'sidebar__org-text muted'}>
              {organizationLoading.value ? 'Loading organization...' : 'No organization selected'}
            </p>
          )}
        </div>
        {toggle(listId)}
      </div>
      <ul className="sidebar__menu" id={listId}>
        {menuEntries(companiesUrl, isSuperUser.value).map((entry) => {
          const active = isActive(entry, path);
          return (
            <li key={entry.label}>
              <a
                className={`sidebar__link${active ? ' sidebar__link--active' : ''}`}
                href={entry.href}
                aria-current={active ? 'page' : undefined}
                title={collapsed ? entry.label : undefined}
                onClick={onNavigate}
                {...(entry.external ? { target: '_blank', rel: 'noopener' } : {})}
              >
                {entry.icon}
                {label(entry.label)}
                {entry.external ? <span className="visually-hidden"> (opens in a new tab)</span> : null}
                {entry.external && !collapsed ? (
                  <span className="sidebar__external">{icons.external}</span>
                ) : null}
              </a>
            </li>
          );
        })}
      </ul>
      <div className="sidebar__bottom">
        <a
          className={`sidebar__link${path === '/portal/account' ? ' sidebar__link--active' : ''}`}
          href="/portal/account"
          aria-current={path === '/portal/account' ? 'page' : undefined}
          title={collapsed ? 'Account' : undefined}
          onClick={onNavigate}
        >
          {icons.account}
          {label('Account')}
        </a>
        <button
          type="button"
          className="sidebar__link"
          onClick={signOut}
          title={collapsed ? 'Logout' : undefined}
        >
          {icons.logout}
          {label('Logout')}
        </button>
      </div>
    </nav>
  );
}
