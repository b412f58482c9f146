export interface PasswordHasher {
  /** A salted hash that carries its own parameters, so they can be raised later. */
  hash(password: string): Promise<string>;
  /** Whether the password matches the stored hash; false (never a throw) for a malformed hash. */
  verify(password: string, storedHash: string): Promise<boolean>;
  /** Whether a stored hash was made at other parameters than the current ones (so a login should renew it). */
  needsRehash(storedHash: string): boolean;
}
