import type { ScimMember } from '../../../application/scim/scim-members';

/** Where SCIM is served (RFC 7644's base URL, as the tenant's identity provider is given it). */
export const SCIM_BASE = '/api/v1/scim/v2';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** The most resources one page lists; a larger `count` is cut to it (RFC 7644, section 3.4.2.4). */
export const MAX_PAGE = 200;
export const DEFAULT_PAGE = 100;

/** A member as a SCIM User: the address is both userName and the one e-mail; active unless suspended. */
export function scimUserJson({ user, suspendedAt }: ScimMember) {
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    userName: user.email,
    active: suspendedAt === null,
    emails: [{ value: user.email, type: 'work', primary: true }],
    meta: { resourceType: 'User', created: user.createdAt.toISOString(), location: `${SCIM_BASE}/Users/${user.id}` },
  };
}

export function listResponse(resources: readonly unknown[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** What this service does of SCIM (RFC 7643, section 5): Users with filter and PATCH, no bulk, sort, ETags or password changes. */
export const SERVICE_PROVIDER_CONFIG = {
  schemas: [CONFIG_SCHEMA],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_PAGE },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [{
    type: 'oauthbearertoken', name: 'SCIM token', primary: true,
    description: 'The tenant\'s SCIM token, made by an owner at POST /api/v1/auth/sso/scim-token, sent as Authorization: Bearer.',
  }],
  meta: { resourceType: 'ServiceProviderConfig', location: `${SCIM_BASE}/ServiceProviderConfig` },
};

const USER_RESOURCE_TYPE = {
  schemas: [RESOURCE_TYPE_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', description: 'A member of the tenant',
  schema: USER_SCHEMA, meta: { resourceType: 'ResourceType', location: `${SCIM_BASE}/ResourceTypes/User` },
};

export const RESOURCE_TYPES = listResponse([USER_RESOURCE_TYPE], 1, 1);

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...extra,
});

/** The attributes of the User schema this service keeps; any other a provider sends is ignored. */
const USER_SCHEMA_RESOURCE = {
  schemas: [SCHEMA_SCHEMA], id: USER_SCHEMA, name: 'User', description: 'A member of the tenant',
  attributes: [
    attribute('userName', 'string', { required: true, mutability: 'immutable', uniqueness: 'server', description: 'The member\'s e-mail address' }),
    attribute('active', 'boolean', { description: 'False while the member is suspended' }),
    attribute('emails', 'complex', {
      multiValued: true, mutability: 'readOnly', description: 'The member\'s address, as userName',
      subAttributes: [attribute('value', 'string', { mutability: 'readOnly' }), attribute('primary', 'boolean', { mutability: 'readOnly' })],
    }),
  ],
  meta: { resourceType: 'Schema', location: `${SCIM_BASE}/Schemas/${USER_SCHEMA}` },
};

export const SCHEMAS = listResponse([USER_SCHEMA_RESOURCE], 1, 1);
