import { sql } from 'kysely';
import { AuditTrail } from '../../src/application/audit/audit-trail';
import { RecordSigningKeys } from '../../src/application/signing-keys/record-signing-keys';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { MemoryState } from '../../src/adapters/persistence/memory/memory-state';
import type { Storage } from '../../src/adapters/persistence/storage';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { SystemClock } from '../../src/adapters/time/system-clock';
import type { SigningKeyRecord } from '../../src/domain/signing-key-state';
import { createFreshDatabase } from '../support/fresh-postgres-database';
import { ownerView } from '../support/owner-view';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';

assertPgliteCanLoadInJest();

interface Opened {
  readonly storage: Storage;
  /** The platform's signing-key events in the trail, oldest first, read past the walls. */
  events(): Promise<{ action: string; details: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

const A: SigningKeyRecord[] = [{ keyId: 'key-a', state: 'signing' }];
const A_NEXT_B: SigningKeyRecord[] = [{ keyId: 'key-a', state: 'signing' }, { keyId: 'key-b', state: 'next' }];
const B_PREVIOUS_A: SigningKeyRecord[] = [{ keyId: 'key-b', state: 'signing' }, { keyId: 'key-a', state: 'previous' }];
const B: SigningKeyRecord[] = [{ keyId: 'key-b', state: 'signing' }];

/**
 * Every change of the configured signing keys is in the audit trail once, however many instances
 * start with it (ASVS 5.0 V16.2.1: a log entry says when and what, here which key id changed from
 * which state to which): each backend, through the same port.
 */
function describeSigningKeyRecords(name: string, open: () => Promise<Opened>, concurrent = false): void {
  describe(`signing key records: ${name} (ASVS 5.0 V16.2.1)`, () => {
    let opened: Opened;
    let start: (keys: readonly SigningKeyRecord[]) => Promise<unknown[]>;
    beforeEach(async () => {
      opened = await open();
      const clock = new SystemClock();
      const recorder = new RecordSigningKeys({ unitOfWork: opened.storage.unitOfWork, trail: new AuditTrail({ ids: new RandomUuidGenerator(), clock }), clock });
      start = (keys) => recorder.execute(keys);
    });
    afterEach(() => opened.close());

    it('the first start records its keys; the same set again records nothing', async () => {
      expect(await start(A_NEXT_B)).toHaveLength(2);
      expect(await start(A_NEXT_B)).toEqual([]);
      expect(await start(A_NEXT_B)).toEqual([]);
      expect(await opened.events()).toEqual([
        { action: 'signing_key.signing', details: { keyId: 'key-a', from: null, to: 'signing' } },
        { action: 'signing_key.added', details: { keyId: 'key-b', from: null, to: 'next' } },
      ]);
      expect(await opened.storage.repos.signingKeys.lockAndList()).toEqual(expect.arrayContaining(A_NEXT_B));
    });

    it('two starts with different key sets record each change once, through a whole rotation', async () => {
      for (const keys of [A, A, A_NEXT_B, A_NEXT_B, B_PREVIOUS_A, B_PREVIOUS_A, B, B]) await start(keys);
      expect(await opened.events()).toEqual([
        { action: 'signing_key.signing', details: { keyId: 'key-a', from: null, to: 'signing' } },
        { action: 'signing_key.added', details: { keyId: 'key-b', from: null, to: 'next' } },
        { action: 'signing_key.signing', details: { keyId: 'key-b', from: 'next', to: 'signing' } },
        { action: 'signing_key.verifying', details: { keyId: 'key-a', from: 'signing', to: 'previous' } },
        { action: 'signing_key.retired', details: { keyId: 'key-a', from: 'previous', to: 'retired' } },
      ]);
      const recorded = await opened.storage.repos.signingKeys.lockAndList();
      expect(recorded.sort((x, y) => (x.keyId < y.keyId ? -1 : 1))).toEqual([{ keyId: 'key-a', state: 'retired' }, { keyId: 'key-b', state: 'signing' }]);
    });

    if (concurrent) {
      it('instances starting together with the same new set record it once', async () => {
        await start(A);
        const results = await Promise.all(Array.from({ length: 6 }, () => start(B_PREVIOUS_A)));
        expect(results.map((changes) => changes.length).sort()).toEqual([0, 0, 0, 0, 0, 2]);
        expect((await opened.events()).map((event) => event.action)).toEqual(['signing_key.signing', 'signing_key.signing', 'signing_key.verifying']);
      });
    }
  });
}

/** The signing-key events of a SQL backend, as its owner reads them (the walls let the service read no tenant-less row). */
function sqlEvents(db: Parameters<typeof ownerView>[0]): Opened['events'] {
  return async () => {
    const rows = await ownerView(db).selectFrom('audit_events').select(['action', 'details'])
      .where('tenant_id', 'is', null).where('action', 'like', 'signing_key.%')
      .orderBy('occurred_at').orderBy(sql`details->>'to' = 'signing'`, 'desc').execute();
    return rows.map((row) => ({ action: row.action, details: row.details as Record<string, unknown> }));
  };
}

describeSigningKeyRecords('memory', async () => {
  const storage = createMemoryStorage();
  const state = () => (storage.unitOfWork as unknown as { state: MemoryState }).state;
  return {
    storage,
    events: async () => [...state().auditEvents.values()].filter((e) => e.tenantId === null && e.action.startsWith('signing_key.'))
      .map((e) => ({ action: e.action, details: { ...e.details } })),
    close: () => storage.close(),
  };
});

describeSigningKeyRecords('pglite', async () => {
  const { db, close, walls } = await servingTestPglite();
  return { storage: createKyselyStorage({ db, walls }, close), events: sqlEvents(db), close };
});

// A database of its own: the signing_keys table is the whole platform's, and other test files start services with other keys.
describeIfPostgres('postgres', (url) => {
  describeSigningKeyRecords('postgres', async () => {
    const fresh = await createFreshDatabase(url);
    const { db, close, walls } = await openServingPostgres(fresh.url, { max: 8 });
    return {
      storage: createKyselyStorage({ db, walls }, close),
      events: sqlEvents(db),
      close: async () => {
        await close();
        await fresh.drop();
      },
    };
  }, true);
});
