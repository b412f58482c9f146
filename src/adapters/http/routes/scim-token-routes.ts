import type { UseCases } from '../../../application/use-cases';
import { AUTH_BASE } from './identity-routes';
import { json, route, type Route } from './route';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** The tenant's SCIM token: made (shown once) and revoked by an owner with recent authentication; its dates seen by admins. */
export function scimTokenRoutes(useCases: UseCases): Route[] {
  const path = `${AUTH_BASE}/sso/scim-token`;
  return [
    route({
      method: 'post', path, group: 'protected', role: 'owner', recentAuth: true,
      handle: async ({ principal, origin }) => {
        const created = await useCases.createScimToken.execute(principal, origin);
        return json(201, { token: created.token, created_at: created.createdAt.toISOString() });
      },
    }),
    route({
      method: 'get', path, group: 'protected', role: 'admin',
      handle: async ({ principal }) => {
        const status = await useCases.getScimTokenStatus.execute(principal);
        return json(200, status.exists
          ? { exists: true, created_at: status.createdAt.toISOString(), last_used_at: iso(status.lastUsedAt) }
          : { exists: false, created_at: null, last_used_at: null });
      },
    }),
    route({
      method: 'delete', path, group: 'protected', role: 'owner', recentAuth: true,
      handle: async ({ principal, origin }) => {
        await useCases.revokeScimToken.execute(principal, origin);
        return { status: 204, bytes: '', contentType: 'text/plain' };
      },
    }),
  ];
}
