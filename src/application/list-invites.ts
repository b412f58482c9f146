import type { Invite } from '../domain/invite';
import type { Principal } from '../domain/principal';
import { assertRoleAtLeast } from '../domain/role';
import type { Clock } from './ports/clock';
import type { InviteRepository } from './ports/repositories';

/** What the list shows of an invite: never its token. */
export type InviteSummary = Pick<Invite, 'id' | 'email' | 'role' | 'expiresAt' | 'createdAt'>;

export interface ListInvitesDeps {
  readonly invites: InviteRepository;
  readonly clock: Clock;
}

export class ListInvites {
  constructor(private readonly deps: ListInvitesDeps) {}

  async execute(caller: Principal): Promise<InviteSummary[]> {
    assertRoleAtLeast(caller.role, 'admin');
    const pending = await this.deps.invites.listPending(caller.tenantId, this.deps.clock.now());
    return pending.map(({ id, email, role, expiresAt, createdAt }) => ({ id, email, role, expiresAt, createdAt }));
  }
}
