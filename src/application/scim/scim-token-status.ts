import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import type { ScimTokenRepository } from '../ports/scim-tokens';

export type ScimTokenStatus =
  | { readonly exists: false }
  | { readonly exists: true; readonly createdAt: Date; readonly lastUsedAt: Date | null };

/** GET /sso/scim-token: whether the tenant has a SCIM token, and when it was made and last used; never the token. */
export class GetScimTokenStatus {
  constructor(private readonly deps: { readonly scimTokens: ScimTokenRepository }) {}

  async execute(caller: Principal): Promise<ScimTokenStatus> {
    assertRoleAtLeast(caller.role, 'admin');
    const token = await this.deps.scimTokens.find(caller.tenantId);
    return token ? { exists: true, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt } : { exists: false };
  }
}
