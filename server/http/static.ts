import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import { faviconPath, faviconSvg } from './favicon.ts';
import type { AppEnv } from './route.ts';

export const portalNotBuilt = 'The portal is not built yet: run npm run build';

/**
 * Serves a directory once it exists (the build may run after the server starts), never
 * crashing or warning while it does not.
 */
function staticFrom(
  root: string,
  options: { cacheControl: string; cors?: boolean },
): MiddlewareHandler<AppEnv> {
  let serve: MiddlewareHandler<AppEnv> | undefined;
  return async (c, next) => {
    if (!serve) {
      if (!existsSync(root)) return next();
      serve = serveStatic<AppEnv>({ root, rewriteRequestPath: (p) => p.replace(/^\/portal(?=\/|$)/, '') });
    }
    const found = await serve(c, next);
    // Only a served file gets these headers: a 404 must not be cached for a year.
    if (found instanceof Response) withHeaders(found, options);
    return found;
  };
}

function withHeaders(response: Response, options: { cacheControl: string; cors?: boolean }): Response {
  response.headers.set('Cache-Control', options.cacheControl);
  if (options.cors) {
    response.headers.set('Access-Control-Allow-Origin', '*');
    response.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  }
  return response;
}

/**
 * The built portal at /portal (history fallback to its index.html), its hashed assets at
 * /assets, the element bundles at /elements (loadable from any site: they are public embeds).
 */
export function mountStatic(app: Hono<AppEnv>, distDir: string): void {
  const portalDir = path.join(distDir, 'portal');
  const portalIndex = path.join(portalDir, 'index.html');

  app.get('/', (c) => c.redirect('/portal'));
  app.get(faviconPath, (c) =>
    c.body(faviconSvg, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    }),
  );
  app.get('/favicon.ico', (c) => c.redirect(faviconPath, 301));
  // spec: "After a password reset the user goes to /login."
  app.get('/login', (c) => c.redirect('/portal/login'));
  // spec: the FAQ's donor link "redirects to /donor-match-update/{di}"; the page is the portal's.
  app.get('/donor-match-update/:id{[1-9][0-9]{0,9}}', (c) => {
    const query = new URL(c.req.url).search;
    return c.redirect(`/portal/donor-match-update/${c.req.param('id')}${query}`);
  });

  app.use('/assets/*', staticFrom(portalDir, { cacheControl: 'public, max-age=31536000, immutable' }));
  app.use('/elements/*', staticFrom(distDir, { cacheControl: 'public, max-age=300', cors: true }));

  const portalFiles = staticFrom(portalDir, { cacheControl: 'no-cache' });
  /** The portal's index.html, whatever the path below it: the browser app routes from there. */
  const appShell: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!existsSync(portalIndex)) return c.text(portalNotBuilt, 503);
    const found = await serveStatic<AppEnv>({ path: portalIndex })(c, next);
    if (found instanceof Response) withHeaders(found, { cacheControl: 'no-cache' });
    return found;
  };
  const portalPage: MiddlewareHandler<AppEnv> = async (c, next) => {
    // A path with an extension is a file: serve it or 404, never the app shell.
    if (path.extname(c.req.path) && c.req.path !== '/portal/index.html') return portalFiles(c, next);
    return appShell(c, next);
  };
  app.get('/portal', portalPage);
  app.get('/portal/*', portalPage);
  // spec (part 1, section 1): the public matching page lives at /match/{slug}, outside /portal.
  // A slug is a name and may hold a dot ("st.-mary's"): always the app shell, never a file.
  app.get('/match/*', appShell);
  // The public employer lookup the sidebar's Companies entry opens (issue 12).
  app.get('/companies', appShell);
  // The donor's signing page (issue #16): the e-sign email's link, /sign/{token}, outside /portal.
  app.get('/sign/*', appShell); // its token is redacted from logs: tokenPages
  // spec (part 2, section 2): the match dialog's email preview opens /preview-notification/{id}.
  app.get('/preview-notification/*', appShell);
}
