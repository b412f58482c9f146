import { STATUS_CODES } from 'node:http';
import { LoginThrottleUnavailable } from '../../../application/ports/login-throttle';
import { StorageUnavailable } from '../../../application/ports/storage-unavailable';
import { DomainError, type ErrorCodesOf, TooManyFailedLogins } from '../../../domain/errors';
import type * as identityErrors from '../../../domain/errors';
import { HttpError, ServiceUnavailable, type FieldError } from './http-error';
import type { NodeErrorHandler, NodeRequest } from '../fast-path/node-handler';
import { sendJson } from '../fast-path/send-json';

export interface ErrorResponse {
  readonly status: number;
  readonly body: { readonly error: string; readonly details?: readonly FieldError[] };
  /** Set only when the client is told when to come back (429, 503). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The code of every DomainError that src/domain/errors.ts exports. */
export type IdentityErrorCode = ErrorCodesOf<typeof identityErrors>;

/** What a module maps its own error codes to (modules declare theirs; see PortcullisModule.errors). */
export type ErrorStatuses = Readonly<Record<string, number>>;

/**
 * The contract's status for every domain rule; the message is the error's own (part 7). Keyed by
 * the code union, so an error class added to errors.ts without a status here does not compile.
 */
const DOMAIN_STATUS: Readonly<Record<IdentityErrorCode, number>> = {
  EMAIL_ALREADY_REGISTERED: 409,
  INVALID_INVITE_TOKEN: 400,
  INVITE_ALREADY_ACCEPTED: 400,
  INVITE_EXPIRED: 400,
  TENANT_NAME_REQUIRED: 400,
  INVALID_CREDENTIALS: 401,
  INVALID_API_KEY_FORMAT: 401,
  INVALID_API_KEY: 401,
  INVALID_TOKEN: 401,
  MISSING_AUTHENTICATION: 401,
  INSUFFICIENT_ROLE: 403,
  INVITE_NOT_FOUND: 404,
  INVALID_AUDIT_CURSOR: 400,
  TOO_MANY_FAILED_LOGINS: 429,
  API_KEY_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  ROLE_ABOVE_OWN: 403,
  OWNER_ROLE_REQUIRED: 403,
  OWNER_KEY_REQUIRES_OWNER: 403,
  CURRENT_PASSWORD_INCORRECT: 403,
  LAST_OWNER: 409,
  INVALID_SERVICE_KEY: 401,
};

/** Identity's error codes: a product module may not reuse one (composeModules checks). */
export function isIdentityErrorCode(code: string): boolean {
  return Object.hasOwn(DOMAIN_STATUS, code);
}

/**
 * body-parser reports through http-errors with a `type`; the ones a client can cause get our own
 * wording, so no parser internals (or the JSON.parse position text) reach the response.
 */
const BODY_PARSER_ERRORS: Readonly<Record<string, { status: number; error: string }>> = {
  'entity.parse.failed': { status: 400, error: 'Malformed JSON body' },
  'entity.too.large': { status: 413, error: 'Request body too large' },
  'charset.unsupported': { status: 415, error: 'Unsupported charset: use UTF-8' },
  'encoding.unsupported': { status: 415, error: 'Unsupported content encoding' },
  'request.size.invalid': { status: 400, error: 'Request body length does not match Content-Length' },
  'request.aborted': { status: 400, error: 'Request aborted' },
};

const INTERNAL: ErrorResponse = { status: 500, body: { error: 'Internal server error' } };

function propertyOf(err: unknown, name: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[name] : undefined;
}

function retryAfter(seconds: number | undefined): Pick<ErrorResponse, 'headers'> {
  return seconds === undefined ? {} : { headers: { 'Retry-After': String(seconds) } };
}

/**
 * Null when the error is not one we can explain to the client: the caller logs it and answers 500.
 * `moduleStatuses` are the product modules' own codes (composeModules refuses one that repeats a code).
 */
export function describeError(err: unknown, moduleStatuses: ErrorStatuses = {}): ErrorResponse | null {
  if (err instanceof HttpError) {
    return {
      status: err.status,
      body: err.details ? { error: err.message, details: err.details } : { error: err.message },
      ...retryAfter(err.retryAfterSeconds),
    };
  }
  if (err instanceof DomainError) {
    const status = Object.hasOwn(DOMAIN_STATUS, err.code)
      ? DOMAIN_STATUS[err.code as IdentityErrorCode]
      : Object.hasOwn(moduleStatuses, err.code) ? moduleStatuses[err.code] : undefined;
    if (status === undefined) return null;
    return { status, body: { error: err.message }, ...retryAfter(err instanceof TooManyFailedLogins ? err.retryAfterSeconds : undefined) };
  }
  // The per-account throttle could not be asked: refuse the login as the rate limiters refuse a
  // request when their store is down, never let it through unthrottled.
  if (err instanceof LoginThrottleUnavailable) return describeError(new ServiceUnavailable(err));
  // The database is down or not answering: the same refusal, so clients retry rather than give up.
  if (err instanceof StorageUnavailable) return describeError(new ServiceUnavailable(err));
  const type = propertyOf(err, 'type');
  const fromParser = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
  if (fromParser) return { status: fromParser.status, body: { error: fromParser.error } };
  // Other client errors raised inside Express itself (a path param with broken percent-encoding is a
  // 400 URIError): answered with the status's own phrase, since their messages are not for clients.
  const status = propertyOf(err, 'status');
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
    return { status, body: { error: STATUS_CODES[status] ?? 'Bad request' } };
  }
  return null;
}

/**
 * The one place that turns errors into responses. Anything unexplained is logged, never echoed; so
 * is every explained server-side failure (a 503 for a store that is down), which operators must see.
 */
export function errorMapper(log: (err: unknown, req?: NodeRequest) => void, moduleStatuses: ErrorStatuses = {}): NodeErrorHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      log(err, req);
      next(err); // too late to answer: Express's default handler closes the connection
      return;
    }
    const described = describeError(err, moduleStatuses);
    if (!described || described.status >= 500) log(err, req);
    const { status, body, headers } = described ?? INTERNAL;
    sendJson(res, status, body, headers);
  };
}
