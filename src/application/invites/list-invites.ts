import type { InviteSummary } from '../../domain/invite';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import type { Clock } from '../ports/clock';
import type { InviteRepository } from '../ports/repositories';

export interface ListInvitesDeps {
  readonly invites: InviteRepository;
  readonly clock: Clock;
}

export class ListInvites {
  constructor(private readonly deps: ListInvitesDeps) {}

  async execute(caller: Principal): Promise<InviteSummary[]> {
    assertRoleAtLeast(caller.role, 'admin');
    return this.deps.invites.listPending(caller.tenantId, this.deps.clock.now());
  }
}
