import * as z from 'zod';
import type * as core from 'zod/v4/core';
import { HttpError } from './errors.ts';

// The shared contract is zod/mini, which carries no messages of its own; English defaults here.
z.config(z.locales.en());

/** Which part of the request a schema checks, named in messages when the issue has no path. */
export type InputPart = 'params' | 'query' | 'body';

const partNames: Record<InputPart, string> = { params: 'URL', query: 'Query', body: 'Request body' };

/**
 * Parses one part of a request. A failure is a 400 naming the first bad field and the schema's
 * own message (e.g. "email: Please enter a valid email address").
 */
export function parseInput<T>(part: InputPart, schema: core.$ZodType<T>, value: unknown): T {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.map(String).join('.') : partNames[part];
  throw new HttpError(400, `${field}: ${issue?.message ?? 'Invalid input'}`);
}
