import type { Role } from '../api/client';

const LEVEL: Readonly<Record<Role, number>> = { owner: 4, admin: 3, member: 2, viewer: 1 };

export const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer'];

export function levelOf(role: string): number {
  return (LEVEL as Record<string, number>)[role] ?? 0;
}

/** Admin or higher: the API's rule for every administration screen. */
export function isAdmin(role: string): boolean {
  return levelOf(role) >= LEVEL.admin;
}

/** The roles someone with `role` may grant: none above their own. */
export function grantableRoles(role: string, candidates: readonly Role[] = ROLES): Role[] {
  return candidates.filter((candidate) => LEVEL[candidate] <= levelOf(role));
}
