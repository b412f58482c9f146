import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import type { User } from '../../domain/user';
import type { UserRepository } from '../ports/repositories';

/** What the list shows of a member: never the password hash. */
export type MemberSummary = Pick<User, 'id' | 'email' | 'role' | 'createdAt'>;

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
    return (await this.deps.users.listMembers(caller.tenantId)).map(memberSummary);
  }
}
