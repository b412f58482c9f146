import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { NodeHandler } from '../fast-path/node-handler';
import { answerRequestId } from './request-id';
import { contextOf } from '../request-context';

/**
 * The request headers whose values the debug level writes. Every other header present is written
 * by name with the value "[Redacted]": an allow-list, because a credential can travel in any header
 * (x-service-key, a proxy's or a product team's own token header, a Referer holding an invitation
 * link), and a deny-list only ever names the ones someone thought of.
 */
export const LOGGED_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'accept-encoding', 'accept-language', 'access-control-request-headers', 'access-control-request-method',
  'cache-control', 'connection', 'content-encoding', 'content-length', 'content-type', 'expect', 'forwarded', 'host',
  'origin', 'transfer-encoding', 'user-agent', 'via', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
  'x-request-id',
]);

export const REDACTED = '[Redacted]';

/** What the debug level writes of a request's headers: allow-listed values, every other header by name only. */
export function loggableHeaders(headers: IncomingMessage['headers']): Record<string, string | string[] | undefined> {
  const logged: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) logged[name] = LOGGED_HEADERS.has(name) ? value : REDACTED;
  return logged;
}

/**
 * Paths pino replaces with "[Redacted]" in every line the service logs. The request line itself
 * holds no body or URL, and its headers only through loggableHeaders; these guard any object logged
 * elsewhere that carries a credential, at the top level or under `body` or `headers`. Exact paths,
 * no wildcards: pino checks them on every line, and a `*.password` path walks every key of every
 * line, which costs about as much as the rest of the line (docs/benchmarks.md).
 */
export const REDACT_PATHS: readonly string[] = [
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["x-service-key"]',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
  'err.body', // body-parser keeps the raw body of a request it could not parse
  ...['password', 'token', 'invite_token', 'api_key', 'inviteToken', 'apiKey'].flatMap((field) => [field, `body.${field}`]),
];

interface RequestLine {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  tenantId?: string;
  userId?: string;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * One line per request, written when the response has finished (or the client has gone): method,
 * route pattern, status, duration, the caller's tenant and user once authenticated, under the
 * request's id. Every line logged through `req.log` while the request runs carries the same id.
 *
 * Kept cheap, as every request passes here: the per-request child logger's only binding is the id
 * (serialised once, a string), and the line is a flat object built from values already at hand. At
 * debug level the request headers are added: the allow-listed values, the rest by name (loggableHeaders).
 */
export function requestLog(logger: Logger): NodeHandler {
  const withHeaders = logger.isLevelEnabled('debug');
  const line = (req: IncomingMessage, res: ServerResponse, durationMs: number): RequestLine => {
    const { route, principal } = contextOf(req);
    const entry: RequestLine = { method: req.method ?? '', route, status: res.statusCode, durationMs };
    if (principal) {
      entry.tenantId = principal.tenantId;
      entry.userId = principal.userId;
    }
    if (withHeaders) entry.headers = loggableHeaders(req.headers);
    return entry;
  };
  const middleware = pinoHttp({
    logger,
    genReqId: answerRequestId,
    // The child logger's one binding: the request, serialised to its id alone.
    customAttributeKeys: { req: 'reqId' },
    wrapSerializers: false,
    serializers: { reqId: (req: IncomingMessage) => req.id },
    customLogLevel: (_req, res) => (res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, res, value: { responseTime: number }) => line(req, res, value.responseTime),
    customErrorObject: (req, res, _error, value: { responseTime: number }) => line(req, res, value.responseTime),
  });
  return middleware as NodeHandler;
}
