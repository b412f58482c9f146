/** Randomness and digests for keys and tokens, kept behind a port so the core stays free of node:crypto. */
export interface Secrets {
  /** `byteCount` bytes from a cryptographically secure generator, as lowercase hex. */
  randomHex(byteCount: number): string;
  /** SHA-256 of the value, as lowercase hex. */
  sha256Hex(value: string): string;
}
