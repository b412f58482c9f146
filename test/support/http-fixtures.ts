import type { RequestListener } from 'node:http';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { request } from './contract-request';
import { uniqueEmail } from './test-use-cases';

export const AUTH = '/api/v1/auth';
export const PASSWORD = 'correct horse battery';

/** Part 7: every refusal is JSON with a string `error`; the status and the message are exact. */
export function expectError(res: Response, status: number, message: string): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({ status, body: expect.objectContaining({ error: message }) });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

export interface Account {
  readonly email: string;
  readonly token: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly role: string;
}

function accountFrom(email: string, token: string, tenantId: string): Account {
  const claims = jwt.decode(token) as { userId: string; role: string };
  return { email, token, tenantId, userId: claims.userId, role: claims.role };
}

export const bearer = (account: Pick<Account, 'token'>): Record<string, string> => ({ Authorization: `Bearer ${account.token}` });

/** A new tenant with its owner, through the real endpoint. */
export async function signupOwner(app: RequestListener, tenantName = 'Acme'): Promise<Account> {
  const email = uniqueEmail('owner');
  const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: tenantName });
  expect(res.status).toBe(201);
  return accountFrom(email, res.body.token as string, res.body.tenant_id as string);
}

export async function createInvite(app: RequestListener, admin: Account, body: Record<string, unknown> = {}): Promise<{ email: string; token: string; expiresAt: string }> {
  const email = (body.email as string | undefined) ?? uniqueEmail('invitee');
  const res = await request(app).post(`${AUTH}/invite`).set(bearer(admin)).send({ email, ...body });
  expect(res.status).toBe(201);
  return { email, token: res.body.invite_token as string, expiresAt: res.body.expires_at as string };
}

/** A user of the admin's tenant with the given role, by invite and signup. */
export async function joinWithRole(app: RequestListener, admin: Account, role: 'admin' | 'member' | 'viewer'): Promise<Account> {
  const invite = await createInvite(app, admin, { role });
  const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
  expect(res.status).toBe(201);
  return accountFrom(invite.email, res.body.token as string, res.body.tenant_id as string);
}

export async function createApiKey(app: RequestListener, admin: Account): Promise<string> {
  const res = await request(app).post(`${AUTH}/api-keys`).set(bearer(admin));
  expect(res.status).toBe(201);
  return res.body.api_key as string;
}
