import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import { ServiceUnavailable } from './http-error';

async function guarded<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ServiceUnavailable ? error : new ServiceUnavailable(error);
  }
}

/**
 * Wraps a limiter's store so that its failures fail closed, as a 503 with Retry-After rather than
 * the store's raw error (an opaque 500) or a silent pass. express-rate-limit only passes requests on
 * a store error when `passOnStoreError` is true; we leave it false and give the error a meaning.
 *
 * An increment that comes back without a usable count is a failure too: the library compares
 * `totalHits > limit`, and a NaN there would let every request through.
 */
export class FailClosedStore implements Store {
  readonly localKeys: boolean | undefined;
  readonly prefix: string | undefined;

  constructor(private readonly inner: Store) {
    // Read by the library's double-counting check: it must see the wrapped store's identity.
    this.localKeys = inner.localKeys;
    this.prefix = inner.prefix;
  }

  init(options: Options): void | Promise<void> {
    return this.inner.init?.(options);
  }

  async increment(key: string): Promise<IncrementResponse> {
    const result = await guarded(() => this.inner.increment(key));
    const hits: unknown = result?.totalHits;
    if (typeof hits !== 'number' || !Number.isSafeInteger(hits) || hits < 1) {
      throw new ServiceUnavailable(new Error(`rate-limit store returned an unusable count: ${String(hits)}`));
    }
    return result;
  }

  async decrement(key: string): Promise<void> {
    await guarded(() => this.inner.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    await guarded(() => this.inner.resetKey(key));
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { inner } = this;
    return inner.get ? guarded(() => inner.get!(key)) : undefined;
  }

  async shutdown(): Promise<void> {
    await this.inner.shutdown?.();
  }
}
