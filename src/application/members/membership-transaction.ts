import { MemberNotFound } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import { invitesOutranking, type MembershipChange } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import type { User } from '../../domain/user';
import { callerGone } from '../authentication/caller-gone';
import type { Role } from '../../domain/role';
import type { AuditActor, AuditTrail, RequestOrigin } from '../audit/audit-trail';
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
  return { target, change: { callerRole: actor.role, targetRole: target.role, ownerCount: await ownersBeside(tx, caller.tenantId, target) } };
}

/**
 * The owners a membership rule counts: those who can act (countOwners skips suspended ones), with
 * the target among them when it is a suspended owner, so that removing or demoting a suspended owner
 * is judged by the active owners it leaves, as any other owner's is.
 */
async function ownersBeside(tx: Repositories, tenantId: string, target: User): Promise<number> {
  const active = await tx.users.countOwners(tenantId);
  if (target.role !== 'owner') return active;
  return (await tx.users.suspendedAt(tenantId, target.id)) === null ? active : active + 1;
}

/** Who acts on a tenant's member: an authenticated caller, or the tenant's identity provider over SCIM. */
export interface MemberChangeBy {
  readonly tenantId: string;
  readonly actor: AuditActor;
}


/**
 * Inside a member change's unit of work, after the member's row is written: deletes the pending
 * invites the member sent for a role above their new standing (null: removed, so all of them), each
 * recorded as a revocation by the caller, as DELETE /invites/:id records one. Returns how many.
 */
export async function revokeInvitesOutranking(
  tx: Repositories, trail: AuditTrail, origin: RequestOrigin, by: MemberChangeBy, memberId: string, standing: Role | null,
): Promise<number> {
  const revoked = await tx.invites.deleteUnacceptedFrom(by.tenantId, memberId, invitesOutranking(standing));
  for (const inviteId of revoked) {
    await tx.auditEvents.append(trail.event(origin, {
      tenantId: by.tenantId, actor: by.actor, action: 'invite.revoked', targetId: inviteId,
      details: { reason: standing === null ? 'inviter_removed' : 'inviter_role_lowered' },
    }));
  }
  return revoked.length;
}
