import shellCss from '../src/features/shell/shell.css?inline';
import { Sidebar, type SidebarProps } from '../src/features/shell/sidebar.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The portal's sidebar: the current organization (logo, name, ID), the menu, Logout,
 * and a toggle that collapses it to icons.
 *
 * @attr current-path - The page's path, marking the current entry (aria-current="page"). Default: location.pathname.
 * @attr logo-base - Where logos are served; a logo's file name is appended. Default: `/files/logos/`.
 * @attr companies-url - The public open-company page the Companies entry opens in a new tab. Default: Twofold's own employer lookup, `/companies`. A super user's Companies entry is the catalogue screen, `/portal/companies`, instead.
 * @attr collapsed - Start collapsed to icons.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-signed-out - The user pressed Logout.
 * @event twofold-sidebar-toggle - Collapsed or expanded; `detail.collapsed`.
 *
 * @csspart base - The element's inner root.
 * @csspart sidebar - The navigation landmark.
 * @csspart organization - The logo, name and ID.
 *
 * @cssproperty --twofold-color-surface - The sidebar's background.
 * @cssproperty --twofold-color-primary - The current entry.
 */
export const TwofoldSidebar = defineElement<SidebarProps>('twofold-sidebar', Sidebar, {
  props: { currentPath: 'string', logoBase: 'string', companiesUrl: 'string', collapsed: 'boolean' },
  styles: [shellCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-sidebar': HTMLElement & SidebarProps & { apiBase?: string };
  }
}
