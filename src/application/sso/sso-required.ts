import { domainOfEmail } from '../../domain/sso';
import type { Repositories } from '../ports/repositories';

/**
 * The tenant that requires single sign-on of an address: the tenant that verified the address's
 * domain, when its connection has `sso_required` on; null otherwise. Asked by every way in that is
 * not the provider (password, reset, passkey) and by signup, so the policy is the same on each.
 */
export async function ssoRequiringTenant(repos: Repositories, email: string): Promise<string | null> {
  const domain = domainOfEmail(email);
  if (domain === null) return null;
  const owner = await repos.ssoDomains.verifiedOwner(domain);
  if (owner === null) return null;
  return (await repos.ssoConnections.find(owner))?.ssoRequired ? owner : null;
}

/**
 * Whether this member must sign in through their tenant's provider: their address's domain is one
 * their own tenant verified, and its connection requires single sign-on. A member of another tenant
 * with such an address (registered before the domain was verified) is governed by their own tenant.
 */
export async function mustUseSso(repos: Repositories, member: { readonly tenantId: string; readonly email: string }): Promise<boolean> {
  return (await ssoRequiringTenant(repos, member.email)) === member.tenantId;
}
