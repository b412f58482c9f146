import type { Principal } from '../../domain/principal';
import { callerGone } from '../authentication/caller-gone';
import type { TenantRepository, UserRepository } from '../ports/repositories';

/** What a person is shown of themselves: who they are and which organisation they act in. */
export interface Account {
  readonly userId: string;
  readonly email: string;
  readonly role: string;
  readonly tenantId: string;
  readonly tenantName: string;
  /** Whether the current address was proven (a verification, reset or change link reached it). */
  readonly emailVerified: boolean;
}

export interface GetAccountDeps {
  readonly users: Pick<UserRepository, 'findById' | 'emailVerifiedAt'>;
  readonly tenants: Pick<TenantRepository, 'findById'>;
}

/**
 * Any authenticated caller's own account. The e-mail and role are read from the member as stored
 * now, not from the token: a token's claims are only what was true when it was issued. A caller
 * removed since authentication is refused as their credential is (callerGone), never answered with
 * an empty account.
 */
export class GetAccount {
  constructor(private readonly deps: GetAccountDeps) {}

  async execute(caller: Principal): Promise<Account> {
    const [user, tenant, verifiedAt] = await Promise.all([
      this.deps.users.findById(caller.tenantId, caller.userId),
      this.deps.tenants.findById(caller.tenantId),
      this.deps.users.emailVerifiedAt(caller.tenantId, caller.userId),
    ]);
    if (!user || !tenant) throw callerGone(caller);
    return {
      userId: user.id, email: user.email, role: user.role, tenantId: tenant.id, tenantName: tenant.name, emailVerified: verifiedAt !== null,
    };
  }
}
