import { normalizeEmail } from '../../domain/email';
import type { UserRepository } from '../ports/repositories';
import type { ScimCaller } from './scim-caller';
import type { ScimMember } from './scim-members';

export interface ScimUserQuery {
  /** `filter=userName eq "..."`: the member with that address, if any. */
  readonly userName?: string | undefined;
  /** 1-based, as SCIM counts. */
  readonly startIndex: number;
  readonly count: number;
}

export interface ScimUserPage {
  readonly totalResults: number;
  readonly members: readonly ScimMember[];
}

/** GET /Users: the token's tenant's members (suspended ones included), oldest first, one page of them. */
export class ListScimUsers {
  constructor(private readonly deps: { readonly users: UserRepository }) {}

  async execute(caller: ScimCaller, query: ScimUserQuery): Promise<ScimUserPage> {
    const { users } = this.deps;
    let matching;
    if (query.userName === undefined) {
      matching = await users.listMembers(caller.tenantId);
    } else {
      const found = await users.findInTenantByEmail(caller.tenantId, normalizeEmail(query.userName));
      matching = found ? [found] : [];
    }
    const suspensions = await users.suspensions(caller.tenantId);
    const page = matching.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
    return { totalResults: matching.length, members: page.map((user) => ({ user, suspendedAt: suspensions.get(user.id) ?? null })) };
  }
}
