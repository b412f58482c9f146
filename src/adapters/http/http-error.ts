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
  constructor(
    readonly status: number,
    message: string,
    readonly details?: readonly FieldError[],
  ) {
    super(message);
  }
}
