import type { ApiKey } from '../../domain/api-key';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import type { ApiKeyRepository } from '../ports/repositories';

/** What the list shows of a key: never its hash (and the raw key is not stored at all). */
export type ApiKeySummary = Omit<ApiKey, 'keyHash' | 'tenantId'>;

export interface ListApiKeysDeps {
  readonly apiKeys: ApiKeyRepository;
}

export class ListApiKeys {
  constructor(private readonly deps: ListApiKeysDeps) {}

  async execute(caller: Principal): Promise<ApiKeySummary[]> {
    assertRoleAtLeast(caller.role, 'admin');
    const keys = await this.deps.apiKeys.listForTenant(caller.tenantId);
    return keys.map(({ keyHash: _hash, tenantId: _tenant, ...summary }) => summary);
  }
}
