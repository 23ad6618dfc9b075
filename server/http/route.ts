import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as core from 'zod/v4/core';
import type { Capability, PermissionLevel } from '../../src/contract/access.ts';
import type { OAuthScope } from '../../src/contract/oauth.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { LiveSession } from '../modules/auth/sessions.ts';
import type { SignedPurpose, VerifiedToken } from '../modules/auth/tokens.ts';
import type { MatchNotifier } from '../modules/donations/match-notifier.ts';
import type { FileStorage } from '../storage/storage.ts';
import type { Logger } from './logger.ts';

/** The signed-in staff member a request acts for. */
export type AuthUser = {
  id: number;
  email: string;
  name: string | null;
  globalPermission: boolean;
  /**
   * The session of a bearer token (not of a five-minute link): how it signed in and which factors
   * it passed (issue #24).
   */
  session?: LiveSession | undefined;
};

/** What every handler may use: the app's collaborators, handed in by `createApp`. */
export type Deps = {
  db: Db;
  config: Config;
  logger: Logger;
  /** Uploaded files (logos, documents). */
  storage: FileStorage;
  /** Whether the process is shutting down (readiness answers 503 from that moment). */
  lifecycle: Lifecycle;
  /** The time of the donor-email workflow (see server/clock.ts). */
  clock: Clock;
  /** Emails donors about their matches' status, with the config's links and `clock`. */
  notifier: MatchNotifier;
};

/** Set by the server's graceful shutdown (server/serve.ts); read by the readiness check. */
export type Lifecycle = { draining: boolean };

/** The donor a donor-session request acts for: the email their link was sent to (lowercased). */
export type DonorSession = { email: string };

/**
 * The credential a public API request (`/api/v1`) acts with — an API key, or a partner app's
 * OAuth access token (issue #25) — and the organization it belongs to.
 */
export type ApiKeyCaller = {
  id: number;
  organizationId: number;
  /** A partner's token: its grant (the connection), for rate limits. */
  grantId?: number;
  /** A partner's token: the scopes the organization granted. API keys have every scope (undefined). */
  scopes?: readonly string[];
};

export type AppEnv = {
  Variables: {
    user: AuthUser | undefined;
    donor: DonorSession | undefined;
    apiKey: ApiKeyCaller | undefined;
    input: RouteInput<unknown, unknown, unknown>;
    level: PermissionLevel | undefined;
    token: VerifiedToken | undefined;
  };
};

export type RouteInput<P, Q, B> = { params: P; query: Q; body: B };

/**
 * What a route requires of its caller (the contract's `RouteAccess`, with the server's part:
 * how an organization-scoped route finds its organization id in the validated input).
 */
export type ServerRouteAccess<P, Q, B> =
  | 'anonymous'
  | 'authenticated'
  | 'donor'
  | 'super'
  /** The public API: `Authorization: Bearer <api key>`, scoped to the key's organization. */
  | 'api-key'
  | {
      level: PermissionLevel;
      capability?: Capability;
      /**
       * The organization(s) the call acts on. It may look them up (a donation's organization);
       * with several, the caller needs the level on each. Throwing an HttpError (e.g. 404 for a
       * missing record) refuses the call before the handler runs.
       */
      org: (input: RouteInput<P, Q, B>, db: Db) => OrgRef | Promise<OrgRef>;
      /**
       * The 404 message when the caller cannot reach the organization. Routes that find it through
       * another record (a donation) give that record's own not-found message, so an id in someone
       * else's organization answers exactly as a missing one does. Default: the spec's
       * 'Organization with id {id} not found'.
       */
      unreachable?: string;
    };

/** One organization id, or several. */
export type OrgRef = number | readonly number[];

type UserFor<A> = A extends 'anonymous'
  ? AuthUser | undefined
  : A extends 'donor' | 'api-key'
    ? undefined
    : AuthUser;
type DonorFor<A> = A extends 'donor' ? DonorSession : undefined;
type ApiKeyFor<A> = A extends 'api-key' ? ApiKeyCaller : undefined;
type LevelFor<A> = A extends { level: PermissionLevel } ? PermissionLevel : undefined;

export type RouteContext<P, Q, B, A> = RouteInput<P, Q, B> & {
  user: UserFor<A>;
  /** The donor session (routes with access 'donor' only). */
  donor: DonorFor<A>;
  /** The API key (routes with access 'api-key' only). */
  apiKey: ApiKeyFor<A>;
  /** The caller's effective level on the route's organization (organization-scoped routes). */
  level: LevelFor<A>;
  deps: Deps;
  /** The verified `?token=` of a `tokenInQuery` route (its organization and data). */
  token: VerifiedToken | undefined;
  /** The client address used for rate limits and audit. */
  ip: string;
  c: Context<AppEnv>;
};

/** Rate limits on a route: per client address, and per email address when `email` finds one. */
export type RouteRateLimit<P, Q, B> = {
  /** Routes naming the same bucket share their counts (e.g. the GET and POST forms of a call). */
  bucket?: string;
  email?: (input: RouteInput<P, Q, B>) => string | undefined;
  /** Count only failed attempts (login): a person signing in successfully is not throttled. */
  failuresOnly?: boolean;
  /** A multiple of the configured per-address limit, for calls a person makes often (search as they type). */
  ipFactor?: number;
};

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type RouteResponse = { description: string; schema?: core.$ZodType };

export type RouteDefinition<P = unknown, Q = unknown, B = unknown, A = ServerRouteAccess<P, Q, B>> = {
  method: HttpMethod;
  /** Hono path syntax: `/api/organization/:id`. */
  path: string;
  /** Required: who may call this route. The guard enforces it before the handler runs. */
  access: A;
  summary: string;
  tags?: string[];
  params?: core.$ZodType<P>;
  query?: core.$ZodType<Q>;
  body?: core.$ZodType<B>;
  /**
   * How the body arrives: JSON (the default), JSON the caller may leave out (then the schema sees
   * `{}`), or multipart form data (the schema sees the parts by name, files as `File`).
   */
  bodyKind?: 'json' | 'optional-json' | 'multipart' | 'form';
  /** The largest body accepted, and the 413 message beyond it (default: 1 MB). */
  bodyLimit?: { bytes: number; message: string };
  /**
   * Scripts on any origin may call it (CORS): only the public endpoints behind the embeddable
   * elements (registration, contact) declare this.
   */
  cors?: boolean;
  /**
   * The credential travels as `?token=` instead of a bearer header (a browser navigation or an
   * opened link carries none): a signed five-minute link of this purpose, never the session
   * token — 'billing-link' for the billing navigations, 'csv-link' for the CSV download. The
   * router verifies it and its user, and the guard checks the route's access (level,
   * organization) exactly as for a bearer token; a token naming an organization opens no other.
   * `refused` answers a missing or invalid token: a 401 with this message, or this response
   * (e.g. a redirect to sign-in). Default: the bearer routes' 401.
   */
  tokenInQuery?: {
    purpose: Extract<SignedPurpose, 'billing-link' | 'csv-link'>;
    refused?: string | ((deps: Deps) => Response);
  };
  /**
   * Issue #24: the route stays open to a session that must still set up a second factor (its
   * organization requires one): the account page's calls, /api/common, signing out. Every other
   * staff route refuses such a session (403) in the router, in one place.
   */
  duringTwoFactorSetup?: boolean;
  /** A check of the raw request before its input is read (e.g. registration's csrf token). */
  precheck?: (c: Context<AppEnv>, deps: Deps) => Promise<void> | void;
  /**
   * The public API (access 'api-key'): the OAuth scope a partner app's access token needs
   * ('any': any granted scope). API keys hold every scope.
   */
  scope?: OAuthScope | 'any';
  /** Documented responses by status, for the OpenAPI document. */
  responses?: Partial<Record<number, RouteResponse>>;
  rateLimit?: RouteRateLimit<P, Q, B>;
  successStatus?: ContentfulStatusCode;
  /** Returns the JSON body of the success response, or a Response of its own. */
  handler: (ctx: RouteContext<P, Q, B, A>) => Promise<unknown>;
};

/** Any route, as the route table holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every input type.
export type AnyRoute = RouteDefinition<any, any, any, any>;

/**
 * Declares one API route. Its types flow from the schemas into the handler, and `access` must be
 * given: a route without an access declaration does not compile.
 */
export function defineRoute<
  P = Record<string, never>,
  Q = Record<string, never>,
  B = undefined,
  const A extends ServerRouteAccess<P, Q, B> = ServerRouteAccess<P, Q, B>,
>(route: RouteDefinition<P, Q, B, A>): AnyRoute {
  return route as AnyRoute;
}
