import type { RequestListener } from 'node:http';
import type { Repositories } from '../../src/application/ports/repositories';
import type { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { OidcTestProvider } from '../support/oidc-test-provider';
import {
  callback, connectTenant, exchange, freshDomain, landingOf, signInThrough, SSO_ADDRESSES, startAt,
} from '../support/sso-fixtures';
import { claimsOf, codeAt, enrollApp } from './second-factors-flow';
import { oktaActive, provision, scimTokenOf, setActive } from '../support/scim-fixtures';

export interface SsoSignInTarget {
  readonly app: RequestListener;
  readonly repos: Repositories;
  readonly clock: TestClock;
  close(): Promise<void>;
}

const REFUSED_ANSWER = "The identity provider's answer could not be verified";
const INVALID_CODE = 'Invalid or expired code';

/**
 * Single sign-on through a real OpenID provider (oidc-provider, in this process) over HTTP: start,
 * the provider's own login page, the callback, the console's exchange; the same on every backend.
 */
export function describeSsoSignInFlow(name: string, open: () => Promise<SsoSignInTarget>): void {
  describe(`${name}: single sign-on through the tenant's OpenID provider`, () => {
    let target: SsoSignInTarget;
    let provider: OidcTestProvider;
    let stranger: OidcTestProvider;
    beforeAll(async () => {
      // The providers first: loading oidc-provider holds the event loop long enough, on a loaded
      // machine, to time out a database handshake started beside it.
      [provider, stranger] = await Promise.all([OidcTestProvider.start(), OidcTestProvider.start()]);
      target = await open();
    }, 60_000);
    afterAll(async () => {
      await Promise.all([target?.close(), provider?.close(), stranger?.close()]);
    });
    afterEach(() => provider.tamperIdTokens(null));

    /** A tenant with its owner (by password), connected to `idp` with one verified domain. */
    async function connectedTenant(idp = provider, options: Parameters<typeof connectTenant>[3] = {}) {
      const owner = await signupOwner(target.app);
      const setup = await connectTenant(target, idp, owner, options);
      return { owner, domain: setup.domains[0]!, setup };
    }

    function person(idp: OidcTestProvider, email: string, extra: { groups?: string[]; amr?: string[]; email_verified?: boolean } = {}) {
      return idp.addAccount({ sub: `sub-${email}`, email, email_verified: extra.email_verified ?? true, groups: extra.groups, amr: extra.amr });
    }

    async function signedIn(token: string) {
      const me = await request(target.app).get(`${AUTH}/account`).set(bearer({ token }));
      expect(me.status).toBe(200);
      return me.body as { user_id: string; tenant_id: string; role: string; email: string; email_verified: boolean };
    }

    async function auditActions(owner: Account, action: string) {
      const res = await request(target.app).get(`${AUTH}/audit-events`).query({ action }).set(bearer(owner));
      expect(res.status).toBe(200);
      return res.body.events as { target_id: string | null; details: Record<string, unknown> }[];
    }

    test('V6.8.1 a whole sign-in: the provider, the callback, the console\'s code; a member created with a verified address and an SSO session', async () => {
      const { owner, domain } = await connectedTenant();
      const ada = person(provider, `ada@${domain}`);

      const authorization = new URL(await startAt(target.app, { email: ada.email! }));
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${provider.issuer}/auth`);
      expect(authorization.searchParams.get('redirect_uri')).toBe(SSO_ADDRESSES.redirectUri);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');

      const landing = landingOf(await callback(target.app, await provider.signIn(authorization.href, ada.sub)));
      expect(landing.error).toBeNull();
      expect(landing.code).toMatch(/^[0-9a-f]{64}$/);
      const answer = await exchange(target.app, landing.code);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ token: expect.any(String), expires_in: '24h' });
      expect(claimsOf(answer.body.token)).toMatchObject({ tenantId: owner.tenantId, amr: ['sso'] });
      expect(await signedIn(answer.body.token)).toMatchObject({ tenant_id: owner.tenantId, email: ada.email, role: 'member', email_verified: true });

      const created = await auditActions(owner, 'sso.member_created');
      expect(created).toHaveLength(1);
      expect(await auditActions(owner, 'sso.sign_in')).toEqual([expect.objectContaining({ details: expect.objectContaining({ joined: 'created', amr: 'sso' }) })]);

      // Signing in again is the same member, found by the provider's subject.
      const again = await exchange(target.app, (await signInThrough(target.app, provider, { email: ada.email! }, ada.sub)).code);
      expect((await signedIn(again.body.token)).user_id).toBe(created[0]!.target_id);
      expect(await auditActions(owner, 'sso.member_created')).toHaveLength(1);
    });

    test('start answers the provider URL as JSON to the console, 404 where there is no single sign-on, and 400 without exactly one of email and tenant', async () => {
      const { domain } = await connectedTenant();
      const json = await request(target.app).get(`${AUTH}/sso/start`).query({ email: `bo@${domain}` }).set('Accept', 'application/json');
      expect(json.status).toBe(200);
      expect(json.body.redirect_url).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
      expectError(await request(target.app).get(`${AUTH}/sso/start`).query({ email: `bo@${freshDomain()}` }), 404, 'No single sign-on for this address');
      expectError(await request(target.app).get(`${AUTH}/sso/start`).query({ tenant: 'no-such-tenant' }), 404, 'No single sign-on for this address');
      expect((await request(target.app).get(`${AUTH}/sso/start`)).status).toBe(400);
      expect((await request(target.app).get(`${AUTH}/sso/start`).query({ email: `bo@${domain}`, tenant: 'x' })).status).toBe(400);
    });

    test('start by the tenant\'s slug; a tenant without a connection has no single sign-on', async () => {
      const { owner, domain } = await connectedTenant();
      const tenant = await target.repos.tenants.findById(owner.tenantId);
      const cy = person(provider, `cy@${domain}`);
      const landing = await signInThrough(target.app, provider, { tenant: tenant!.slug }, cy.sub);
      expect((await signedIn((await exchange(target.app, landing.code)).body.token)).tenant_id).toBe(owner.tenantId);

      const unconnected = await signupOwner(target.app);
      const slug = (await target.repos.tenants.findById(unconnected.tenantId))!.slug;
      expectError(await request(target.app).get(`${AUTH}/sso/start`).query({ tenant: slug }), 404, 'No single sign-on for this address');
    });

    test('first sign-in: the highest role a group maps to, else the default role', async () => {
      const { domain } = await connectedTenant(provider, { defaultRole: 'viewer', groupRoles: { staff: 'member', admins: 'admin' } });
      const admin = person(provider, `di@${domain}`, { groups: ['staff', 'admins', 'other'] });
      const plain = person(provider, `ed@${domain}`, { groups: ['other'] });
      for (const [who, role] of [[admin, 'admin'], [plain, 'viewer']] as const) {
        const landing = await signInThrough(target.app, provider, { email: who.email! }, who.sub);
        expect((await signedIn((await exchange(target.app, landing.code)).body.token)).role).toBe(role);
      }
    });

    test('V6.8.1 an existing member of this tenant with the address is linked at first sign-in, not duplicated', async () => {
      const { owner, domain } = await connectedTenant();
      const email = `fay@${domain}`;
      const invite = await request(target.app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email, role: 'admin' });
      const joined = await request(target.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.body.invite_token });
      expect(joined.status).toBe(201);
      const fay = person(provider, email);
      const answer = await exchange(target.app, (await signInThrough(target.app, provider, { email }, fay.sub)).code);
      expect(await signedIn(answer.body.token)).toMatchObject({ user_id: claimsOf(joined.body.token).userId, role: 'admin', email_verified: true });
      expect(await auditActions(owner, 'sso.member_created')).toHaveLength(0);
      expect(await auditActions(owner, 'sso.sign_in')).toEqual([expect.objectContaining({ details: expect.objectContaining({ joined: 'linked' }) })]);
    });

    test('V6.8.1 another tenant\'s provider cannot sign in an address of this tenant\'s domain, nor reach this tenant', async () => {
      const a = await connectedTenant(provider);
      const b = await connectedTenant(stranger);
      // The same person at both providers: A's provider signs them in to A only.
      const gil = person(provider, `gil@${a.domain}`);
      const atA = await exchange(target.app, (await signInThrough(target.app, provider, { email: gil.email! }, gil.sub)).code);
      expect((await signedIn(atA.body.token)).tenant_id).toBe(a.owner.tenantId);

      // B's provider vouches for an address of A's domain: B has not verified it, so B's provider cannot claim it.
      const forged = person(stranger, gil.email!);
      const slugB = (await target.repos.tenants.findById(b.owner.tenantId))!.slug;
      const refused = await signInThrough(target.app, stranger, { tenant: slugB }, forged.sub);
      expect(refused).toEqual({ code: null, error: 'This address is not in a verified domain of this organisation' });
      expect(await auditActions(b.owner, 'sso.sign_in_refused')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ reason: 'domain_not_verified' }) }),
      ]);
      // And by address, the sign-in always goes to A's provider.
      expect(new URL(await startAt(target.app, { email: gil.email! })).origin).toBe(provider.issuer);
    });

    test('an address already registered in another tenant is refused with a clear message', async () => {
      const other = await signupOwner(target.app);
      const { owner, domain } = await connectedTenant();
      // A member of another tenant holds an address of the domain this tenant verified later.
      const email = `hal@${domain}`;
      const invite = await request(target.app).post(`${AUTH}/invite`).set(bearer(other)).send({ email });
      expect((await request(target.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.body.invite_token })).status).toBe(201);
      const hal = person(provider, email);
      expect(await signInThrough(target.app, provider, { email }, hal.sub)).toEqual({ code: null, error: 'This address belongs to another tenant' });
      expect(await auditActions(owner, 'sso.sign_in_refused')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ reason: 'address_of_another_tenant' }) }),
      ]);
    });

    test('an address of an unverified domain, or one the provider has not verified, creates nobody', async () => {
      const pending = freshDomain();
      const { owner } = await connectedTenant(provider, { unverified: [pending] });
      const slug = (await target.repos.tenants.findById(owner.tenantId))!.slug;
      expectError(await request(target.app).get(`${AUTH}/sso/start`).query({ email: `ivy@${pending}` }), 404, 'No single sign-on for this address');
      const ivy = person(provider, `ivy@${pending}`);
      expect(await signInThrough(target.app, provider, { tenant: slug }, ivy.sub))
        .toEqual({ code: null, error: 'This address is not in a verified domain of this organisation' });

      const { domain } = await connectedTenant();
      const jo = person(provider, `jo@${domain}`, { email_verified: false });
      expect(await signInThrough(target.app, provider, { email: jo.email! }, jo.sub))
        .toEqual({ code: null, error: 'The identity provider has not verified this address' });
    });

    test('V10.1.2 the state is used once: a replayed answer is refused', async () => {
      const { domain } = await connectedTenant();
      const kim = person(provider, `kim@${domain}`);
      const answer = await provider.signIn(await startAt(target.app, { email: kim.email! }), kim.sub);
      expect(landingOf(await callback(target.app, answer)).code).not.toBeNull();
      expect(landingOf(await callback(target.app, answer))).toEqual({ code: null, error: 'This sign-in has expired or was already used; please start again' });
      const forged = new URL(answer);
      forged.searchParams.set('state', 'made-up');
      expect(landingOf(await callback(target.app, forged.href)).error).toBe('This sign-in has expired or was already used; please start again');
    });

    test('the provider\'s own refusal is shown; parameters a provider adds to its redirect are ignored', async () => {
      const { owner, domain } = await connectedTenant();
      const state = new URL(await startAt(target.app, { email: `ro@${domain}` })).searchParams.get('state')!;
      const denied = `${SSO_ADDRESSES.redirectUri}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`;
      expect(landingOf(await callback(target.app, denied))).toEqual({ code: null, error: 'The identity provider did not sign you in' });
      expect(await auditActions(owner, 'sso.sign_in_refused')).toEqual([
        expect.objectContaining({ details: { reason: 'provider_error', check: 'access_denied' } }),
      ]);

      const ro = person(provider, `ro@${domain}`);
      const answer = new URL(await provider.signIn(await startAt(target.app, { email: ro.email! }), ro.sub));
      answer.searchParams.set('scope', 'openid email profile');
      answer.searchParams.set('authuser', '0');
      expect(landingOf(await callback(target.app, answer.href)).code).toMatch(/^[0-9a-f]{64}$/);
    });

    test('V10.5.1 V10.5.4 V9.2.1 an ID token with another nonce, another audience, or past its expiry is refused', async () => {
      const { owner, domain } = await connectedTenant();
      const lee = person(provider, `lee@${domain}`);
      const tamperings = [
        (claims: Record<string, unknown>) => ({ ...claims, nonce: 'another-sign-in' }),
        (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client' }),
        // Ten minutes before the service's now, well past the checks' tolerance of clock skew.
        (claims: Record<string, unknown>) => ({ ...claims, exp: Math.floor(target.clock.now().getTime() / 1000) - 600 }),
      ];
      for (const claims of tamperings) {
        provider.tamperIdTokens({ claims });
        expect(await signInThrough(target.app, provider, { email: lee.email! }, lee.sub)).toEqual({ code: null, error: REFUSED_ANSWER });
      }
      const refusals = await auditActions(owner, 'sso.sign_in_refused');
      expect(refusals.map((event) => event.details['check'])).toEqual([
        expect.stringMatching(/"exp"/), expect.stringMatching(/"aud"/), expect.stringMatching(/"nonce"/),
      ]);
      expect(await auditActions(owner, 'sso.member_created')).toHaveLength(0);
    });

    test('the one-time code is used once and lasts a minute', async () => {
      const { domain } = await connectedTenant();
      const max = person(provider, `max@${domain}`);
      const { code } = await signInThrough(target.app, provider, { email: max.email! }, max.sub);
      expect((await exchange(target.app, code)).status).toBe(200);
      expectError(await exchange(target.app, code), 401, INVALID_CODE);

      const late = await signInThrough(target.app, provider, { email: max.email! }, max.sub);
      target.clock.advance({ seconds: 61 });
      expectError(await exchange(target.app, late.code), 401, INVALID_CODE);
      expectError(await exchange(target.app, 'not-a-code'), 401, INVALID_CODE);
    });

    test('V7.5.1 an SSO session counts as authenticated at its start: routes that want recent authentication take it', async () => {
      const { domain } = await connectedTenant();
      const una = person(provider, `una@${domain}`);
      const answer = await exchange(target.app, (await signInThrough(target.app, provider, { email: una.email! }, una.sub)).code);
      expect((await request(target.app).post(`${AUTH}/mfa/totp`).set(bearer({ token: answer.body.token }))).status).toBe(200);
    });

    test('a removed member is refused', async () => {
      const { owner, domain } = await connectedTenant();
      const ned = person(provider, `ned@${domain}`);
      const first = await exchange(target.app, (await signInThrough(target.app, provider, { email: ned.email! }, ned.sub)).code);
      const { user_id: userId } = await signedIn(first.body.token);
      expect((await request(target.app).delete(`${AUTH}/members/${userId}`).set(bearer(owner))).status).toBe(200);
      expect(await signInThrough(target.app, provider, { email: ned.email! }, ned.sub)).toEqual({ code: null, error: 'This account cannot sign in' });
    });

    test('V6.8.1 a member the provider deactivated over SCIM is refused, whether they signed in before or were only provisioned; restored, they sign in', async () => {
      const { owner, domain } = await connectedTenant();
      const scim = await scimTokenOf(target.app, owner);
      const before = person(provider, `bo@${domain}`);
      const first = await exchange(target.app, (await signInThrough(target.app, provider, { email: before.email! }, before.sub)).code);
      const { user_id: boId } = await signedIn(first.body.token);
      const provisioned = person(provider, `pia@${domain}`);
      const pia = await provision(target.app, scim, provisioned.email!);

      for (const [id, who] of [[boId, before], [pia.id, provisioned]] as const) {
        expect((await setActive(target.app, scim, id, oktaActive(false))).status).toBe(200);
        expect(await signInThrough(target.app, provider, { email: who.email! }, who.sub)).toEqual({ code: null, error: 'This account is deactivated' });
      }
      expect((await auditActions(owner, 'sso.sign_in_refused')).map((event) => event.details['reason'])).toEqual(['member_suspended', 'member_suspended']);

      expect((await setActive(target.app, scim, pia.id, oktaActive(true))).status).toBe(200);
      const back = await exchange(target.app, (await signInThrough(target.app, provider, { email: provisioned.email! }, provisioned.sub)).code);
      expect(await signedIn(back.body.token)).toMatchObject({ user_id: pia.id });
    });

    describe('a tenant that requires a second factor', () => {
      test('V6.8.4 a sign-in whose provider proved a second factor is a full session (amr sso mfa)', async () => {
        const { owner, domain } = await connectedTenant();
        await target.repos.tenants.setMfaPolicy(owner.tenantId, 'required');
        const oz = person(provider, `oz@${domain}`, { amr: ['pwd', 'otp'] });
        const answer = await exchange(target.app, (await signInThrough(target.app, provider, { email: oz.email! }, oz.sub)).code);
        expect(claimsOf(answer.body.token)).toMatchObject({ amr: ['sso', 'mfa'] });
        expect(claimsOf(answer.body.token)['mfa_enroll']).toBeUndefined();
        expect((await request(target.app).get(`${AUTH}/sessions`).set(bearer({ token: answer.body.token }))).status).toBe(200);
      });

      test('V6.8.4 without one, a member with no factor of their own gets the enrollment-only session a password gets', async () => {
        const { owner, domain } = await connectedTenant();
        await target.repos.tenants.setMfaPolicy(owner.tenantId, 'required');
        const pat = person(provider, `pat@${domain}`, { amr: ['pwd'] });
        const answer = await exchange(target.app, (await signInThrough(target.app, provider, { email: pat.email! }, pat.sub)).code);
        expect(answer.status).toBe(200);
        expectError(await request(target.app).get(`${AUTH}/sessions`).set(bearer({ token: answer.body.token })), 403, 'Second factor enrollment required');
        expect((await request(target.app).get(`${AUTH}/me`).set(bearer({ token: answer.body.token }))).status).toBe(200);
      });

      test('V6.8.4 without one, a member with their own factor is asked for it, as after a password', async () => {
        const { owner, domain } = await connectedTenant();
        const email = `quin@${domain}`;
        const invite = await request(target.app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email });
        const joined = await request(target.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.body.invite_token });
        const enrolled = await enrollApp(target.app, target.clock, { email, token: joined.body.token, tenantId: owner.tenantId, userId: '', role: 'member' });
        await target.repos.tenants.setMfaPolicy(owner.tenantId, 'required');
        const quin = person(provider, email, { amr: ['pwd'] });

        const { code } = await signInThrough(target.app, provider, { email }, quin.sub);
        const asked = await exchange(target.app, code);
        expectError(asked, 401, 'Second factor required');
        expect(asked.body.methods).toEqual(['totp', 'recovery_code']);
        expectError(await exchange(target.app, code), 401, INVALID_CODE);

        target.clock.advance({ seconds: 30 });
        const done = await request(target.app).post(`${AUTH}/login/mfa`).send({ mfa_token: asked.body.mfa_token, code: codeAt(enrolled.secret, target.clock.now()) });
        expect(done.status).toBe(200);
        expect(claimsOf(done.body.token)).toMatchObject({ amr: ['sso', 'otp', 'mfa'] });
        expect((await request(target.app).get(`${AUTH}/sessions`).set(bearer({ token: done.body.token }))).status).toBe(200);
      });
    });
  });
}
