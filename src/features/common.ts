import { redirectPath } from '../contract/index.ts';

/** A query parameter of the page's address, or null. */
export function queryParam(name: string): string | null {
  return new URLSearchParams(globalThis.location?.search ?? '').get(name);
}

/** Remove query parameters from the address bar without a navigation (e.g. a one-time token). */
export function stripQueryParams(...names: string[]): void {
  const url = new URL(location.href);
  for (const name of names) url.searchParams.delete(name);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** A same-site path to go to after sign-in; anything else (absent, absolute, //evil) becomes the fallback. */
export function safeRedirect(value: string | null | undefined, fallback = '/portal'): string {
  if (!value) return fallback;
  return redirectPath.safeParse(value).success ? value : fallback;
}

/** The first message per field of a failed zod parse, keyed by its dotted path ('address.city'). */
export function fieldErrors(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.filter((part) => typeof part === 'string').join('.');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/**
 * A gift's calendar day as stored: the UTC day of its timestamp ('yyyy-MM-dd'), or null. The
 * server files and filters gifts by UTC day, so every screen shows and edits that day wherever
 * the reader is.
 */
export function giftDay(iso: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** spec: "Dates display as 'MMM dd, yyyy'": a gift's UTC day (see giftDay). */
export function formatGiftDay(iso: string): string {
  const day = giftDay(iso);
  return day ? dayFormat.format(new Date(`${day}T00:00:00Z`)) : iso;
}

/**
 * Saves a file the API answered (a packet, an export) under `fileName`, through a hidden link
 * appended inside `root` (the element's shadow root, where the click is allowed) or the document.
 * The URL is kept a minute after the click, for slow disks.
 */
export function saveBlob(blob: Blob, fileName: string, root?: ShadowRoot | HTMLElement | null): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  (root ?? document.body).append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The Payment filter's choices (the donations list and the report builder): any, paid, not yet. */
export const paymentOptions = [
  { value: '', label: 'Any' },
  { value: 'paid', label: 'Received' },
  { value: 'unpaid', label: 'Not received' },
];
