import type { SsoConnectionView } from '../../../application/sso/manage-sso-connection';
import type { SsoDomainClaim } from '../../../application/sso/manage-sso-domains';
import type { UseCases } from '../../../application/use-cases';
import { SsoConnectionBody, SsoDomainBody } from '../body/dto/sso-bodies';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

function connectionJson({ connection, redirectUri }: SsoConnectionView) {
  return {
    issuer: connection.issuer, client_id: connection.clientId, default_role: connection.defaultRole, sso_required: connection.ssoRequired,
    group_roles: connection.groupRoles, redirect_uri: redirectUri,
    created_at: connection.createdAt.toISOString(), updated_at: connection.updatedAt.toISOString(),
  };
}

function domainJson(claim: SsoDomainClaim) {
  return {
    domain: claim.domain, txt_name: claim.txtName, txt_value: claim.txtValue,
    verified: claim.verifiedAt !== null, verified_at: claim.verifiedAt === null ? null : claim.verifiedAt.toISOString(),
  };
}

/**
 * A tenant's single sign-on set-up: its provider connection and its domains. The owner changes
 * them (with recent authentication, as they change how members sign in; verifying is proven by DNS
 * instead); an admin may read them.
 */
export function ssoRoutes(useCases: UseCases): Route[] {
  return [
    route({
      method: 'get', path: `${AUTH_BASE}/sso/connection`, group: 'protected', role: 'admin',
      handle: async ({ principal }) => json(200, connectionJson(await useCases.ssoConnection.get(principal))),
    }),
    route({
      method: 'put', path: `${AUTH_BASE}/sso/connection`, group: 'protected', role: 'owner', recentAuth: true, body: SsoConnectionBody,
      handle: async ({ principal, body, origin }) => json(200, connectionJson(await useCases.ssoConnection.save(principal, {
        issuer: body.issuer, clientId: body.client_id, clientSecret: body.client_secret, defaultRole: body.default_role,
        ssoRequired: body.sso_required, groupRoles: body.group_roles,
      }, origin))),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/sso/connection`, group: 'protected', role: 'owner', recentAuth: true,
      handle: async ({ principal, origin }) => {
        await useCases.ssoConnection.remove(principal, origin);
        return { status: 204, bytes: '', contentType: 'text/plain' };
      },
    }),
    route({
      method: 'get', path: `${AUTH_BASE}/sso/domains`, group: 'protected', role: 'admin',
      handle: async ({ principal }) => json(200, { domains: (await useCases.ssoDomains.list(principal)).map(domainJson) }),
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/sso/domains`, group: 'protected', role: 'owner', recentAuth: true, body: SsoDomainBody,
      handle: async ({ principal, body, origin }) => {
        const { claim, created } = await useCases.ssoDomains.add(principal, body.domain, origin);
        return json(created ? 201 : 200, domainJson(claim));
      },
    }),
    route({
      method: 'post', path: `${AUTH_BASE}/sso/domains/:domain/verify`, group: 'protected', role: 'owner',
      handle: async ({ principal, params, origin }) => json(200, domainJson(await useCases.ssoDomains.verify(principal, params['domain']!, origin))),
    }),
    route({
      method: 'delete', path: `${AUTH_BASE}/sso/domains/:domain`, group: 'protected', role: 'owner', recentAuth: true,
      handle: async ({ principal, params, origin }) => {
        await useCases.ssoDomains.remove(principal, params['domain']!, origin);
        return { status: 204, bytes: '', contentType: 'text/plain' };
      },
    }),
  ];
}
