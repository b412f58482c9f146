import type { Role } from '../../domain/role';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * An instant as people read it, always in UTC and spelled out by hand rather than through Intl,
 * so the same stored input renders the same words on every machine and Node version.
 */
export function formatInstant(instant: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${instant.getUTCDate()} ${MONTHS[instant.getUTCMonth()]} ${instant.getUTCFullYear()}, `
    + `${two(instant.getUTCHours())}:${two(instant.getUTCMinutes())} UTC`;
}

/** `5 minutes`, `1 hour`. */
export function quantity(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

const WITH_ARTICLE: Readonly<Record<Role, string>> = { owner: 'an owner', admin: 'an admin', member: 'a member', viewer: 'a viewer' };

/** `an admin`, `a member`. */
export function roleWithArticle(role: Role): string {
  return WITH_ARTICLE[role];
}

/**
 * An address shown to someone who may not own it any more (the old address, told of a change):
 * enough to recognise it, not enough to hand it over. `jane@example.com` becomes `j***@example.com`.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  const first = Array.from(address.slice(0, at))[0] ?? '';
  return `${first}***${address.slice(at)}`;
}
