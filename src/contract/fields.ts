import * as z from 'zod/mini';

/**
 * The building blocks every request schema uses for the values the database stores: text it can
 * hold, ids and amounts within its integer columns, and days that exist. A value outside them is a
 * 400 naming the field at validation, never a database error (a 500) later. The server's request
 * layer refuses NUL and lone surrogates in every part of every request as well (see
 * `server/http/validate.ts`), so a schema that says only `z.string()` is still safe.
 */

/** The largest value a PostgreSQL `integer`/`serial` column holds (ids, cents). */
export const maxInt32 = 2_147_483_647;

// Plain constants rather than one object, so the public elements' bundles keep only the ones they use.
const nulMessage = 'Text cannot contain NUL characters';
const surrogateMessage = 'Text cannot contain unpaired surrogate characters';
const idMessage = 'Expected a positive whole number';
const dayMessage = 'Expected a real date (YYYY-MM-DD)';
const dateTimeMessage = 'Expected a real date and time (YYYY-MM-DD HH:MM:SS)';

/** A UTF-16 surrogate without its partner: no UTF-8 text (so no database text) can hold it. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return nulMessage;
  if (loneSurrogate.test(value)) return surrogateMessage;
  return undefined;
}

/** PostgreSQL text cannot hold NUL characters; refuse them as input rather than fail on write. */
export const noNul = z.refine<string>((s) => !s.includes('\u0000'), nulMessage);
/** Nor can it hold a lone surrogate (UTF-8 has no encoding for one). */
export const wellFormed = z.refine<string>((s) => !loneSurrogate.test(s), surrogateMessage);

/** Text a column can hold: the given checks (trim, lengths…), then no NUL and no lone surrogate. */
export /* @__NO_SIDE_EFFECTS__ */ function safeText(...checks: z.core.$ZodCheck<string>[]) {
  return z.string().check(...checks, noNul, wellFormed);
}

/** A database id in a JSON body: a whole number from 1 to the column's largest. */
export /* @__NO_SIDE_EFFECTS__ */ function dbId(message: string = idMessage) {
  return z.number(message).check(z.int(message), z.gte(1, message), z.lte(maxInt32, message));
}

/** Dollars with at most two decimals whose cents fit an integer column. */
export const maxDollars = Math.floor(maxInt32 / 100);

/** A YYYY-MM-DD string naming a day that exists ('2026-02-30' and '0000-00-00' do not). */
export function isRealDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 02-30 over to March; the day must come back unchanged.
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value)
  );
}

/** A real day, YYYY-MM-DD. */
export const realDay = /* @__NO_SIDE_EFFECTS__ */ (message: string = dayMessage) =>
  z.string(message).check(z.refine(isRealDay, message));

const dateTimePattern =
  /^\d{4}-\d{2}-\d{2}(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
/** A real date with an optional time (ISO 8601 or 'YYYY-MM-DD HH:MM:SS'): the day and time exist. */
export function isRealDateTime(value: string): boolean {
  const m = dateTimePattern.exec(value);
  if (!m || !isRealDay(value.slice(0, 10))) return false;
  if (m[1] !== undefined && (Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59)) return false;
  return !Number.isNaN(Date.parse(value.replace(' ', 'T')));
}

/** A real date and time. */
export const realDateTime = /* @__NO_SIDE_EFFECTS__ */ (message: string = dateTimeMessage) =>
  z.string(message).check(z.refine(isRealDateTime, message));

/** A database id sent as a query value: digits, within the integer column's range. */
export /* @__NO_SIDE_EFFECTS__ */ function queryId(message: string) {
  return z.string().check(
    z.regex(/^[0-9]{1,10}$/, message),
    z.refine((s) => Number(s) >= 1 && Number(s) <= maxInt32, message),
  );
}
