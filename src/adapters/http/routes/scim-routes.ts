import type { UseCases } from '../../../application/use-cases';
import type { ScimMember } from '../../../application/scim/scim-members';
import { SCIM_CONTENT_TYPE } from '../scim/scim-errors';
import { listResponse, RESOURCE_TYPES, SCHEMAS, SCIM_BASE, scimUserJson, SERVICE_PROVIDER_CONFIG } from '../scim/scim-resources';
import { pageOf, patchedActive, scimUserOf, userNameFilter } from '../scim/scim-user-input';
import { type Answer, bytes, route, type Route } from './route';

type Body = Record<string, unknown>;

function scim(status: number, body: unknown, headers?: Readonly<Record<string, string>>): Answer {
  return bytes(status, JSON.stringify(body), SCIM_CONTENT_TYPE, headers);
}

function userAnswer(status: number, member: ScimMember, headers?: Readonly<Record<string, string>>): Answer {
  return scim(status, scimUserJson(member), headers);
}

/**
 * SCIM 2.0 (RFC 7643/7644) under SCIM_BASE, for the tenant's identity provider: Users (list with
 * the userName filter and paging, get, create, replace, patch `active`, delete) and the discovery
 * documents. Each route is in the `scim` group (the SCIM token, SCIM's error format) and is limited
 * per token. Bodies and queries are read by hand (scim-user-input.ts): providers send more than
 * this service keeps.
 */
export function scimRoutes(useCases: UseCases): Route[] {
  const users = `${SCIM_BASE}/Users`;
  return [
    route<undefined, Body>({
      method: 'get', path: users, group: 'scim', limit: 'scim', rawQuery: true,
      handle: async ({ scimCaller, query }) => {
        const { startIndex, count } = pageOf(query);
        const page = await useCases.listScimUsers.execute(scimCaller, { userName: userNameFilter(query['filter']), startIndex, count });
        return scim(200, listResponse(page.members.map(scimUserJson), page.totalResults, startIndex));
      },
    }),
    route({
      method: 'get', path: `${users}/:id`, group: 'scim', limit: 'scim',
      handle: async ({ scimCaller, params }) => userAnswer(200, await useCases.getScimUser.execute(scimCaller, params['id']!)),
    }),
    route<Body>({
      method: 'post', path: users, group: 'scim', limit: 'scim', rawBody: true,
      handle: async ({ scimCaller, body, origin }) => {
        const created = await useCases.createScimUser.execute(scimCaller, scimUserOf(body), origin);
        return userAnswer(201, created, { Location: `${users}/${created.user.id}` });
      },
    }),
    route<Body>({
      method: 'put', path: `${users}/:id`, group: 'scim', limit: 'scim', rawBody: true,
      handle: async ({ scimCaller, params, body, origin }) => {
        const { email, active } = scimUserOf(body);
        return userAnswer(200, await useCases.setScimUserActive.execute(scimCaller, params['id']!, { active, userName: email }, origin));
      },
    }),
    route<Body>({
      method: 'patch', path: `${users}/:id`, group: 'scim', limit: 'scim', rawBody: true,
      handle: async ({ scimCaller, params, body, origin }) => {
        const active = patchedActive(body);
        const member = active === undefined
          ? await useCases.getScimUser.execute(scimCaller, params['id']!)
          : await useCases.setScimUserActive.execute(scimCaller, params['id']!, { active }, origin);
        return userAnswer(200, member);
      },
    }),
    route({
      method: 'delete', path: `${users}/:id`, group: 'scim', limit: 'scim',
      handle: async ({ scimCaller, params, origin }) => {
        await useCases.removeScimUser.execute(scimCaller, params['id']!, origin);
        return bytes(204, '', 'text/plain');
      },
    }),
    route({
      method: 'get', path: `${SCIM_BASE}/ServiceProviderConfig`, group: 'scim', limit: 'scim',
      handle: () => scim(200, SERVICE_PROVIDER_CONFIG),
    }),
    route({
      method: 'get', path: `${SCIM_BASE}/ResourceTypes`, group: 'scim', limit: 'scim',
      handle: () => scim(200, RESOURCE_TYPES),
    }),
    route({
      method: 'get', path: `${SCIM_BASE}/Schemas`, group: 'scim', limit: 'scim',
      handle: () => scim(200, SCHEMAS),
    }),
  ];
}
