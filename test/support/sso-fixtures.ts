import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import type { Repositories } from '../../src/application/ports/repositories';
import { ssoAddressesOf } from '../../src/bootstrap/assemble';
import { DEFAULT_DEVELOPMENT_PUBLIC_URL } from '../../src/bootstrap/config';
import type { InvitableRole } from '../../src/domain/role';
import { request } from './contract-request';
import { type Account, AUTH, bearer } from './http-fixtures';
import type { OidcTestProvider, TestClient } from './oidc-test-provider';

/** Where the test apps send people (PUBLIC_URL is left at its development default). */
export const SSO_ADDRESSES = ssoAddressesOf({ publicUrl: DEFAULT_DEVELOPMENT_PUBLIC_URL });

/** A domain no other test uses: a domain belongs to at most one tenant. */
export function freshDomain(): string {
  return `d-${randomUUID()}.example.test`;
}

export interface SsoSetup {
  readonly client: TestClient;
  readonly domains: readonly string[];
}

/**
 * Connects the owner's tenant to the test provider through PUT /sso/connection, and verifies its
 * domains straight into storage (tests cannot answer a DNS lookup).
 */
export async function connectTenant(
  target: { readonly app: RequestListener; readonly repos: Repositories }, provider: OidcTestProvider, owner: Account,
  options: {
    domains?: readonly string[]; unverified?: readonly string[]; defaultRole?: InvitableRole; groupRoles?: Record<string, InvitableRole>;
    /** The service's callback when its PUBLIC_URL is not the default (a service on a port of its own). */
    redirectUri?: string;
  } = {},
): Promise<SsoSetup> {
  const client = provider.addClient({ redirect_uris: [options.redirectUri ?? SSO_ADDRESSES.redirectUri] });
  const saved = await request(target.app).put(`${AUTH}/sso/connection`).set(bearer(owner)).send({
    issuer: provider.issuer, client_id: client.client_id, client_secret: client.client_secret,
    default_role: options.defaultRole ?? 'member', group_roles: options.groupRoles ?? {},
  });
  expect(saved.status).toBe(200);
  const domains = options.domains ?? [freshDomain()];
  await claimDomains(target.repos, owner.tenantId, options.unverified ?? []);
  await claimDomains(target.repos, owner.tenantId, domains, { verified: true });
  return { client, domains };
}

/** Claims domains for the tenant straight into storage, verified when asked (tests cannot answer a DNS lookup). */
export async function claimDomains(repos: Repositories, tenantId: string, domains: readonly string[], options: { verified?: boolean } = {}): Promise<void> {
  const now = new Date();
  for (const domain of domains) {
    await repos.ssoDomains.add({ domain, tenantId, txtValue: `portcullis-verification=${randomUUID()}`, verifiedAt: null, createdAt: now });
    if (options.verified) await repos.ssoDomains.markVerified(tenantId, domain, now);
  }
}

/** Where the callback sent the browser: the console's page with a code, or with an error. */
export interface ConsoleLanding {
  readonly code: string | null;
  readonly error: string | null;
}

export function landingOf(res: Response): ConsoleLanding {
  expect(res.status).toBe(302);
  const location = new URL(res.headers['location'] as string);
  expect(`${location.origin}${location.pathname}`).toBe(SSO_ADDRESSES.consoleCallbackUrl);
  return { code: location.searchParams.get('code'), error: location.searchParams.get('error') };
}

/** GET /sso/start (by address or slug): the provider's authorization URL it redirects to. */
export async function startAt(app: RequestListener, query: { email: string } | { tenant: string }): Promise<string> {
  const res = await request(app).get(`${AUTH}/sso/start`).query(query);
  expect(res.status).toBe(302);
  return res.headers['location'] as string;
}

/** The browser coming back from the provider to the service's callback, with the provider's answer. */
export function callback(app: RequestListener, providerRedirect: string): Promise<Response> {
  const url = new URL(providerRedirect);
  expect(`${url.origin}${url.pathname}`).toBe(SSO_ADDRESSES.redirectUri);
  return request(app).get(`${url.pathname}${url.search}`);
}

/** The whole round: start, the provider's login page as `login`, the callback; where the console lands. */
export async function signInThrough(
  app: RequestListener, provider: OidcTestProvider, query: { email: string } | { tenant: string }, login: string,
): Promise<ConsoleLanding> {
  const providerRedirect = await provider.signIn(await startAt(app, query), login);
  return landingOf(await callback(app, providerRedirect));
}

export function exchange(app: RequestListener, code: string | null): Promise<Response> {
  return request(app).post(`${AUTH}/sso/exchange`).send({ code });
}
