import { LastActiveOwner, LastOwner, OwnerRoleRequired, RoleAboveOwn } from './errors';
import { INVITABLE_ROLES, type InvitableRole, roleLevel, type Role } from './role';

/** Who is acting, on whom, and how many owners the tenant has, all read inside one transaction. */
export interface MembershipChange {
  readonly callerRole: Role;
  readonly targetRole: Role;
  readonly ownerCount: number;
}

/**
 * The rules of a role change, in the order a caller is told about them: nobody grants a role above
 * their own; only an owner changes an owner or grants owner; the last owner keeps the role.
 */
export function assertMayChangeRole(change: MembershipChange, newRole: Role): void {
  if (roleLevel(newRole) > roleLevel(change.callerRole)) throw new RoleAboveOwn();
  if ((change.targetRole === 'owner' || newRole === 'owner') && change.callerRole !== 'owner') throw new OwnerRoleRequired();
  if (change.targetRole === 'owner' && newRole !== 'owner' && change.ownerCount <= 1) throw new LastOwner();
}

/** Only an owner removes an owner, and never the last one. Anyone else may be removed by an admin. */
export function assertMayRemove(change: MembershipChange): void {
  if (change.targetRole === 'owner' && change.callerRole !== 'owner') throw new OwnerRoleRequired();
  if (change.targetRole === 'owner' && change.ownerCount <= 1) throw new LastOwner();
}

/**
 * The identity provider (SCIM) may suspend or remove an owner only while another owner who is not
 * suspended remains (`activeOwners` counts the target when it is one of them): the tenant always
 * keeps someone who can manage it, and who can take the provider's token away.
 */
export function assertLeavesActiveOwner(target: { readonly role: Role; readonly suspended: boolean }, activeOwners: number): void {
  if (target.role === 'owner' && !target.suspended && activeOwners <= 1) throw new LastActiveOwner();
}

/** Only an owner ends an owner's sessions; an admin ends anyone else's. */
export function assertMayEndSessions(change: MembershipChange): void {
  if (change.targetRole === 'owner' && change.callerRole !== 'owner') throw new OwnerRoleRequired();
}

/**
 * An invite grants nothing its sender does not hold: the pending invites a member sent for a role
 * above `standing` (their new role, or null once they are removed: every role) no longer stand.
 */
export function invitesOutranking(standing: Role | null): InvitableRole[] {
  return INVITABLE_ROLES.filter((role) => standing === null || roleLevel(role) > roleLevel(standing));
}
