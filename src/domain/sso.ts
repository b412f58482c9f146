import { SsoGroupRolesInvalid } from './errors';
import { INVITABLE_ROLES, type InvitableRole } from './role';

const isInvitableRole = (value: unknown): value is InvitableRole => (INVITABLE_ROLES as readonly unknown[]).includes(value);

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

/**
 * The context a connection's client secret is sealed under (FactorSecrets): its tenant, so a sealed
 * secret copied onto another tenant's row does not open.
 */
export const ssoSecretContext = (tenantId: string): string => `sso-client-secret:${tenantId}`;

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

/** Where a tenant puts the TXT record that proves it holds a domain. */
export const SSO_VERIFICATION_LABEL = '_portcullis-verification';
/** What the record's value starts with; the rest is random. */
export const SSO_VERIFICATION_PREFIX = 'portcullis-verification=';
/** The random part of a record's value, in bytes. */
export const SSO_VERIFICATION_BYTES = 32;

/**
 * A domain name as a tenant may claim it: dot-separated labels of letters, digits and inner
 * hyphens (an internationalised name in its xn-- form), at most 253 characters, ending in a label
 * that starts with a letter (so never an IP address); one trailing dot allowed.
 */
export const SSO_DOMAIN_PATTERN = /^(?=.{1,253}\.?$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$/;

/** The domain in its stored form (lower case, no trailing dot); null when it is not a domain name. */
export function normaliseDomain(raw: string): string | null {
  if (!SSO_DOMAIN_PATTERN.test(raw)) return null;
  return raw.toLowerCase().replace(/\.$/, '');
}

/** The domain of an address (already normalised by domain/email.ts), in its stored form. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 0 ? null : normaliseDomain(email.slice(at + 1));
}

export function verificationRecordName(domain: string): string {
  return `${SSO_VERIFICATION_LABEL}.${domain}`;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The record's value from random bytes given as hex (the Secrets port's form), base64url without padding. */
export function verificationValue(randomHex: string): string {
  const bytes = randomHex.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? [];
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c += 1) text += BASE64URL[(chunk >> (18 - 6 * c)) & 63];
  }
  return `${SSO_VERIFICATION_PREFIX}${text}`;
}

/**
 * Whether the TXT records of the verification name hold the value. A record longer than 255
 * characters arrives in several strings, which DNS clients hand back apart: they are joined first.
 */
export function recordsHold(records: readonly (readonly string[])[], value: string): boolean {
  return records.some((strings) => strings.join('') === value);
}

/** The group-to-role mapping's bounds: a provider's group names are its own, but not without limit. */
export const SSO_GROUP_ROLES_MAX = 100;
export const SSO_GROUP_NAME_MAX = 256;

/**
 * The group mapping of a request, checked: an object of at most SSO_GROUP_ROLES_MAX group names
 * (each 1 to SSO_GROUP_NAME_MAX characters) to invitable roles. Throws SsoGroupRolesInvalid.
 */
export function groupRolesOf(value: object): Record<string, InvitableRole> {
  const entries = Array.isArray(value) ? null : Object.entries(value);
  if (entries === null || entries.length > SSO_GROUP_ROLES_MAX) throw new SsoGroupRolesInvalid();
  for (const [group, role] of entries) {
    if (group.length === 0 || group.length > SSO_GROUP_NAME_MAX || !isInvitableRole(role)) throw new SsoGroupRolesInvalid();
  }
  return Object.fromEntries(entries) as Record<string, InvitableRole>;
}

/**
 * Whether a text is an issuer a tenant may connect: an absolute https: URL (http: only where the
 * configuration allows it) with no credentials, query or fragment, as OpenID Connect wants an issuer.
 */
export function isAcceptableIssuer(issuer: string, allowHttp: boolean): boolean {
  if (!URL.canParse(issuer)) return false;
  const url = new URL(issuer);
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && allowHttp);
  return scheme && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}
