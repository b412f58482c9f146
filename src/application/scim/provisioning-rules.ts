import type { InvitableRole } from '../../domain/role';
import type { Repositories } from '../ports/repositories';

/**
 * What the tenant's identity provider may create over SCIM: the one step of CreateScimUser that
 * decides, inside its unit of work, whether an address may become a member of the tenant and with
 * which role. It throws a domain error to refuse the address.
 */
export interface ProvisioningRules {
  newMemberRole(tx: Repositories, tenantId: string, email: string): Promise<InvitableRole>;
}

/** Any address, as a `member`: the rule until the tenant's single sign-on connection (its default role, its verified domains) is consulted. */
export const MEMBER_PROVISIONING: ProvisioningRules = {
  newMemberRole: async () => 'member',
};
