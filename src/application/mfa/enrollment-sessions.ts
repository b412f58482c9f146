import { type Amr, isEnrollmentOnly } from '../../domain/second-factor';
import type { Repositories } from '../ports/repositories';

/**
 * Whether a sign-in of this amr into this tenant makes an enrollment session: the tenant requires a
 * second factor and the sign-in used none. Read from storage at each sign-in, so a policy changed on
 * one instance applies to the next sign-in anywhere; the answer travels in the token (`mfa_enroll`),
 * so no request after the sign-in reads it again.
 */
export async function enrollmentOnly(repos: Repositories, tenantId: string, amr: readonly Amr[]): Promise<boolean> {
  return isEnrollmentOnly(await repos.tenants.mfaPolicy(tenantId) ?? 'optional', amr);
}

/** The token claim for it: present only when true. */
export async function enrollmentClaim(repos: Repositories, tenantId: string, amr: readonly Amr[]): Promise<{ enrollmentOnly?: true }> {
  return (await enrollmentOnly(repos, tenantId, amr)) ? { enrollmentOnly: true } : {};
}
