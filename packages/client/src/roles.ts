/** The roles Portcullis gives, from most to least powerful. */
export type Role = 'owner' | 'admin' | 'member' | 'viewer';

const LEVELS: Readonly<Record<string, number>> = { owner: 4, admin: 3, member: 2, viewer: 1 };

/** A role's level; a role this library does not know counts as 0, as Portcullis counts it. */
export function roleLevel(role: string): number {
  return Object.prototype.hasOwnProperty.call(LEVELS, role) ? LEVELS[role]! : 0;
}
