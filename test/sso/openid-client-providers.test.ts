import { OpenIdClientProviders } from '../../src/adapters/oidc/openid-client-providers';
import type { OidcClientSettings } from '../../src/application/ports/oidc-providers';
import { SsoAnswerRefused, SsoDiscoveryFailed } from '../../src/domain/errors';
import { TestClock } from '../../src/testing/test-clock';
import { OidcTestProvider, type TestClient } from '../support/oidc-test-provider';

const REDIRECT_URI = 'http://127.0.0.1:9/api/v1/auth/sso/callback';

describe('the OpenID Connect adapter against a real provider', () => {
  let provider: OidcTestProvider;
  let stranger: OidcTestProvider;
  let client: TestClient;
  let settings: OidcClientSettings;
  const clock = new TestClock();
  const providers = new OpenIdClientProviders({ allowHttpIssuer: true, clock });

  beforeAll(async () => {
    [provider, stranger] = await Promise.all([OidcTestProvider.start(), OidcTestProvider.start()]);
    client = provider.addClient({ redirect_uris: [REDIRECT_URI] });
    settings = { issuer: provider.issuer, clientId: client.client_id, clientSecret: client.client_secret };
    provider.addAccount({ sub: 'ada-1', email: 'ada@example.com', email_verified: true, groups: ['engineering'], amr: ['pwd', 'otp'] });
  }, 60_000);
  afterAll(async () => { await Promise.all([provider.close(), stranger.close()]); });
  afterEach(() => { provider.tamperIdTokens(null); });

  /** Refused, and for the reason the test is about (not some other failure along the way). */
  async function refused(work: Promise<unknown>, reason: RegExp) {
    const error = await work.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsoAnswerRefused);
    expect((error as SsoAnswerRefused).reason).toMatch(reason);
  }

  async function signIn(login = 'ada-1') {
    const start = await providers.beginSignIn(settings, REDIRECT_URI);
    const callbackUrl = await provider.signIn(start.url, login);
    return { start, callbackUrl };
  }

  it('discovers the issuer', async () => {
    const metadata = await providers.discover(provider.issuer);
    expect(metadata.issuer).toBe(provider.issuer);
    expect(metadata.authorizationEndpoint).toBe(`${provider.issuer}/auth`);
  });

  it('reads a provider\'s discovery document once in five minutes, whoever asks (start, callback, a connection saved)', async () => {
    const own = new TestClock();
    const cached = new OpenIdClientProviders({ allowHttpIssuer: true, clock: own });
    const reads = () => stranger.requests.get('/.well-known/openid-configuration') ?? 0;
    const before = reads();
    await cached.discover(stranger.issuer);
    await cached.beginSignIn({ issuer: stranger.issuer, clientId: 'any', clientSecret: 'any' }, REDIRECT_URI);
    own.advance({ seconds: 299 });
    await cached.discover(stranger.issuer);
    expect(reads()).toBe(before + 1);
    own.advance({ seconds: 2 });
    await cached.discover(stranger.issuer);
    expect(reads()).toBe(before + 2);
  });

  it('refuses a provider without discovery, and an http: issuer unless told to accept one', async () => {
    await expect(providers.discover('http://127.0.0.1:9')).rejects.toThrow(SsoDiscoveryFailed);
    const strict = new OpenIdClientProviders({ allowHttpIssuer: false, clock });
    await expect(strict.discover(provider.issuer)).rejects.toThrow(SsoDiscoveryFailed);
    await expect(providers.discover('not a url')).rejects.toThrow(SsoDiscoveryFailed);
  });

  it('asks for the code flow with PKCE S256, state, nonce and the openid email profile scope', async () => {
    const start = await providers.beginSignIn(settings, REDIRECT_URI);
    const params = new URL(start.url).searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(client.client_id);
    expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).not.toBe(start.codeVerifier);
    expect(params.get('state')).toBe(start.state);
    expect(params.get('nonce')).toBe(start.nonce);
  });

  it('V6.8.1 a whole code flow answers the verified claims, the subject with its issuer', async () => {
    const { start, callbackUrl } = await signIn();
    expect(callbackUrl.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const claims = await providers.finishSignIn(settings, callbackUrl, start);
    expect(claims).toEqual({
      issuer: provider.issuer,
      subject: 'ada-1',
      email: 'ada@example.com',
      emailVerified: true,
      groups: ['engineering'],
      amr: ['pwd', 'otp'],
      authTime: expect.any(Date),
    });
  });

  it('V10.5.4 refuses an ID token issued for another audience', async () => {
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, aud: 'some-other-client' }) });
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, start), /"aud"/);
  });

  it('V10.5.1 refuses an ID token whose nonce is not the one of this sign-in (a replayed token)', async () => {
    const earlier = await providers.beginSignIn(settings, REDIRECT_URI);
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, nonce: earlier.nonce }) });
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, start), /"nonce"/);
  });

  it('V9.2.1 refuses an ID token that has expired', async () => {
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }) });
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, start), /"exp"/);
  });

  it('V9.2.1 judges expiry by the service clock: a token current for the provider but not for the service is refused', async () => {
    const { start, callbackUrl } = await signIn();
    const later = new OpenIdClientProviders({ allowHttpIssuer: true, clock: new TestClock(new Date(Date.now() + 2 * 3600_000)) });
    await refused(later.finishSignIn(settings, callbackUrl, start), /"exp"/);
  });

  it('V6.8.2 refuses an ID token signed with a key the provider does not publish', async () => {
    provider.tamperIdTokens({ foreignKey: true });
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, start), /signature verification failed/);
  });

  it('V6.8.1 refuses an ID token naming another issuer', async () => {
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, iss: stranger.issuer }) });
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, start), /JWT "iss"/);
  });

  it('V6.8.1 refuses a code from another provider presented to this connection', async () => {
    const strangerClient = stranger.addClient({ client_id: client.client_id, client_secret: client.client_secret, redirect_uris: [REDIRECT_URI] });
    stranger.addAccount({ sub: 'ada-1', email: 'ada@example.com', email_verified: true });
    const strangerSettings = { issuer: stranger.issuer, clientId: strangerClient.client_id, clientSecret: strangerClient.client_secret };
    const strangerStart = await providers.beginSignIn(strangerSettings, REDIRECT_URI);
    const callbackUrl = await stranger.signIn(strangerStart.url, 'ada-1');
    await refused(providers.finishSignIn(settings, callbackUrl, strangerStart), /"iss" \(issuer\) response parameter/);
  });

  it('V10.1.2 refuses an answer whose state differs, and a code redeemed twice', async () => {
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, { ...start, state: 'another-state' }), /"state"/);
    const { start: second, callbackUrl: secondUrl } = await signIn();
    await providers.finishSignIn(settings, secondUrl, second);
    await refused(providers.finishSignIn(settings, secondUrl, second), /invalid_grant/);
  });

  it('V10.1.2 refuses a wrong PKCE verifier, and an error answer from the provider', async () => {
    const { start, callbackUrl } = await signIn();
    await refused(providers.finishSignIn(settings, callbackUrl, { ...start, codeVerifier: 'x'.repeat(43) }), /invalid_grant/);
    const failed = `${REDIRECT_URI}?error=access_denied&state=${start.state}&iss=${encodeURIComponent(provider.issuer)}`;
    await refused(providers.finishSignIn(settings, failed, start), /AUTHORIZATION_RESPONSE_ERROR/);
  });
});
