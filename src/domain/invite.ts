import type { InvitableRole } from './role';

/** 32 random bytes, written as 64 lowercase hex characters. */
export const INVITE_TOKEN_BYTES = 32;
const INVITE_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export interface Invite {
  readonly id: string;
  readonly tenantId: string;
  /** Always normalised (see normalizeEmail). */
  readonly email: string;
  readonly role: InvitableRole;
  readonly token: string;
  readonly invitedBy: string;
  readonly expiresAt: Date;
  readonly acceptedAt: Date | null;
  readonly createdAt: Date;
}

/** What a list shows of an invite: never its token, and nothing a caller of the list has no use for. */
export type InviteSummary = Pick<Invite, 'id' | 'email' | 'role' | 'expiresAt' | 'createdAt'>;

export type InviteState = 'pending' | 'expired' | 'accepted';

/** Part 3: "revoked" is not a state of a record, it is the record's absence. */
export function inviteState(invite: Pick<Invite, 'acceptedAt' | 'expiresAt'>, now: Date): InviteState {
  if (invite.acceptedAt !== null) return 'accepted';
  return invite.expiresAt.getTime() > now.getTime() ? 'pending' : 'expired';
}

/** A token that cannot have been issued by us is rejected without a lookup. */
export function isWellFormedInviteToken(token: string): boolean {
  return INVITE_TOKEN_PATTERN.test(token);
}
