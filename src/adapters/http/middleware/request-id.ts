import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeHandler } from '../fast-path/node-handler';

export const REQUEST_ID_HEADER = 'x-request-id';

// Letters, digits and the punctuation of common id formats (UUID, ULID, trace ids), nothing that
// could break a log line or a header; long enough for a UUID with a prefix, short enough to bound a log.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id a request is logged and answered under: the caller's x-request-id when it looks like an id
 * (a load balancer or another service set it, and keeping it joins their logs to ours), otherwise a
 * new UUID. A header sent twice arrives as one comma-joined string, which is refused like any other.
 */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTABLE_ID.test(header) ? header : randomUUID();
}

/**
 * Without a request log (pino-http assigns ids as it logs), ids are still assigned and returned: the
 * audit trail records them and clients quote them, whether or not this instance logs requests.
 */
export function assignRequestId(): NodeHandler {
  return (req, res, next) => {
    (req as { id?: string }).id = answerRequestId(req, res);
    next();
  };
}

/** The request's id (requestIdFor), set on the response's x-request-id header. */
export function answerRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdFor(req.headers[REQUEST_ID_HEADER]);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
