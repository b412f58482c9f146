import type { SigningKeyRecord } from '../../domain/signing-key-state';

/**
 * The platform's record of the token signing keys, by id and state (never a secret), so that a
 * change of the configured set is noticed once, by whichever instance starts with it first.
 */
export interface SigningKeyRecordRepository {
  /**
   * Every key id recorded, with its state, in no particular order; empty before any is. Inside a
   * unit of work it first takes a lock that a second recorder waits on until this unit of work
   * ends, so two instances starting together compare and write one after the other (memory: the
   * unit of work is serialised already); outside one, no lock. Never "not found": an empty list.
   */
  lockAndList(): Promise<SigningKeyRecord[]>;
  /** Records each key's state, adding ids not recorded yet and replacing the state of the others; never removes one. */
  save(records: readonly SigningKeyRecord[], at: Date): Promise<void>;
}
