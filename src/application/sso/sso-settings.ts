import { type SsoConnection, ssoSecretContext } from '../../domain/sso';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { OidcClientSettings } from '../ports/oidc-providers';

/** Where single sign-on sends people: the service's callback (the redirect_uri every provider is given) and the console's page. */
export interface SsoAddresses {
  /** PUBLIC_URL + /api/v1/auth/sso/callback: one for every tenant (the state names the tenant). */
  readonly redirectUri: string;
  /** PUBLIC_URL + /console/sso-callback: where the callback hands the session over (a code) or says why not (an error). */
  readonly consoleCallbackUrl: string;
}

/** How long a sign-in may stay at the provider before its callback. */
export const SSO_SIGN_IN_TTL_SECONDS = 10 * 60;
/** How long the console has to exchange its one-time code for the session. */
export const SSO_HANDOFF_TTL_SECONDS = 60;

/** The connection as the OpenID client needs it: the secret opened (sealed for the tenant: ssoSecretContext). */
export function clientSettingsOf(connection: SsoConnection, factorSecrets: FactorSecrets): OidcClientSettings {
  return {
    issuer: connection.issuer,
    clientId: connection.clientId,
    clientSecret: factorSecrets.open(connection.clientSecretSealed, ssoSecretContext(connection.tenantId)),
  };
}
