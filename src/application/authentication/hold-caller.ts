import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast, type Role } from '../../domain/role';
import type { UserRepository } from '../ports/repositories';
import { callerGone } from './caller-gone';

/**
 * The first step of work that grants something in the caller's name (an invite, a key, a revocation
 * under the owner-key rule, a module's write): inside its unit of work, read the caller's standing
 * again and hold it until the work commits. The role the request was authenticated with may be
 * moments old; a demotion or removal that committed since is seen here (403, or the credential's
 * 401 when the caller is gone), and one that commits later waits for this work and then sees what it
 * wrote (a demotion revokes the invites it left behind). Returns the role the caller holds now.
 */
export async function holdCaller(users: Pick<UserRepository, 'holdAuthState'>, caller: Principal, minimum: Role): Promise<Role> {
  const standing = await users.holdAuthState(caller.tenantId, caller.userId);
  if (!standing) throw callerGone(caller);
  assertRoleAtLeast(standing.role, minimum);
  return standing.role;
}
