import type { InvitableRole } from './role';

/**
 * A tenant's single sign-on: one OpenID Connect provider per tenant, the domains it has proven it
 * owns, the identities the provider vouched for, and the sign-ins in flight between the redirect to
 * the provider and its answer. Identities are keyed by (tenant, issuer, subject), never by address.
 */
export interface SsoConnection {
  readonly tenantId: string;
  /** The provider's issuer, exactly as its discovery document states it. */
  readonly issuer: string;
  readonly clientId: string;
  /** The client secret, sealed (FactorSecrets) with the tenant id as context; never answered. */
  readonly clientSecretSealed: string;
  /** The role given to a member created at their first sign-in when no group maps to one. */
  readonly defaultRole: InvitableRole;
  /** Addresses of the tenant's verified domains may not sign in with a password. */
  readonly ssoRequired: boolean;
  /** Optional mapping from a value of the ID token's `groups` claim to a role. */
  readonly groupRoles: Readonly<Record<string, InvitableRole>>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A domain a tenant claims; it is the tenant's once the TXT record was seen (verifiedAt). */
export interface SsoDomain {
  /** Lower case, no trailing dot. */
  readonly domain: string;
  readonly tenantId: string;
  /** The value the TXT record must hold. */
  readonly txtValue: string;
  readonly verifiedAt: Date | null;
  readonly createdAt: Date;
}

/** A person the tenant's provider signed in, tied to the member it became. */
export interface SsoIdentity {
  readonly tenantId: string;
  readonly issuer: string;
  readonly subject: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSignInAt: Date;
}

/**
 * A sign-in between the redirect to the provider and the callback: found by the SHA-256 of its
 * `state`, used once, short-lived. Holds what the callback must check (nonce, PKCE verifier).
 */
export interface SsoSignIn {
  readonly stateHash: string;
  readonly tenantId: string;
  readonly issuer: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}
