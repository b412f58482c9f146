/** A list of passwords that are common or known from breaches, kept with the service (never fetched). */
export interface CommonPasswords {
  /**
   * Whether the password is on the list, ignoring case. Answers from memory; the first call may
   * load the list. Throws only when the list cannot be read at all (a broken installation).
   */
  has(password: string): boolean;
}
