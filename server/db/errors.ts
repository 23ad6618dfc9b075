/**
 * Whether a database error is a unique-index violation (SQLSTATE 23505), of `constraint` when one
 * is named. node-postgres puts the fields on the error; drizzle may wrap it, with the driver's
 * error as `cause` (PGlite's too).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const fields = (e: unknown) => (e ?? {}) as { code?: string; constraint?: string; cause?: unknown };
  const own = fields(error);
  const found = own.code === '23505' ? own : fields(own.cause);
  return found.code === '23505' && (constraint === undefined || found.constraint === constraint);
}
