import { API_KEY_RANDOM_BYTES, apiKeyLookupPrefix, composeApiKey } from '../domain/api-key';
import type { Principal } from '../domain/principal';
import { assertRoleAtLeast } from '../domain/role';
import type { Clock } from './ports/clock';
import type { IdGenerator } from './ports/ids';
import type { ApiKeyRepository } from './ports/repositories';
import type { Secrets } from './ports/secrets';

export interface CreatedApiKey {
  /** The raw key: shown to the caller once, never stored. */
  readonly apiKey: string;
  readonly prefix: string;
}

export interface CreateApiKeyDeps {
  readonly apiKeys: ApiKeyRepository;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

export class CreateApiKey {
  constructor(private readonly deps: CreateApiKeyDeps) {}

  async execute(caller: Principal): Promise<CreatedApiKey> {
    assertRoleAtLeast(caller.role, 'admin');
    const { apiKeys, ids, secrets, clock } = this.deps;
    const apiKey = composeApiKey(secrets.randomHex(API_KEY_RANDOM_BYTES));
    const prefix = apiKeyLookupPrefix(apiKey);
    await apiKeys.create({
      id: ids.newId(),
      tenantId: caller.tenantId,
      userId: caller.userId,
      keyPrefix: prefix,
      keyHash: secrets.sha256Hex(apiKey),
      revoked: false,
      createdAt: clock.now(),
    });
    return { apiKey, prefix };
  }
}
