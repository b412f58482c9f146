import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../application/ports/ids';

export class RandomUuidGenerator implements IdGenerator {
  newId(): string {
    return randomUUID();
  }
}
