import type { IncrementResponse, Options } from 'express-rate-limit';
import type { CountingStore } from './fixed-window-limiter';
import { ServiceUnavailable } from '../errors/http-error';

function unavailable(error: unknown): ServiceUnavailable {
  return error instanceof ServiceUnavailable ? error : new ServiceUnavailable(error);
}

/** A count that is not a positive whole number is a failure: compared with the limit, a NaN passes. */
function usableCount(result: IncrementResponse | undefined): IncrementResponse {
  const hits: unknown = result?.totalHits;
  if (typeof hits !== 'number' || !Number.isSafeInteger(hits) || hits < 1) {
    throw new ServiceUnavailable(new Error(`rate-limit store returned an unusable count: ${String(hits)}`));
  }
  return result!;
}

/**
 * Wraps a limiter's store so that its failures fail closed, as a 503 with Retry-After rather than
 * the store's raw error (an opaque 500) or a silent pass.
 *
 * An increment that comes back without a usable count is a failure too: the limiter compares
 * `totalHits > limit`, and a NaN there would let every request through.
 */
export class FailClosedStore implements CountingStore {
  constructor(private readonly inner: CountingStore) {}

  init(options: Options): void | Promise<void> {
    return this.inner.init?.(options);
  }

  // Every request of every limiter comes through here, so without the async wrappers' extra ticks.
  increment(key: string): Promise<IncrementResponse> {
    let counted: Promise<IncrementResponse>;
    try {
      counted = Promise.resolve(this.inner.increment(key));
    } catch (error) {
      return Promise.reject(unavailable(error));
    }
    return counted.then(usableCount, (error: unknown) => {
      throw unavailable(error);
    });
  }
}
