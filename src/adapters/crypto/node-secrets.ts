import { hash, randomBytes } from 'node:crypto';
import type { Secrets } from '../../application/ports/secrets';

export class NodeSecrets implements Secrets {
  randomHex(byteCount: number): string {
    return randomBytes(byteCount).toString('hex');
  }

  /** One-shot: an API key is hashed on every request it authenticates, and `hash` skips createHash's Hash object. */
  sha256Hex(value: string): string {
    return hash('sha256', value, 'hex');
  }
}
