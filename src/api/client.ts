import ky, { HTTPError, TimeoutError } from 'ky';
import type * as z from 'zod/mini';
import { navigate } from '../state/navigation.ts';
import { currentToken, storeToken } from '../state/token-store.ts';

/** spec (part 1, section 8, Request errors), word for word. */
export const requestMessages = {
  authExpired: 'Authentication expired. Please login again.',
  network: 'Network error. Please check your connection.',
  unknown: 'An unknown error occurred',
  status: (status: number) => `Error: ${status}`,
} as const;

/** A non-2xx answer; `message` is what the user should read. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    /** False when the server gave no message and `message` is only 'Error: {status}'. */
    readonly fromServer = true,
    /** The server asks for a solved proof-of-work challenge with the next attempt (sign-in). */
    readonly captcha = false,
  ) {
    super(message);
  }
}

/** No answer at all (offline, DNS, CORS, timeout). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor() {
    super(requestMessages.network);
  }
}

let apiBase = '';

/**
 * Where the API lives. Same origin by default (the portal); embedded elements may point it
 * elsewhere through their `api-base` attribute.
 */
export function setApiBase(base: string | null | undefined): void {
  apiBase = (base ?? '').replace(/\/+$/, '');
}

export function getApiBase(): string {
  return apiBase || globalThis.location?.origin || '';
}

export interface RequestOptions {
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  json?: unknown;
  /** A multipart body (uploads); the browser sets its Content-Type with the boundary. */
  body?: FormData;
  searchParams?: Record<string, string> | URLSearchParams;
  /** Send the bearer token, and treat a 401 as an expired session (default true). */
  authenticated?: boolean;
  /** Extra request headers (registration sends its csrf token as bearer and as X-CSRF-Token). */
  headers?: Record<string, string>;
  /** How often a failed GET is tried again (default 2); 0 for a GET that sends an email. */
  retries?: number;
}

/**
 * One request through the shared ky instance: path relative to the API base ('api/common'),
 * the answer parsed with a contract schema. Throws ApiError, NetworkError or Error; turn any
 * of them into the spec's text with `errorMessage`.
 */
export async function request<S extends z.ZodMiniType>(
  schema: S,
  path: string,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const body = await send(path, options);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error('The server sent an unexpected response.');
  return parsed.data as z.infer<S>;
}

/** The raw JSON of a successful answer, for callers that must look at it before parsing. */
export async function send(path: string, options: RequestOptions = {}): Promise<unknown> {
  const response = await respond(path, options);
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('The server sent an unexpected response.');
  }
}

/** The body of a successful answer as a file (e.g. a document served only with the bearer token). */
export async function download(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await respond(path, options);
  return response.blob();
}

async function respond(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'get';
  const authenticated = options.authenticated ?? true;
  const headers: Record<string, string> = { ...options.headers };
  const token = currentToken();
  if (authenticated && token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await ky(path.replace(/^\/+/, ''), {
      prefixUrl: getApiBase(),
      method,
      json: options.json,
      body: options.body,
      searchParams: options.searchParams,
      headers,
      // Mutations are never repeated behind the user's back; reads may be, twice.
      retry: method === 'get' ? { limit: options.retries ?? 2 } : 0,
      throwHttpErrors: false,
      // Read the global at call time, so a page (or a test) that replaces fetch is honoured.
      fetch: (input, init) => globalThis.fetch(input, init),
    });
  } catch (error) {
    if (error instanceof TimeoutError || error instanceof TypeError) throw new NetworkError();
    throw error;
  }
  if (!response.ok) throw await toApiError(response, authenticated);
  return response;
}

async function toApiError(response: Response, authenticated: boolean): Promise<ApiError> {
  // spec: "A 401 response: the stored token is removed, the user is sent to /portal/login".
  // Calls made without a token (login, magic link, reset) fail on their own terms instead.
  if (response.status === 401 && authenticated) {
    storeToken(null);
    navigate('/portal/login');
    return new ApiError(401, requestMessages.authExpired);
  }
  // Issue #24: this session must set up a second factor first (an organization requires one).
  if (response.headers.has('x-two-factor-required')) navigate('/portal/account');
  let message = '';
  let captcha = false;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      message = body.message;
      captcha = 'captcha' in body && body.captcha === true;
    }
  } catch {
    // Not JSON: fall back to the status.
  }
  return message
    ? new ApiError(response.status, message, true, captcha)
    : new ApiError(response.status, requestMessages.status(response.status), false);
}

/** spec (part 1, section 8): the text a user reads for any failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  if (error instanceof HTTPError) return requestMessages.status(error.response.status);
  if (error instanceof TimeoutError) return requestMessages.network;
  if (error instanceof Error && error.message) return error.message;
  return requestMessages.unknown;
}
