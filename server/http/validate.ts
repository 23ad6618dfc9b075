import * as z from 'zod';
import type * as core from 'zod/v4/core';
import { textProblem } from '../../src/contract/fields.ts';
import { HttpError } from './errors.ts';

// The shared contract is zod/mini, which carries no messages of its own; English defaults here.
z.config(z.locales.en());

/** Which part of the request a schema checks, named in messages when the issue has no path. */
export type InputPart = 'params' | 'query' | 'body';

const partNames: Record<InputPart, string> = { params: 'URL', query: 'Query', body: 'Request body' };

export const inputMessages = {
  badKey: 'Field names cannot contain NUL or unpaired surrogate characters',
  badEncoding: 'Not valid percent-encoded UTF-8',
} as const;

/**
 * Parses one part of a request. A failure is a 400 naming the first bad field and the schema's
 * own message (e.g. "email: Please enter a valid email address").
 *
 * Before any schema runs, every string of the part (values and keys, at any depth) must be text
 * a database column can hold: no NUL, no lone surrogate. So even a route whose schema says only
 * `z.string()` never hands such text to PostgreSQL (which fails on it with a 500).
 */
export function parseInput<T>(part: InputPart, schema: core.$ZodType<T>, value: unknown): T {
  assertStorableText(part, value);
  let result: z.ZodSafeParseResult<T>;
  try {
    result = z.safeParse(schema, value);
  } catch {
    // A check that throws on what it was given (e.g. a date it cannot convert) refuses it.
    throw new HttpError(400, `${partNames[part]}: Invalid input`);
  }
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? fieldName(issue.path) : partNames[part];
  throw new HttpError(400, `${field}: ${issue?.message ?? 'Invalid input'}`);
}

/** A field's path as messages show it, with characters no text can hold shown as U+FFFD. */
function fieldName(path: readonly PropertyKey[]): string {
  return (
    path
      .map(String)
      .join('.')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is being masked.
      .replace(/[\u0000\ud800-\udfff]/g, (ch, offset: number, all: string) => {
        // Keep well-formed pairs (emoji), replace lone halves and NUL.
        const code = ch.charCodeAt(0);
        if (code >= 0xd800 && code <= 0xdbff) {
          const next = all.charCodeAt(offset + 1);
          return next >= 0xdc00 && next <= 0xdfff ? ch : '\ufffd';
        }
        if (code >= 0xdc00 && code <= 0xdfff) {
          const prev = all.charCodeAt(offset - 1);
          return prev >= 0xd800 && prev <= 0xdbff ? ch : '\ufffd';
        }
        return '\ufffd';
      })
  );
}

type Node = { value: unknown; key: PropertyKey | undefined; parent: Node | undefined };

function pathOf(node: Node): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Refuses (400, naming the field) the first string in a request part, keys included, that no
 * text column can hold. Walks without recursion, so a deeply nested body cannot overflow the stack.
 */
export function assertStorableText(part: InputPart, value: unknown): void {
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  const fail = (node: Node, message: string): never => {
    const path = pathOf(node);
    throw new HttpError(400, `${path.length ? fieldName(path) : partNames[part]}: ${message}`);
  };
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) fail(node, problem);
    } else if (typeof File !== 'undefined' && v instanceof File) {
      const problem = textProblem(v.name);
      if (problem) fail(node, `${problem} (file name)`);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: node });
    } else if (v !== null && typeof v === 'object' && !(v instanceof Blob)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        const child_ = { value: child, key, parent: node };
        if (textProblem(key)) fail(child_, inputMessages.badKey);
        stack.push(child_);
      }
    }
  }
}

/**
 * Refuses a URL whose path segments or query pairs are not valid percent-encoded UTF-8 (a lone
 * surrogate or a cut-off character, `%ED%A0%80`, `%zz`): decoders leave such text raw, and it
 * would reach the handler as something the caller did not send.
 */
export function assertUrlEncoding(url: string, routePath: string): void {
  const parsed = new URL(url);
  const names = routePath.split('/');
  parsed.pathname.split('/').forEach((segment, i) => {
    if (!decodes(segment)) {
      const declared = names[i] ?? '';
      const name = declared.startsWith(':') ? declared.slice(1) : partNames.params;
      throw new HttpError(400, `${name}: ${inputMessages.badEncoding}`);
    }
  });
  for (const pair of parsed.search.slice(1).split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = at === -1 ? pair : pair.slice(0, at);
    const value = at === -1 ? '' : pair.slice(at + 1);
    if (!decodes(key)) throw new HttpError(400, `${partNames.query}: ${inputMessages.badEncoding}`);
    if (!decodes(value)) {
      const name = fieldName([decodeURIComponent(key.replace(/\+/g, ' '))]);
      throw new HttpError(400, `${name}: ${inputMessages.badEncoding}`);
    }
  }
}

function decodes(raw: string): boolean {
  try {
    decodeURIComponent(raw.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}
