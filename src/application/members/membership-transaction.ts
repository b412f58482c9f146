import { MemberNotFound } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { MembershipChange } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import type { User } from '../../domain/user';
import { callerGone } from '../authentication/caller-gone';
import type { Repositories } from '../ports/repositories';

export interface LockedMembership {
  readonly target: User;
  readonly change: MembershipChange;
}

/** A path id that cannot name a member is answered like an unknown one, before any transaction. */
export function memberIdOrThrow(raw: string): string {
  if (!isUuid(raw)) throw new MemberNotFound();
  return raw.toLowerCase();
}

/**
 * The first steps of every member change, inside its unit of work: lock the tenant's membership,
 * then read the caller, the target and the owner count under that lock. The caller's role is read
 * again rather than taken from the request, so two owners demoting each other at once are decided
 * on what each really is once the other has committed, and the tenant never loses its last owner.
 */
export async function lockMembership(tx: Repositories, caller: Principal, targetId: string): Promise<LockedMembership> {
  if (!(await tx.tenants.lockMembership(caller.tenantId))) throw callerGone(caller);
  const actor = await tx.users.findById(caller.tenantId, caller.userId);
  if (!actor) throw callerGone(caller);
  const target = await tx.users.findById(caller.tenantId, targetId);
  if (!target) throw new MemberNotFound();
  const ownerCount = await tx.users.countOwners(caller.tenantId);
  return { target, change: { callerRole: actor.role, targetRole: target.role, ownerCount } };
}

