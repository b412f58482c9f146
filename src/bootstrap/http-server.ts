import { createServer, type Server } from 'node:http';

export interface HttpServerTimeouts {
  /** From the connection (or the end of the previous request) to a request's last header line. */
  readonly headersTimeoutMs: number;
  /** From the same start to the request's last body byte. */
  readonly requestTimeoutMs: number;
}

/** How long an idle keep-alive connection is kept for the client's next request. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Node looks for overdue requests only this often; at its default (30 s) a 10 s limit could take 40. */
const MAX_CHECKING_INTERVAL_MS = 1_000;

/**
 * The service's HTTP server (the main port, and the metrics port). A client that sends its headers
 * or its body a byte at a time would otherwise hold a connection (and a socket, and memory) for as
 * long as it likes: Node answers 408 and closes it once either limit has passed.
 */
export function createHttpServer(timeouts: HttpServerTimeouts): Server {
  return createServer({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(MAX_CHECKING_INTERVAL_MS, timeouts.headersTimeoutMs),
  });
}
