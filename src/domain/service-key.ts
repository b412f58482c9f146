/**
 * Service keys: the credential another service (a verifier) presents to ask Portcullis about a
 * caller's credential. They belong to no tenant and act as no user; an operator makes and revokes
 * them (`npm run service-key`). Their prefix differs from a tenant's API key, so one can never be
 * mistaken for the other, in a header or in a leaked log.
 */
export const SERVICE_KEY_PREFIX = 'pcsk_';
/** 32 random bytes: 64 hex characters after the prefix. */
export const SERVICE_KEY_RANDOM_BYTES = 32;
export const SERVICE_KEY_LENGTH = SERVICE_KEY_PREFIX.length + SERVICE_KEY_RANDOM_BYTES * 2;
/** Shown to operators beside the name, so a key in a config file can be matched to its record. */
export const SERVICE_KEY_DISPLAY_PREFIX_LENGTH = 13;
export const SERVICE_KEY_NAME_MAX_LENGTH = 100;

/**
 * Which tenants' credentials a service key may ask about and hear of: every tenant, or the ones
 * named. Always said when a key is made (the command line has no default), so that a key that
 * sees every tenant does so because an operator chose it.
 */
export type ServiceKeyScope =
  | { readonly kind: 'all-tenants' }
  | { readonly kind: 'tenants'; readonly tenantIds: readonly string[] };

export const ALL_TENANTS: ServiceKeyScope = Object.freeze({ kind: 'all-tenants' });

export function namedTenants(tenantIds: readonly string[]): ServiceKeyScope {
  return { kind: 'tenants', tenantIds: [...new Set(tenantIds.map((id) => id.toLowerCase()))].sort() };
}

/** Whether a service with this scope may learn about a credential of that tenant. */
export function scopeCovers(scope: ServiceKeyScope, tenantId: string): boolean {
  return scope.kind === 'all-tenants' || scope.tenantIds.includes(tenantId.toLowerCase());
}

/** For operators' lists: `all tenants`, or the tenant ids. */
export function describeScope(scope: ServiceKeyScope): string {
  return scope.kind === 'all-tenants' ? 'all tenants' : `tenants ${scope.tenantIds.join(',')}`;
}

export interface ServiceKey {
  readonly id: string;
  /** A label for operators ("webhook-worker"), unique among keys that are not revoked. */
  readonly name: string;
  readonly keyPrefix: string;
  /** SHA-256 of the raw key, lowercase hex; the raw key is never stored. */
  readonly keyHash: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly scope: ServiceKeyScope;
}

/** The calling service, once its key has been checked. */
export interface ServiceCaller {
  readonly serviceKeyId: string;
  readonly name: string;
  readonly scope: ServiceKeyScope;
}

const HEX = /^[0-9a-f]+$/;

export function isWellFormedServiceKey(raw: string): boolean {
  return raw.length === SERVICE_KEY_LENGTH && raw.startsWith(SERVICE_KEY_PREFIX) && HEX.test(raw.slice(SERVICE_KEY_PREFIX.length));
}

export function composeServiceKey(randomHex: string): string {
  return `${SERVICE_KEY_PREFIX}${randomHex}`;
}

/** Printable, 1 to 100 characters, no surrounding spaces: it is typed on a command line and shown in lists. */
export function isValidServiceKeyName(name: string): boolean {
  return name.length >= 1 && name.length <= SERVICE_KEY_NAME_MAX_LENGTH && name.trim() === name && /^[\x21-\x7e ]+$/.test(name);
}
