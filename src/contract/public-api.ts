import * as z from 'zod/mini';
import { deadlineRules, matchMethods, programStates } from './companies.ts';
import { Donation, DonationWrite } from './donations.ts';

/**
 * The public API (`/api/v1`): what partner platforms and CRMs send and receive with an API key.
 * The routes validate with these schemas and the OpenAPI document at /api/v1/openapi.json is
 * generated from them.
 */

/** A gift to be matched: the fields of a staff create, and optionally which chapter it is for. */
export const ApiMatchCreate = z.extend(z.omit(DonationWrite, { id: true, reprocess: true }), {
  /** The key's organization (the default) or one of its chapters. */
  organization_id: z.optional(z.number().check(z.int(), z.positive(), z.lte(2_147_483_647))),
});
export type ApiMatchCreate = z.infer<typeof ApiMatchCreate>;

export const ApiMatchResponse = z.object({ donation: Donation });

/** spec: "Default page size 50". */
export const apiDefaultPageSize = 50;
export const apiMaxPageSize = 100;

const digits = /* @__NO_SIDE_EFFECTS__ */ (name: string, max: number) =>
  z.string().check(
    z.regex(/^[0-9]{1,10}$/, `${name} must be a whole number`),
    z.refine((s) => Number(s) >= 1 && Number(s) <= max, `${name} must be from 1 to ${max}`),
  );

export const ApiMatchListQuery = z.object({
  /** A status id (see the statuses of the portal's donations table). */
  status: z.optional(digits('status', 1000)),
  /** Part of the company's name (case-insensitive). */
  company: z.optional(z.string().check(z.maxLength(200, 'company can be at most 200 characters'))),
  /** Only matches changed at or after this time (ISO 8601, e.g. 2025-03-01T00:00:00Z). */
  updated_since: z.optional(
    z.string().check(
      z.maxLength(40),
      z.refine(
        (s) =>
          /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)),
        'updated_since must be an ISO 8601 date or date and time',
      ),
    ),
  ),
  /** The next_cursor of the previous page. */
  cursor: z.optional(z.string().check(z.maxLength(100))),
  limit: z.optional(digits('limit', apiMaxPageSize)),
});
export type ApiMatchListQuery = z.infer<typeof ApiMatchListQuery>;

export const ApiMatchList = z.object({
  data: z.array(Donation),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});
export type ApiMatchList = z.infer<typeof ApiMatchList>;

export const ApiCompanyQuery = z.object({
  q: z
    .string()
    .check(
      z.trim(),
      z.minLength(3, 'q must be at least 3 characters'),
      z.maxLength(200, 'q can be at most 200 characters'),
    ),
});

/** An employer and its matching program: how to ask, the ratio, the limits and the deadline. */
export const ApiCompany = z.object({
  id: z.number(),
  name: z.string(),
  program: z.enum(programStates),
  match_method: z.nullable(z.enum(matchMethods)),
  /** Company dollars per donor dollar. */
  match_ratio: z.number(),
  /** Dollars, or null when the program sets none. */
  minimum_match: z.nullable(z.number()),
  maximum_match: z.nullable(z.number()),
  deadline: z.object({ rule: z.enum(deadlineRules), days: z.nullable(z.number()) }),
  url: z.nullable(z.string()),
});
export type ApiCompany = z.infer<typeof ApiCompany>;
export const ApiCompanyList = z.object({ data: z.array(ApiCompany) });
