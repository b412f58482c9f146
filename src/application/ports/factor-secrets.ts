/**
 * Encryption of the secrets the service must read back (an authenticator app's shared secret), with
 * a key from configuration (MFA_ENCRYPTION_KEY). The stored text names its key, so the key can rotate.
 * `context` (the member's tenant and id) is bound to the ciphertext: a secret copied onto another
 * member's row does not decrypt.
 */
export interface FactorSecrets {
  seal(plain: string, context: string): string;
  /** Throws when the text was not sealed by a key held here for that context. */
  open(sealed: string, context: string): string;
}
