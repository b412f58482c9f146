import type { Repositories } from '../ports/repositories';
import type { ScimCaller } from './scim-caller';
import { type ScimMember, scimMemberOrThrow } from './scim-members';

/** GET /Users/:id: one member of the token's tenant. */
export class GetScimUser {
  constructor(private readonly deps: { readonly repos: Pick<Repositories, 'users'> }) {}

  async execute(caller: ScimCaller, memberId: string): Promise<ScimMember> {
    return scimMemberOrThrow(this.deps.repos, caller.tenantId, memberId);
  }
}
