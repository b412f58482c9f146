import { ScimAddressOutsideDomains } from '../../domain/errors';
import type { InvitableRole } from '../../domain/role';
import { domainOfEmail } from '../../domain/sso';
import type { Repositories } from '../ports/repositories';

/**
 * What the tenant's identity provider may create over SCIM: the one step of CreateScimUser that
 * decides, inside its unit of work, whether an address may become a member of the tenant and with
 * which role. It throws a domain error to refuse the address.
 */
export interface ProvisioningRules {
  newMemberRole(tx: Repositories, tenantId: string, email: string): Promise<InvitableRole>;
}

/**
 * The tenant's single sign-on decides: only an address of a domain the tenant has verified (its
 * provider cannot claim someone else's address, which would also keep its owner from signing up
 * anywhere else), with the connection's default role, `member` without a connection.
 */
export const SSO_PROVISIONING: ProvisioningRules = {
  async newMemberRole(tx, tenantId, email) {
    const domain = domainOfEmail(email);
    if (domain === null || (await tx.ssoDomains.verifiedOwner(domain)) !== tenantId) throw new ScimAddressOutsideDomains();
    return (await tx.ssoConnections.find(tenantId))?.defaultRole ?? 'member';
  },
};
