import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { HttpError, httpMessages } from './http/errors.ts';
import { hostCheck } from './http/host-check.ts';
import { consoleLogger, type Logger } from './http/logger.ts';
import { loopbackOrigin } from './http/loopback-origin.ts';
import type { AnyRoute, AppEnv, Deps, Lifecycle } from './http/route.ts';
import { mountRoutes } from './http/router.ts';
import { mountStatic } from './http/static.ts';
import { tokenPages, tokenPathRedactor } from './http/token-paths.ts';
import { devMailbox } from './mail/dev-mailbox.ts';
import { matchNotifier } from './modules/notifications/notifications.service.ts';
import { observeRequests } from './observability/http.ts';
import { routes as apiRoutes } from './routes.ts';
import { configuredStorage } from './storage/configured-storage.ts';
import type { FileStorage } from './storage/storage.ts';

export { routes } from './routes.ts';

export const defaultDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

export type AppOptions = {
  config: Config;
  db: Db;
  logger?: Logger;
  /** The build output (portal, assets, element bundles); defaults to the repository's dist/. */
  distDir?: string;
  /** The route table; defaults to the API's. Tests may mount extra routes. */
  routes?: readonly AnyRoute[];
  /** Where uploads are kept; defaults to the config's (S3_BUCKET, else the folder DATA_DIR/files). */
  storage?: FileStorage;
  /** Shared with the server's shutdown, which marks it draining; a fresh one when omitted. */
  lifecycle?: Lifecycle;
  /** The workflow's time; defaults to the system clock (tests move a manual one). */
  clock?: Clock;
};

/** Composes the API, the dev mailbox and the static portal into one Hono app. */
export function createApp(options: AppOptions) {
  const { config, db } = options;
  const logger = options.logger ?? consoleLogger;
  const routes = options.routes ?? apiRoutes;
  const storage = options.storage ?? configuredStorage(config);
  const lifecycle = options.lifecycle ?? { draining: false };
  const clock = options.clock ?? systemClock;
  const notifier = matchNotifier(
    { ...config, clock },
    { renderOffThread: clock === systemClock ? config.databaseUrl : undefined },
  );
  const deps: Deps = { db, config, logger, storage, lifecycle, clock, notifier };
  const app = new Hono<AppEnv>();
  // Paths as logged: the token segments of token-bearing routes and pages replaced by their name.
  const loggedPath = tokenPathRedactor([...routes.map((r) => r.path), ...tokenPages]);

  // First: the request's id, its log line, its metrics and its trace span's name (observability/http.ts).
  app.use(observeRequests({ config, logger, loggedPath }));

  app.use(loopbackOrigin(config.publicUrl));

  // The consent page is also the embedded registration's popup (issue #25): it must keep its
  // `window.opener` (a partner's page) to post the answer back, which the default
  // Cross-Origin-Opener-Policy (same-origin) would sever. Set after secureHeaders has run.
  app.use('/oauth/authorize', async (c, next) => {
    await next();
    c.res.headers.set('cross-origin-opener-policy', 'unsafe-none');
  });

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React and the elements set style attributes; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: 'DENY',
      // The element bundles are embedded by other sites; static.ts opens them up explicitly.
      crossOriginResourcePolicy: false,
    }),
  );

  // Before any route: a page that rebinds its own name to this server reaches nothing.
  app.use(hostCheck(config));

  // Body limits are per route (uploads allow more than JSON calls): see mountRoutes.
  mountRoutes(app, routes, deps);

  if (!config.smtpUrl)
    app.route(
      '/dev/mailbox',
      devMailbox(db, {
        exposed: config.exposed,
        jwtSecret: config.jwtSecret,
        publicUrl: config.publicUrl,
        storage,
      }),
    );

  mountStatic(app, options.distDir ?? defaultDistDir);

  app.notFound((c) => c.json({ message: httpMessages.notFound }, 404));

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json({ ...error.fields, message: error.message }, error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ message: error.message || httpMessages.notFound }, error.status);
    }
    logger.error(`${c.req.method} ${loggedPath(c.req.path)} failed`, error);
    return c.json({ message: httpMessages.internal }, 500);
  });

  return { app, routes, storage, lifecycle, notifier };
}

export type App = ReturnType<typeof createApp>['app'];
