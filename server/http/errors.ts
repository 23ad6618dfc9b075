import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An error a caller can act on: the status and the `{ message }` they receive. Services throw it;
 * the app's one error handler turns it into the response.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
    /** Fields the body carries beside `message` (an OAuth error's `error` and `error_description`). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Texts the API answers with, in one place so tests and clients can refer to them. */
export const httpMessages = {
  tokenNotFound: 'Authentication token not found',
  authExpired: 'Authentication expired. Please login again.',
  forbidden: 'You do not have permission to do that.',
  otherOrganization: 'This link is for another organization.',
  notFound: 'Not found',
  internal: 'Something went wrong. Please try again.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  invalidJson: 'The request body is not valid JSON.',
  jsonRequired: 'Send the request body as JSON (Content-Type: application/json).',
  bodyTooLarge: 'The request body is too large (limit 1 MB).',
  multipartRequired: 'Send the request body as multipart/form-data.',
  invalidMultipart: 'The request body is not valid multipart/form-data.',
} as const;
