import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../config.ts';
import type { AppEnv } from './route.ts';

/**
 * One origin for a local install. The links the server builds (Checkout's return, logos, the open
 * pixel, every email link) start with PUBLIC_URL, which defaults to `http://localhost:PORT`, while
 * the server listens on 127.0.0.1 and answers there too. A browser keeps the session per origin
 * (localStorage) and the CSP allows images from 'self', so a portal opened at 127.0.0.1 came back
 * from Checkout signed out and showed the logo and open pixel blocked. When PUBLIC_URL names a
 * loopback host, a page opened at any other loopback name (127.0.0.1, [::1]) is sent to the same
 * path at PUBLIC_URL's origin before it loads, so the browser only ever holds one origin.
 *
 * Only page navigations move: API calls, module scripts and images answer where they were asked
 * (scripts and embeds may use either name, and a redirect would cost them CORS preflights). A
 * temporary redirect (307), so a browser does not remember it if PUBLIC_URL changes later.
 */
export function loopbackOrigin(publicUrl: string): MiddlewareHandler<AppEnv> {
  const canonical = new URL(publicUrl);
  const active = isLoopbackHost(canonical.hostname);
  return async (c, next) => {
    if (!active || (c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isNavigation(c.req.raw.headers))
      return next();
    const host = c.req.header('host');
    if (!host) return next();
    const asked = hostnameOf(host);
    if (asked === undefined || asked === canonical.hostname || !isLoopbackHost(asked)) return next();
    const url = new URL(c.req.url);
    return c.redirect(`${canonical.origin}${url.pathname}${url.search}`, 307);
  };
}

/** A top-level page load: what Fetch Metadata says, else (older clients) what the page accepts. */
function isNavigation(headers: Headers): boolean {
  const mode = headers.get('sec-fetch-mode');
  if (mode !== null) return mode === 'navigate' && headers.get('sec-fetch-dest') === 'document';
  return (headers.get('accept') ?? '').includes('text/html');
}

/** The host name of a Host header (`127.0.0.1:8080`, `[::1]:8080`), lower-cased, without the port. */
function hostnameOf(host: string): string | undefined {
  const url = `http://${host}`;
  return URL.canParse(url) ? new URL(url).hostname : undefined;
}
