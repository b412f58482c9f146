import { InsufficientRole } from './errors';

/** Roles from most to least privileged; the level decides every role check. */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Roles an invite may grant: ownership is only ever given at tenant creation. */
export const INVITABLE_ROLES = ['admin', 'member', 'viewer'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const DEFAULT_INVITE_ROLE: InvitableRole = 'member';

const LEVELS: Readonly<Record<Role, number>> = { owner: 4, admin: 3, member: 2, viewer: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** An unknown role (a stale token, a hand-edited row) counts as level 0 and so passes no check. */
export function roleLevel(role: string): number {
  return isRole(role) ? LEVELS[role] : 0;
}

export function assertRoleAtLeast(actual: string, minimum: Role): void {
  if (roleLevel(actual) < LEVELS[minimum]) throw new InsufficientRole(minimum);
}
