import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import type { User } from '../../domain/user';
import type { UserRepository } from '../ports/repositories';

/** What the list shows of a member: never the password hash; since when they are suspended, only when they are. */
export type MemberSummary = Pick<User, 'id' | 'email' | 'role' | 'createdAt'> & { readonly suspendedAt?: Date };

export interface ListMembersDeps {
  readonly users: UserRepository;
}

export function memberSummary({ id, email, role, createdAt }: User): MemberSummary {
  return { id, email, role, createdAt };
}

export class ListMembers {
  constructor(private readonly deps: ListMembersDeps) {}

  async execute(caller: Principal): Promise<MemberSummary[]> {
    assertRoleAtLeast(caller.role, 'admin');
    const { users } = this.deps;
    const [members, suspensions] = await Promise.all([users.listMembers(caller.tenantId), users.suspensions(caller.tenantId)]);
    return members.map((member) => {
      const suspendedAt = suspensions.get(member.id);
      return suspendedAt ? { ...memberSummary(member), suspendedAt } : memberSummary(member);
    });
  }
}
