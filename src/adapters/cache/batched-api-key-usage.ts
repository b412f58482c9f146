import type { ApiKeyUsage } from '../../application/ports/api-key-usage';
import type { Clock } from '../../application/ports/clock';
import type { ApiKeyRepository } from '../../application/ports/repositories';
import { API_KEY_USAGE_WRITE_INTERVAL_MS } from '../../domain/api-key';
import { BatchedLastUse, type LastUseOptions } from './batched-last-use';

export type KeyUsageOptions = LastUseOptions;

export const DEFAULT_KEY_USAGE: KeyUsageOptions = { intervalMs: API_KEY_USAGE_WRITE_INTERVAL_MS, keysPerStatement: 10_000, maxPending: 200_000 };

/** API keys' last_used_at, written in batches (batched-last-use.ts). */
export class BatchedApiKeyUsage extends BatchedLastUse implements ApiKeyUsage {
  constructor(
    apiKeys: Pick<ApiKeyRepository, 'markUsed'>,
    clock: Clock,
    onError: (error: unknown) => void,
    options: KeyUsageOptions = DEFAULT_KEY_USAGE,
  ) {
    super((uses) => apiKeys.markUsed(uses.map(({ tenantId, id, at }) => ({ tenantId, keyId: id, at }))), clock, onError, options);
  }
}
