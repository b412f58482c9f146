import { STATUS_CODES } from 'node:http';
import { LoginThrottleUnavailable } from '../../../application/ports/login-throttle';
import { StorageUnavailable } from '../../../application/ports/storage-unavailable';
import { AuthenticationUnavailable, DomainError, TooManyFailedLogins } from '../../../domain/errors';
import { HttpError, ServiceUnavailable, type FieldError } from './http-error';
import type { NodeErrorHandler, NodeRequest } from '../fast-path/node-handler';
import { sendJson } from '../fast-path/send-json';

export interface ErrorResponse {
  readonly status: number;
  readonly body: { readonly error: string; readonly details?: readonly FieldError[]; readonly [field: string]: unknown };
  /** Set only when the client is told when to come back (429, 503). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * How one error code is answered and recorded: its HTTP status (the message is the error's own), and
 * what a refusal of an authenticated caller records in the audit trail. Identity keeps one record per
 * code (identity-errors.ts), and so does every product module (PortcullisModule.errors).
 */
export interface ErrorAnswer {
  readonly status: number;
  /** A not-found answer that means "that record is not in your tenant": the record's kind, recorded as `access.denied`. */
  readonly notInTenant?: string;
  /** A 403 from a rule on roles inside a member change (not from the route's guard): recorded as `access.denied` with the rule. */
  readonly roleRule?: true;
}

/** Every code the service answers, identity's and the modules', merged (composeModules refuses a repeated code). */
export type ErrorTable = Readonly<Record<string, ErrorAnswer>>;

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

/** Fields a domain error adds to its answer's body beside `error` (SecondFactorRequired's mfa_token and methods). */
function answerFieldsOf(err: DomainError): Readonly<Record<string, unknown>> {
  const fields = propertyOf(err, 'answerFields');
  return typeof fields === 'object' && fields !== null ? fields as Record<string, unknown> : {};
}

/** Null when the error is not one we can explain to the client: the caller logs it and answers 500. */
export function describeError(err: unknown, errors: ErrorTable): ErrorResponse | null {
  if (err instanceof HttpError) {
    return {
      status: err.status,
      body: err.details ? { error: err.message, details: err.details } : { error: err.message },
      ...retryAfter(err.retryAfterSeconds),
    };
  }
  if (err instanceof DomainError) {
    const status = Object.hasOwn(errors, err.code) ? errors[err.code]!.status : undefined;
    if (status === undefined) return null;
    return { status, body: { error: err.message, ...answerFieldsOf(err) }, ...retryAfter(err instanceof TooManyFailedLogins || err instanceof AuthenticationUnavailable ? err.retryAfterSeconds : undefined) };
  }
  // The per-account throttle could not be asked: refuse the login as the rate limiters refuse a
  // request when their store is down, never let it through unthrottled.
  if (err instanceof LoginThrottleUnavailable) return describeError(new ServiceUnavailable(err), errors);
  // The database is down or not answering: the same refusal, so clients retry rather than give up.
  if (err instanceof StorageUnavailable) return describeError(new ServiceUnavailable(err), errors);
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
export function errorMapper(log: (err: unknown, req?: NodeRequest) => void, errors: ErrorTable): NodeErrorHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      log(err, req);
      next(err); // too late to answer: Express's default handler closes the connection
      return;
    }
    const described = describeError(err, errors);
    // A domain rule answered 503 (mail not configured) is the service's set-up, not a failure to log.
    if (!described || (described.status >= 500 && !(err instanceof DomainError))) log(err, req);
    const { status, body, headers } = described ?? INTERNAL;
    sendJson(res, status, body, headers);
  };
}
