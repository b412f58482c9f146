import { normalizeEmail } from '../domain/email';
import { INVITE_TOKEN_BYTES } from '../domain/invite';
import type { Principal } from '../domain/principal';
import { assertRoleAtLeast, DEFAULT_INVITE_ROLE, type InvitableRole } from '../domain/role';
import type { Clock } from './ports/clock';
import type { IdGenerator } from './ports/ids';
import type { InviteRepository } from './ports/repositories';
import type { Secrets } from './ports/secrets';

export interface InviteUserInput {
  readonly email: string;
  readonly role?: InvitableRole | undefined;
}

export interface CreatedInvite {
  readonly inviteToken: string;
  readonly expiresAt: Date;
}

export interface InviteUserDeps {
  readonly invites: InviteRepository;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly inviteTtlSeconds: number;
}

export class InviteUser {
  constructor(private readonly deps: InviteUserDeps) {}

  async execute(caller: Principal, input: InviteUserInput): Promise<CreatedInvite> {
    assertRoleAtLeast(caller.role, 'admin');
    const { invites, ids, secrets, clock, inviteTtlSeconds } = this.deps;
    const now = clock.now();
    const inviteToken = secrets.randomHex(INVITE_TOKEN_BYTES);
    const expiresAt = new Date(now.getTime() + inviteTtlSeconds * 1000);
    await invites.create({
      id: ids.newId(),
      tenantId: caller.tenantId,
      email: normalizeEmail(input.email),
      role: input.role ?? DEFAULT_INVITE_ROLE,
      token: inviteToken,
      invitedBy: caller.userId,
      expiresAt,
      acceptedAt: null,
      createdAt: now,
    });
    return { inviteToken, expiresAt };
  }
}
