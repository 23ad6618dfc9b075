/**
 * How elements and the API client change the page without knowing the host's router. The
 * portal host installs react-router's navigate; elsewhere a plain page load is right.
 */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

const defaultNavigate: Navigate = (to, options) => {
  if (options?.replace) location.replace(to);
  else location.assign(to);
};

let current: Navigate = defaultNavigate;
let reloader: () => void = () => location.reload();

/** Go to a path (a same-origin path such as '/portal/login'). */
export function navigate(to: string, options?: { replace?: boolean }): void {
  current(to, options);
}

/** The host page's router; returns a function that restores the previous one. */
export function setNavigate(next: Navigate): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}

/** Reload the page (spec: a failed organization load clears the stored ids and reloads). */
export function reloadPage(): void {
  reloader();
}

/** Tests and hosts that manage reloads themselves replace it here. */
export function setReload(next: () => void): void {
  reloader = next;
}

/** The current location as a path with query and hash, for "return here after sign-in". */
export function currentLocation(): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
