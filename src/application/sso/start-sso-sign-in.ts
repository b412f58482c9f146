import { normalizeEmail } from '../../domain/email';
import { SsoNotAvailable } from '../../domain/errors';
import { domainOfEmail } from '../../domain/sso';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { OidcProviders } from '../ports/oidc-providers';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import { clientSettingsOf, SSO_SIGN_IN_TTL_SECONDS, type SsoAddresses } from './sso-settings';

export type StartSsoSignInInput = { readonly email: string } | { readonly tenantSlug: string };

export interface StartSsoSignInDeps {
  readonly repos: Repositories;
  readonly oidc: OidcProviders;
  readonly factorSecrets: FactorSecrets;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly addresses: SsoAddresses;
}

/**
 * GET /sso/start: finds the tenant (by a verified domain of the address, or by its slug) and its
 * connection, asks the provider for the authorization request (discovery is network work, done
 * before anything is written), and keeps what the callback must check under the SHA-256 of the
 * state. An unknown or unverified domain, an unknown slug and a tenant without a connection all
 * answer alike, so the answer tells no more than whether single sign-on exists there.
 */
export class StartSsoSignIn {
  constructor(private readonly deps: StartSsoSignInDeps) {}

  async execute(input: StartSsoSignInInput): Promise<{ redirectUrl: string }> {
    const { repos, oidc, factorSecrets, secrets, clock, addresses } = this.deps;
    const tenantId = await this.tenantOf(input);
    const connection = tenantId === null ? null : await repos.ssoConnections.find(tenantId);
    if (!connection) throw new SsoNotAvailable();
    const start = await oidc.beginSignIn(clientSettingsOf(connection, factorSecrets), addresses.redirectUri);
    const now = clock.now();
    await repos.ssoSignIns.create({
      stateHash: secrets.sha256Hex(start.state),
      tenantId: connection.tenantId,
      issuer: connection.issuer,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SSO_SIGN_IN_TTL_SECONDS * 1000),
      usedAt: null,
    });
    // Sign-ins abandoned at the provider are never called back: each start clears the expired ones.
    await repos.ssoSignIns.pruneExpired(now);
    return { redirectUrl: start.url };
  }

  private async tenantOf(input: StartSsoSignInInput): Promise<string | null> {
    if ('tenantSlug' in input) return this.deps.repos.tenants.findIdBySlug(input.tenantSlug);
    const domain = domainOfEmail(normalizeEmail(input.email));
    return domain === null ? null : this.deps.repos.ssoDomains.verifiedOwner(domain);
  }
}
