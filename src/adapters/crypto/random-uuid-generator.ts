import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';
import type { IdGenerator } from '../../application/ports/ids';

export class RandomUuidGenerator implements IdGenerator {
  newId(): string {
    return randomUUID();
  }

  /** uuid's v7 keeps a counter within each millisecond, so ids of one process are strictly increasing. */
  newOrderedId(): string {
    return v7();
  }
}
