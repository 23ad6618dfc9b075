import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
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
      serve = serveStatic<AppEnv>({
        root,
        rewriteRequestPath: (p) => p.replace(/^\/portal(?=\/|$)/, ''),
        onFound: (_path, ctx) => {
          ctx.header('Cache-Control', options.cacheControl);
          if (options.cors) {
            ctx.header('Access-Control-Allow-Origin', '*');
            ctx.header('Cross-Origin-Resource-Policy', 'cross-origin');
          }
        },
      });
    }
    return serve(c, next);
  };
}

/**
 * The built portal at /portal (history fallback to its index.html), its hashed assets at
 * /assets, the element bundles at /elements (loadable from any site: they are public embeds).
 */
export function mountStatic(app: Hono<AppEnv>, distDir: string): void {
  const portalDir = path.join(distDir, 'portal');
  const portalIndex = path.join(portalDir, 'index.html');

  app.get('/', (c) => c.redirect('/portal'));
  // spec: "After a password reset the user goes to /login."
  app.get('/login', (c) => c.redirect('/portal/login'));

  app.use('/assets/*', staticFrom(portalDir, { cacheControl: 'public, max-age=31536000, immutable' }));
  app.use('/elements/*', staticFrom(distDir, { cacheControl: 'public, max-age=300', cors: true }));

  const portalFiles = staticFrom(portalDir, { cacheControl: 'no-cache' });
  const portalPage: MiddlewareHandler<AppEnv> = async (c, next) => {
    // A path with an extension is a file: serve it or 404, never the app shell.
    if (path.extname(c.req.path) && c.req.path !== '/portal/index.html') return portalFiles(c, next);
    if (!existsSync(portalIndex)) return c.text(portalNotBuilt, 503);
    return serveStatic<AppEnv>({
      path: portalIndex,
      onFound: (_p, ctx) => ctx.header('Cache-Control', 'no-cache'),
    })(c, next);
  };
  app.get('/portal', portalPage);
  app.get('/portal/*', portalPage);
}
