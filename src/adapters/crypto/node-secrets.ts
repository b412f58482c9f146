import { createHash, randomBytes } from 'node:crypto';
import type { Secrets } from '../../application/ports/secrets';

export class NodeSecrets implements Secrets {
  randomHex(byteCount: number): string {
    return randomBytes(byteCount).toString('hex');
  }

  sha256Hex(value: string): string {
    return createHash('sha256').update(value, 'utf8').digest('hex');
  }
}
