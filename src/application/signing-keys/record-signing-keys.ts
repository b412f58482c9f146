import { signingKeyChanges, type SigningKeyChange, type SigningKeyRecord } from '../../domain/signing-key-state';
import { AuditTrail, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RecordSigningKeysDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly clock: Clock;
}

/**
 * At start: the key set this instance was configured with (ids and states, no secrets) against the
 * one the platform recorded, and every difference recorded as it is found, the new states and an
 * audit event per changed key (no tenant, no actor: configuration did it), in one unit of work.
 * The comparison runs under the record's lock, so of several instances starting with the same new
 * set the first records the change and the others find nothing left to record.
 */
export class RecordSigningKeys {
  constructor(private readonly deps: RecordSigningKeysDeps) {}

  /** The changes recorded by this call; empty when the configuration is the one recorded. */
  async execute(configured: readonly SigningKeyRecord[]): Promise<SigningKeyChange[]> {
    const { unitOfWork, trail, clock } = this.deps;
    return unitOfWork.run(async (tx) => {
      const changes = signingKeyChanges(await tx.signingKeys.lockAndList(), configured);
      if (changes.length === 0) return changes;
      await tx.signingKeys.save(changes.map((change) => ({ keyId: change.keyId, state: change.to })), clock.now());
      for (const change of changes) {
        await tx.auditEvents.append(trail.event(UNKNOWN_ORIGIN, {
          tenantId: null, actor: { userId: null, method: 'none' }, action: change.action,
          details: { keyId: change.keyId, from: change.from, to: change.to },
        }));
      }
      return changes;
    });
  }
}
