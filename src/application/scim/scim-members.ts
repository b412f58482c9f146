import { InvalidScimToken, MemberNotFound } from '../../domain/errors';
import type { User } from '../../domain/user';
import { memberIdOrThrow } from '../members/membership-transaction';
import type { Repositories } from '../ports/repositories';
import type { ScimCaller } from './scim-caller';

/** A member as SCIM shows them: active unless suspended. */
export interface ScimMember {
  readonly user: User;
  /** Null while the member is active. */
  readonly suspendedAt: Date | null;
}

/** The tenant's member named by a SCIM path id, with their suspension; another tenant's or an unknown id is MemberNotFound. */
export async function scimMemberOrThrow(repos: Pick<Repositories, 'users'>, tenantId: string, rawId: string): Promise<ScimMember> {
  const user = await repos.users.findById(tenantId, memberIdOrThrow(rawId));
  if (!user) throw new MemberNotFound();
  return { user, suspendedAt: await repos.users.suspendedAt(tenantId, user.id) };
}

/**
 * The first steps of a SCIM change of a member, inside its unit of work: the tenant's membership
 * lock (as a member change takes it), then the member and their suspension read under it. A tenant
 * gone since the token was checked is the token's 401.
 */
export async function lockScimMember(tx: Repositories, caller: ScimCaller, rawId: string): Promise<ScimMember> {
  if (!(await tx.tenants.lockMembership(caller.tenantId))) throw new InvalidScimToken();
  return scimMemberOrThrow(tx, caller.tenantId, rawId);
}
