/** SQLSTATE for unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Whether a driver error is a unique violation, optionally of one named constraint. node-postgres
 * and PGlite both throw errors carrying the server's `code` and `constraint` fields.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const fields = error as { code?: unknown; constraint?: unknown };
  return fields.code === UNIQUE_VIOLATION && (constraint === undefined || fields.constraint === constraint);
}
