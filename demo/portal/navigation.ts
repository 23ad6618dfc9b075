/** The paths the portal's router owns; anything else (/login, /companies, /dev) is a page load. */
export function isPortalPath(path: string): boolean {
  return (
    path === '/portal' ||
    path.startsWith('/portal/') ||
    path.startsWith('/portal?') ||
    path.startsWith('/portal#')
  );
}

/**
 * The portal path a click should be routed to client-side, or null to let the browser handle it.
 * Clicks inside shadow roots are seen through `composedPath()`: an anchor without a target, on
 * this origin, under /portal, with no modifier key (those mean "new tab/window").
 */
export function routableClick(event: MouseEvent, origin: string): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event
    .composedPath()
    .find(
      (node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement && node.hasAttribute('href'),
    );
  if (!anchor) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href);
  if (url.origin !== origin || !isPortalPath(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
