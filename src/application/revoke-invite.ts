import { InviteNotFound } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { Principal } from '../domain/principal';
import { assertRoleAtLeast } from '../domain/role';
import type { InviteRepository } from './ports/repositories';

export interface RevokeInviteDeps {
  readonly invites: InviteRepository;
}

/** Deletes an unaccepted invite of the caller's tenant; expiry is not checked (part 3). */
export class RevokeInvite {
  constructor(private readonly deps: RevokeInviteDeps) {}

  async execute(caller: Principal, inviteId: string): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    // UUIDs are case-insensitive; ids are stored in lowercase, so every backend matches alike.
    if (!isUuid(inviteId) || !(await this.deps.invites.deleteUnaccepted(caller.tenantId, inviteId.toLowerCase()))) {
      throw new InviteNotFound();
    }
  }
}
