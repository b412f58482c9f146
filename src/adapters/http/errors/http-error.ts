/** One field's complaint, as listed under `details` of a validation failure. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/**
 * A refusal the HTTP adapter decides on its own (unknown route, unreadable body, failed validation,
 * rate limit): it already knows its status. Domain rules never use it; they throw DomainError.
 */
export class HttpError extends Error {
  /** Sent as Retry-After by the error mapper, when the client is told to come back later. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly status: number,
    message: string,
    readonly details?: readonly FieldError[],
  ) {
    super(message);
  }
}

/** A rate limit was exceeded. The wording is our choice (docs/contract.md, "Errors and limits", leaves it open) and is kept stable. */
export class TooManyRequests extends HttpError {
  constructor(override readonly retryAfterSeconds: number) {
    super(429, `Too many requests, retry after ${retryAfterSeconds} seconds`);
  }
}

/** How long a client is asked to wait when a backing store (Redis) is down. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * A store a refusal depends on (rate-limit counters) failed. The request is refused, never let
 * through uncounted; the cause is kept for the log and never reaches the client.
 */
export class ServiceUnavailable extends HttpError {
  override readonly retryAfterSeconds = SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS;

  constructor(cause: unknown) {
    super(503, 'Service unavailable');
    this.cause = cause;
  }
}
