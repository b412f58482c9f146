import { derivedKeyId } from '../../src/adapters/crypto/jwt-signing-keys';
import { openMemoryStorage } from '../../src/bootstrap/database';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { MemoryState } from '../../src/adapters/persistence/memory/memory-state';
import { assembleForTest, testConfig } from '../support/test-use-cases';

const FIRST = 'the-first-signing-secret-of-this-test-000';
const SECOND = 'the-second-signing-secret-of-this-test-00';

// ASVS 5.0 V16.2.1: the service records, as it starts, how its signing keys changed since the last start.
describe('signing key changes recorded at start', () => {
  it('a start with another key set records the change once; the same set again records nothing', async () => {
    const storage = createMemoryStorage();
    const events = () => [...(storage.unitOfWork as unknown as { state: MemoryState }).state.auditEvents.values()]
      .filter((event) => event.action.startsWith('signing_key.'))
      .map((event) => [event.tenantId, event.action, event.details['keyId'], event.details['to']]);
    const start = async (config: Partial<ReturnType<typeof testConfig>>) => {
      const assembly = await assembleForTest({ opened: openMemoryStorage(storage) }, testConfig({}, config));
      await assembly.close();
    };

    await start({ jwtSecret: FIRST });
    await start({ jwtSecret: FIRST });
    await start({ jwtSecret: SECOND, jwtSecretPrevious: FIRST });
    await start({ jwtSecret: SECOND, jwtSecretPrevious: FIRST });
    expect(events()).toEqual([
      [null, 'signing_key.signing', derivedKeyId(FIRST), 'signing'],
      [null, 'signing_key.signing', derivedKeyId(SECOND), 'signing'],
      [null, 'signing_key.verifying', derivedKeyId(FIRST), 'previous'],
    ]);
    // Ids and states only: no secret is in an event.
    const trail = JSON.stringify([...(storage.unitOfWork as unknown as { state: MemoryState }).state.auditEvents.values()]);
    expect(trail).not.toContain(FIRST);
    expect(trail).not.toContain(SECOND);
  });
});
