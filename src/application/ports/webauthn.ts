/** A credential as the options name it: to exclude from a registration, or to allow in a sign-in. */
export interface CredentialRef {
  readonly credentialId: string;
  readonly transports: readonly string[];
}

/** A credential an authenticator made, as a verified registration gives it. */
export interface NewCredential {
  readonly credentialId: string;
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly transports: readonly string[];
  readonly backedUp: boolean;
}

/** A stored credential to check an assertion against. */
export interface AssertionKey extends CredentialRef {
  readonly publicKey: Uint8Array;
  readonly signCount: number;
}

export interface VerifiedAssertion {
  readonly newSignCount: number;
  /** The authenticator verified its user (PIN, biometrics): the UV flag. */
  readonly userVerified: boolean;
  readonly backedUp: boolean;
}

/** What a response says before it is verified: which challenge it answers, and (an assertion) with which credential. */
export interface ResponseClaims {
  readonly challenge: string;
  readonly credentialId: string;
  /** An assertion's user handle, when the authenticator returned one. */
  readonly userHandle: string | null;
}

/**
 * The WebAuthn ceremonies for one relying party (its id and origin, from PUBLIC_URL). Options are
 * the JSON a browser's navigator.credentials call takes; responses are the JSON it gives back,
 * unvalidated. A response that is malformed or does not verify is null, never an error.
 */
export interface WebAuthnCeremonies {
  /** A fresh random challenge, base64url. */
  newChallenge(): string;
  registrationOptions(input: {
    readonly challenge: string;
    readonly userHandle: string;
    readonly userName: string;
    readonly exclude: readonly CredentialRef[];
  }): Promise<unknown>;
  authenticationOptions(input: { readonly challenge: string; readonly allow: readonly CredentialRef[] }): Promise<unknown>;
  /** The claims of a registration or an assertion response, read without verifying anything; null when malformed. */
  claims(response: unknown): ResponseClaims | null;
  verifyRegistration(response: unknown, expectedChallenge: string): Promise<NewCredential | null>;
  verifyAssertion(response: unknown, expectedChallenge: string, key: AssertionKey): Promise<VerifiedAssertion | null>;
}
