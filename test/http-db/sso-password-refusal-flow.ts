import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { request } from '../support/contract-request';
import { type Account, AUTH, bearer, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { OidcTestProvider } from '../support/oidc-test-provider';
import { registerPasskey, TEST_ORIGIN } from './passkeys-flow';

export interface SsoPolicyTarget {
  readonly app: RequestListener;
  /** The records the app's DNS port reads. */
  readonly dns: InMemoryDnsTxtRecords;
  close(): Promise<void>;
}

export const SSO_ONLY = "This address signs in through its organisation's single sign-on";
const INVALID_CREDENTIALS = 'Invalid credentials';

export interface SsoTenant {
  readonly owner: Account;
  readonly domain: string;
  /** Switches the connection's sso_required. */
  requireSso(on: boolean): Promise<void>;
}

export const domainName = (): string => `d-${randomUUID()}.example.com`;

/** A member who joined by invitation with an address of `domain`, before the domain was verified. */
export async function joinAt(app: RequestListener, admin: Account, domain: string): Promise<Account> {
  const email = `${randomUUID()}@${domain}`;
  const invite = await createInvite(app, admin, { email, role: 'member' });
  const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.token });
  expect(res.status).toBe(201);
  const me = await request(app).get(`${AUTH}/me`).set(bearer({ token: res.body.token }));
  return { email, token: res.body.token, tenantId: admin.tenantId, userId: me.body.user_id, role: 'member' };
}

/** A tenant connected to `provider` with sso_required as asked, that verified a domain of its own. */
export async function ssoTenant(target: SsoPolicyTarget, provider: OidcTestProvider, ssoRequired = true): Promise<SsoTenant> {
  const { app, dns } = target;
  const owner = await signupOwner(app, 'Single Sign-On Co');
  const requireSso = async (on: boolean) => {
    const res = await request(app).put(`${AUTH}/sso/connection`).set(bearer(owner))
      .send({ issuer: provider.issuer, client_id: 'portcullis', client_secret: 'provider-secret', sso_required: on });
    expect(res.status).toBe(200);
  };
  await requireSso(ssoRequired);
  const domain = domainName();
  const claim = await request(app).post(`${AUTH}/sso/domains`).set(bearer(owner)).send({ domain });
  dns.publish(claim.body.txt_name, claim.body.txt_value);
  expect((await request(app).post(`${AUTH}/sso/domains/${domain}/verify`).set(bearer(owner))).body.verified).toBe(true);
  return { owner, domain, requireSso };
}

export const login = (app: RequestListener, email: string, password = PASSWORD) => request(app).post(`${AUTH}/login`).send({ email, password });

/**
 * What a tenant's `sso_required` does to the other ways in and to signup, over HTTP, the same on
 * every backend (docs/sso.md, "For an owner: connecting a provider").
 */
export function describeSsoPasswordRefusalFlow(name: string, open: () => Promise<SsoPolicyTarget>): void {
  describe(`${name}: single sign-on required`, () => {
    let target: SsoPolicyTarget;
    let provider: OidcTestProvider;
    beforeAll(async () => {
      [target, provider] = await Promise.all([open(), OidcTestProvider.start()]);
    });
    afterAll(async () => {
      await Promise.all([target.close(), provider.close()]);
    });

    it("V6.3.8: an address of the tenant's verified domain gets the contract's 401 from POST /login whatever the password", async () => {
      const { app } = target;
      const org = await ssoTenant(target, provider, false);
      const member = await joinAt(app, org.owner, org.domain);
      expect((await login(app, member.email)).status).toBe(200);

      await org.requireSso(true);
      for (const password of [PASSWORD, 'not the password at all']) {
        const res = await login(app, member.email, password);
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: INVALID_CREDENTIALS } });
      }
      // The tenant's other addresses are not the domain's: their passwords still work.
      expect((await login(app, org.owner.email)).status).toBe(200);

      await org.requireSso(false);
      expect((await login(app, member.email)).status).toBe(200);
    });

    it('the refusal goes with the domain claim or the connection', async () => {
      const { app } = target;
      const org = await ssoTenant(target, provider);
      const member = await joinAt(app, org.owner, org.domain);
      expectError(await login(app, member.email), 401, INVALID_CREDENTIALS);

      expect((await request(app).delete(`${AUTH}/sso/domains/${org.domain}`).set(bearer(org.owner))).status).toBe(204);
      expect((await login(app, member.email)).status).toBe(200);
    });

    it('a passkey does not sign in without the provider either, while sso_required is on', async () => {
      const { app } = target;
      const org = await ssoTenant(target, provider, false);
      const member = await joinAt(app, org.owner, org.domain);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      await registerPasskey(app, member, authenticator);
      const passkeySignIn = async () => {
        const options = await request(app).post(`${AUTH}/login/passkey/options`);
        return request(app).post(`${AUTH}/login/passkey`).send({ ceremony: options.body.ceremony, response: authenticator.assert(options.body.options) });
      };

      await org.requireSso(true);
      expectError(await passkeySignIn(), 401, 'Invalid passkey');
      await org.requireSso(false);
      expect((await passkeySignIn()).status).toBe(200);
    });

    it("a member of another tenant with such an address is that tenant's: their password still works", async () => {
      const { app } = target;
      const domain = domainName();
      const elsewhere = await signupOwner(app, 'Earlier Co');
      const contractor = await joinAt(app, elsewhere, domain);
      const org = await ssoTenant(target, provider);
      const claim = await request(app).post(`${AUTH}/sso/domains`).set(bearer(org.owner)).send({ domain });
      target.dns.publish(claim.body.txt_name, claim.body.txt_value);
      expect((await request(app).post(`${AUTH}/sso/domains/${domain}/verify`).set(bearer(org.owner))).status).toBe(200);

      expect((await login(app, contractor.email)).status).toBe(200);
    });

    it('signup: a new tenant or another tenant\'s invitation is refused for such an address; the owning tenant\'s invitation is accepted', async () => {
      const { app } = target;
      const org = await ssoTenant(target, provider);
      const email = `${randomUUID()}@${org.domain.toUpperCase()}`;
      expectError(await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Shadow IT' }), 403, SSO_ONLY);

      const other = await signupOwner(app, 'Other Co');
      const theirs = await createInvite(app, other, { email });
      expectError(await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: theirs.token }), 403, SSO_ONLY);

      const ours = await createInvite(app, org.owner, { email });
      const joined = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: ours.token });
      expect({ status: joined.status, tenant: joined.body.tenant_id }).toEqual({ status: 201, tenant: org.owner.tenantId });
      // Joined, the member signs in through the provider, not with the password they chose.
      expectError(await login(app, email), 401, INVALID_CREDENTIALS);
      // The other tenant's invitation was not spent by the refusal.
      expect((await request(app).get(`${AUTH}/invites`).set(bearer(other))).body.invites).toHaveLength(1);
    });

    it('signup with an address of a domain nobody requires single sign-on of is as before', async () => {
      const { app } = target;
      const relaxed = await ssoTenant(target, provider, false);
      const unclaimed = await request(app).post(`${AUTH}/signup`).send({ email: `${randomUUID()}@${domainName()}`, password: PASSWORD, tenant_name: 'Free Co' });
      expect(unclaimed.status).toBe(201);
      const verifiedOnly = await request(app).post(`${AUTH}/signup`).send({ email: `${randomUUID()}@${relaxed.domain}`, password: PASSWORD, tenant_name: 'Free Co' });
      expect(verifiedOnly.status).toBe(201);
    });

    it('V16.3.1: a refused password sign-in is in the tenant\'s audit trail with its reason', async () => {
      const { app } = target;
      const org = await ssoTenant(target, provider);
      const member = await joinAt(app, org.owner, org.domain);
      await login(app, member.email);
      const trail = await request(app).get(`${AUTH}/audit-events`).query({ action: 'login.failed' }).set(bearer(org.owner));
      expect(trail.body.events).toEqual([expect.objectContaining({ target_id: member.userId, details: { reason: 'sso_required' } })]);
    });
  });
}
