import { LRUCache } from 'lru-cache';
import type { ApiKeyUsage } from '../../application/ports/api-key-usage';
import type { ApiKeyRepository } from '../../application/ports/repositories';
import { API_KEY_USAGE_WRITE_INTERVAL_MS } from '../../domain/api-key';

export interface KeyUsageOptions {
  readonly intervalMs: number;
  /** Keys remembered as recently written; past it, the least recent may be written again early. */
  readonly maxKeys: number;
}

const DEFAULTS: KeyUsageOptions = { intervalMs: API_KEY_USAGE_WRITE_INTERVAL_MS, maxKeys: 10_000 };

/**
 * Writes a key's last_used_at at most once per interval per instance (so with N instances, at most
 * N writes a minute per key), after the request's own work: the write is started from setImmediate
 * and never awaited by the request. A failed write is handed to `onError` and forgotten.
 */
export class ThrottledApiKeyUsage implements ApiKeyUsage {
  private readonly written: LRUCache<string, true>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly apiKeys: Pick<ApiKeyRepository, 'markUsed'>,
    private readonly onError: (error: unknown) => void,
    options: KeyUsageOptions = DEFAULTS,
  ) {
    this.written = new LRUCache({ max: options.maxKeys, ttl: options.intervalMs });
  }

  recordUse(tenantId: string, keyId: string, at: Date): void {
    if (this.written.has(keyId)) return;
    this.written.set(keyId, true);
    setImmediate(() => {
      const write = this.apiKeys.markUsed(tenantId, keyId, at).catch(this.onError);
      this.inFlight.add(write);
      void write.finally(() => this.inFlight.delete(write));
    });
  }

  /** Resolves once every write started so far has finished: for shutdown and tests. */
  async settled(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...this.inFlight]);
  }
}
