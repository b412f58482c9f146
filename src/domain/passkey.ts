/**
 * Passkeys (WebAuthn credentials) a member registered, and the challenges of the ceremonies that
 * register and use them. A credential is named by the id its authenticator chose (base64url), which
 * is unique across the service; its public key is COSE-encoded, as the authenticator gave it.
 */
export interface Passkey {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  /** The authenticator's credential id, base64url. */
  readonly credentialId: string;
  /** The COSE public key. */
  readonly publicKey: Uint8Array;
  /** The authenticator's signature counter as last seen; 0 for authenticators that keep none. */
  readonly signCount: number;
  readonly transports: readonly string[];
  /** Whether the credential is synced beyond one device (the BS flag) as last seen. */
  readonly backedUp: boolean;
  /** The WebAuthn user handle the credential was made for, base64url. */
  readonly userHandle: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/**
 * A member's ceremony: registering a passkey, or proving one as the second factor of a sign-in
 * attempt (`attemptKey` names the attempt). The challenge is used once and expires.
 */
export const PASSKEY_CHALLENGE_PURPOSES = ['registration', 'second_factor'] as const;
export type PasskeyChallengePurpose = (typeof PASSKEY_CHALLENGE_PURPOSES)[number];

export interface PasskeyChallenge {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly purpose: PasskeyChallengePurpose;
  /** The sign-in attempt a second-factor challenge answers; null for a registration. */
  readonly attemptKey: string | null;
  /** base64url, as the options carried it and the client data returns it. */
  readonly challenge: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/**
 * A passwordless sign-in ceremony: nobody is named yet, so it belongs to no tenant. The client holds
 * the ceremony's random handle; only its SHA-256 is stored.
 */
export interface PasskeySignInCeremony {
  readonly handleHash: string;
  readonly challenge: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** How long a ceremony's challenge may be answered. */
export const PASSKEY_CEREMONY_TTL_SECONDS = 300;
/** A passkey's name, as people see it in lists and notices. */
export const PASSKEY_NAME_MAX = 100;
/** The handle a passwordless ceremony gives the client, in random bytes (hex doubles it). */
export const PASSKEY_CEREMONY_HANDLE_BYTES = 32;

export function isWellFormedCeremonyHandle(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
