import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import { request } from './contract-request';
import { AUTH, bearer, type Account } from './http-fixtures';

export const SCIM = '/api/v1/scim/v2';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The owner makes the tenant's SCIM token (their signup session is a recent authentication). */
export async function scimTokenOf(app: RequestListener, owner: Account): Promise<string> {
  const res = await request(app).post(`${AUTH}/sso/scim-token`).set(bearer(owner));
  expect(res.status).toBe(201);
  return res.body.token as string;
}

/** What an identity provider sends with every request. */
export const scimHeaders = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' });

/** A User as Okta creates one: more attributes than the service keeps. */
export function oktaUser(userName: string, active = true): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA], userName, active, externalId: `00u${userName.length}`, locale: 'en-US', displayName: 'Ada Lovelace',
    name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ primary: true, value: userName, type: 'work' }], groups: [],
  };
}

/** Okta's deactivation: replace with a value object, no path. */
export const oktaActive = (active: boolean) => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active } }] });

/** Entra ID's: `Replace` with a path, and the value as text. */
export const entraActive = (active: boolean) => ({ schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: active ? 'True' : 'False' }] });

export async function provision(app: RequestListener, token: string, userName: string, active = true): Promise<{ id: string; userName: string; active: boolean }> {
  const res = await request(app).post(`${SCIM}/Users`).set(scimHeaders(token)).send(oktaUser(userName, active));
  expect(res.status).toBe(201);
  return res.body as { id: string; userName: string; active: boolean };
}

export function setActive(app: RequestListener, token: string, userId: string, body: object): Promise<Response> {
  return request(app).patch(`${SCIM}/Users/${userId}`).set(scimHeaders(token)).send(body);
}

/** Every refusal under the SCIM base is SCIM's error: its media type, its schema, the status as text, the message as `detail`. */
export function expectScimError(res: Response, status: number, detail: string, scimType?: string): void {
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status,
    body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), detail, ...(scimType ? { scimType } : {}) },
  });
}
