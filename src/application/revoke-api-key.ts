import { ApiKeyNotFound } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { Principal } from '../domain/principal';
import { assertRoleAtLeast } from '../domain/role';
import type { CredentialStates } from './ports/credential-states';
import type { UnitOfWork } from './ports/unit-of-work';

export interface RevokeApiKeyDeps {
  readonly unitOfWork: UnitOfWork;
  readonly credentials: CredentialStates;
}

/** Revokes a key of the caller's tenant; the record stays. Revoking a revoked key again is not an error. */
export class RevokeApiKey {
  constructor(private readonly deps: RevokeApiKeyDeps) {}

  async execute(caller: Principal, keyId: string): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    if (!isUuid(keyId)) throw new ApiKeyNotFound();
    const id = keyId.toLowerCase();
    // In a unit of work so that the revocation and its announcement to other instances commit together.
    const found = await this.deps.unitOfWork.run((tx) => tx.apiKeys.revoke(caller.tenantId, id));
    if (!found) throw new ApiKeyNotFound();
    this.deps.credentials.forget({ kind: 'api-key', keyId: id });
  }
}
