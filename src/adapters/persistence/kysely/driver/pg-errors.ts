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

/** SQLSTATE for insufficient_privilege: a grant the login lacks. */
const INSUFFICIENT_PRIVILEGE = '42501';

export function isInsufficientPrivilege(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE;
}

/**
 * SQLSTATEs that say "the server, not the statement": class 08 (connection exception) by prefix,
 * the shutdown and start-up states of class 57, too many connections, and query_canceled, which is
 * what statement_timeout raises (a statement that overran is a slow or stuck server, not a bad request).
 */
const UNAVAILABLE_SQLSTATE_PREFIX = '08';
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout
]);

/** Socket errors from Node (the `code` of a system error) when the server cannot be reached. */
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH',
  'ENOTFOUND', 'EAI_AGAIN',
]);

/**
 * node-postgres and pg-pool report a lost or never-made connection with a plain Error and no code;
 * their messages are the only mark. Matched from the start, so a server's own error text cannot.
 */
const UNAVAILABLE_DRIVER_MESSAGES = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect/, // the pool's connectionTimeoutMillis
  /^Query read timeout/, // the client's query_timeout
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

/**
 * Whether a driver error means the database is unreachable or not answering, as opposed to a
 * statement it refused. Looks through an AggregateError (Node tries every address of a host name)
 * and one level of `cause`.
 */
export function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const fields = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof fields.code === 'string') {
    if (fields.code.startsWith(UNAVAILABLE_SQLSTATE_PREFIX) && fields.code.length === 5) return true;
    if (UNAVAILABLE_SQLSTATES.has(fields.code) || UNAVAILABLE_SYSTEM_CODES.has(fields.code)) return true;
  }
  if (typeof fields.message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.some((pattern) => pattern.test(fields.message as string))) {
    return true;
  }
  if (Array.isArray(fields.errors) && fields.errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return fields.cause !== undefined && isConnectionFailure(fields.cause, depth + 1);
}
