import type { SsoConnection } from './sso';
import { type InvitableRole, roleLevel } from './role';
import type { Amr } from './second-factor';

/**
 * The `amr` values (RFC 8176) by which a provider says the person used more than one factor, or a
 * factor that is one by itself (a hardware or software key, a smart card, biometrics).
 */
const SECOND_FACTOR_AMR = new Set(['mfa', 'otp', 'hwk', 'swk', 'sc', 'fpt', 'face', 'iris', 'retina', 'vbm', 'sms', 'tel', 'pop']);

/** Whether the provider's `amr` shows a second factor. */
export function providerProvedSecondFactor(providerAmr: readonly string[]): boolean {
  return providerAmr.some((value) => SECOND_FACTOR_AMR.has(value));
}

/** The amr of a session the provider started: `sso`, and `mfa` when the provider proved a second factor. */
export function ssoSessionAmr(providerAmr: readonly string[]): Amr[] {
  return providerProvedSecondFactor(providerAmr) ? ['sso', 'mfa'] : ['sso'];
}

/** The role of a member created at their first sign-in: the highest a group of theirs maps to, else the default. */
export function roleForGroups(connection: Pick<SsoConnection, 'defaultRole' | 'groupRoles'>, groups: readonly string[]): InvitableRole {
  let best: InvitableRole | null = null;
  for (const group of groups) {
    const role = Object.hasOwn(connection.groupRoles, group) ? connection.groupRoles[group] : undefined;
    if (role && (best === null || roleLevel(role) > roleLevel(best))) best = role;
  }
  return best ?? connection.defaultRole;
}

