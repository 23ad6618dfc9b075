import * as z from 'zod';

/** The largest id a PostgreSQL `integer`/`serial` column holds. */
export const maxId = 2_147_483_647;

/** A database id in a path segment: digits only, within the column's range. */
export const idSegment = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'Expected a positive whole number')
  .transform(Number)
  .refine((n) => n >= 1 && n <= maxId, 'Expected a positive whole number');

export const IdParams = z.object({ id: idSegment });

/** For organization-scoped routes whose path carries the organization as `:id`. */
export const orgFromIdParam = (input: { params: { id: number } }) => input.params.id;
