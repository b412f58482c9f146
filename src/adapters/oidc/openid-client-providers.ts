import type * as OpenIdClient from 'openid-client';
import type { Clock } from '../../application/ports/clock';
import type {
  OidcClientSettings, OidcExpectations, OidcProviderMetadata, OidcProviders, OidcSignInStart, OidcVerifiedClaims,
} from '../../application/ports/oidc-providers';
import { SsoAnswerRefused, SsoDiscoveryFailed } from '../../domain/errors';
import { isAcceptableIssuer } from '../../domain/sso';
import { importEsm } from '../esm-import';

type Library = typeof OpenIdClient;

export interface OpenIdClientProvidersOptions {
  /** Accept `http:` issuers (SSO_ALLOW_HTTP_ISSUER): a provider inside a test or on a developer's machine. */
  readonly allowHttpIssuer: boolean;
  /** The ID token's expiry and issue time are judged by this clock. */
  readonly clock: Clock;
  /** Seconds a request to the provider may take. */
  readonly timeoutSeconds?: number;
}

const SCOPE = 'openid email profile';

/**
 * How long a provider's discovery document is reused: a sign-in reads it at its start and again at
 * its callback, and every tenant of one provider shares it. Only documents that were read are kept;
 * a failed read is tried again at the next request.
 */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** Issuers remembered at most (one per connected provider); the oldest goes first. */
const DISCOVERY_ENTRIES_MAX = 1_000;

/**
 * The code flow through openid-client: PKCE S256, state and nonce on every request; the ID token's
 * signature is checked against the provider's published keys (openid-client skips that by default
 * for a token received over TLS, and we accept `http:` providers in tests), then its issuer,
 * audience, expiry and nonce.
 */
export class OpenIdClientProviders implements OidcProviders {
  private library: Promise<Library> | undefined;
  private readonly documents = new Map<string, { readonly server: OpenIdClient.ServerMetadata; readonly until: number }>();

  constructor(private readonly options: OpenIdClientProvidersOptions) {}

  async discover(issuer: string): Promise<OidcProviderMetadata> {
    const { server } = await this.discovered(issuer, 'discovery');
    return { issuer: server.issuer, authorizationEndpoint: server.authorization_endpoint ?? '' };
  }

  async beginSignIn(client: OidcClientSettings, redirectUri: string): Promise<OidcSignInStart> {
    const { lib, config } = await this.configuration(client);
    const codeVerifier = lib.randomPKCECodeVerifier();
    const state = lib.randomState();
    const nonce = lib.randomNonce();
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await lib.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  async finishSignIn(client: OidcClientSettings, callbackUrl: string, expected: OidcExpectations): Promise<OidcVerifiedClaims> {
    const { lib, config } = await this.configuration(client);
    let claims: OpenIdClient.IDToken | undefined;
    try {
      const tokens = await lib.authorizationCodeGrant(config, new URL(callbackUrl), {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw new SsoAnswerRefused(describe(error));
    }
    if (!claims) throw new SsoAnswerRefused('no ID token');
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof claims['email'] === 'string' ? claims['email'] : null,
      emailVerified: claims['email_verified'] === true,
      groups: strings(claims['groups']),
      amr: strings(claims.amr),
      authTime: typeof claims.auth_time === 'number' ? new Date(claims.auth_time * 1000) : null,
    };
  }

  private async discovered(issuer: string, clientId: string): Promise<{ lib: Library; server: OpenIdClient.ServerMetadata; insecure: boolean }> {
    const lib = await this.load();
    const url = this.issuerUrl(issuer);
    const insecure = url.protocol === 'http:';
    const now = this.options.clock.now().getTime();
    const kept = this.documents.get(url.href);
    if (kept && kept.until > now) return { lib, server: kept.server, insecure };
    let server: OpenIdClient.ServerMetadata;
    try {
      const discovered = await lib.discovery(url, clientId, undefined, undefined, {
        execute: insecure ? [lib.allowInsecureRequests] : [],
        timeout: this.options.timeoutSeconds ?? 10,
      });
      server = discovered.serverMetadata();
    } catch {
      throw new SsoDiscoveryFailed();
    }
    this.documents.delete(url.href);
    if (this.documents.size >= DISCOVERY_ENTRIES_MAX) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(url.href, { server, until: now + DISCOVERY_TTL_MS });
    return { lib, server, insecure };
  }

  private async configuration(client: OidcClientSettings): Promise<{ lib: Library; config: OpenIdClient.Configuration }> {
    const { lib, server, insecure } = await this.discovered(client.issuer, client.clientId);
    // The client authenticates as the provider prefers; client_secret_basic is the standard's default.
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const authentication = methods.includes('client_secret_basic')
      ? lib.ClientSecretBasic(client.clientSecret)
      : lib.ClientSecretPost(client.clientSecret);
    const config = new lib.Configuration(server, client.clientId, {
      // The service's clock, not the host's, decides whether an ID token is current (tests move it).
      [lib.clockSkew]: Math.round((this.options.clock.now().getTime() - Date.now()) / 1000),
    }, authentication);
    if (insecure) lib.allowInsecureRequests(config);
    lib.enableNonRepudiationChecks(config);
    return { lib, config };
  }

  private issuerUrl(issuer: string): URL {
    if (!isAcceptableIssuer(issuer, this.options.allowHttpIssuer)) throw new SsoDiscoveryFailed();
    return new URL(issuer);
  }

  private load(): Promise<Library> {
    this.library ??= importEsm<Library>('openid-client');
    return this.library;
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * openid-client's errors carry a code, and the check that failed in their cause (the claim, the
 * signature): enough for the audit trail to say why a sign-in was refused.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown failure';
  const code = (error as { code?: unknown }).code;
  const parts = [typeof code === 'string' ? `${code}: ${error.message}` : error.message];
  const cause = error.cause as { message?: unknown; claim?: unknown; error?: unknown } | undefined;
  if (cause instanceof Error && cause.message !== error.message) parts.push(cause.message);
  if (cause && typeof cause.claim === 'string') parts.push(`claim ${cause.claim}`);
  if (cause && typeof cause.error === 'string') parts.push(cause.error);
  return parts.join('; ');
}
