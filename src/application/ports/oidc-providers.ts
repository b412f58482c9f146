/**
 * A tenant's OpenID Connect provider, as the single sign-on use-cases see it: discovery, the
 * authorization request (code flow with PKCE S256, state and nonce) and the verified answer. Every
 * method is network work: call it before a unit of work, never inside one.
 */
export interface OidcClientSettings {
  /** The issuer exactly as the connection stores it (and as discovery states it). */
  readonly issuer: string;
  readonly clientId: string;
  /** In the clear: the caller opens the sealed secret. */
  readonly clientSecret: string;
}

export interface OidcProviderMetadata {
  /** The issuer the discovery document states (it must equal the one asked for). */
  readonly issuer: string;
  readonly authorizationEndpoint: string;
}

/** What the callback must check; kept by the service between the redirect and the answer. */
export interface OidcExpectations {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface OidcSignInStart extends OidcExpectations {
  /** The provider's authorization URL to send the browser to. */
  readonly url: string;
}

/** The claims of an ID token whose signature, issuer, audience, expiry and nonce were checked. */
export interface OidcVerifiedClaims {
  readonly issuer: string;
  readonly subject: string;
  /** Null when the provider sent no address. */
  readonly email: string | null;
  /** True only when the provider states `email_verified: true`. */
  readonly emailVerified: boolean;
  /** The `groups` claim's strings; empty without one. */
  readonly groups: readonly string[];
  /** The `amr` claim's strings; empty without one. */
  readonly amr: readonly string[];
  readonly authTime: Date | null;
}

export interface OidcProviders {
  /** Reads the issuer's discovery document. Throws SsoDiscoveryFailed when it cannot be read or names another issuer. */
  discover(issuer: string): Promise<OidcProviderMetadata>;
  /** Builds the authorization request. Throws SsoDiscoveryFailed when the provider cannot be discovered. */
  beginSignIn(client: OidcClientSettings, redirectUri: string): Promise<OidcSignInStart>;
  /**
   * Redeems the code of the provider's answer (`callbackUrl`, the full URL the browser came back
   * to) and verifies the ID token. Throws SsoAnswerRefused when the provider reports an error, the
   * state differs, the code is refused, or the ID token fails any check; SsoDiscoveryFailed as above.
   */
  finishSignIn(client: OidcClientSettings, callbackUrl: string, expected: OidcExpectations): Promise<OidcVerifiedClaims>;
}
