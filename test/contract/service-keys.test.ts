import { ALL_TENANTS } from '../../src/domain/service-key';
import type { Kysely } from 'kysely';
import { ServiceKeyNameTaken, type ServiceKeyRepository } from '../../src/application/ports/service-keys';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { isWellFormedServiceKey, SERVICE_KEY_PREFIX } from '../../src/domain/service-key';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { ownerView } from '../support/owner-view';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';
import { serviceKeyManager } from '../support/verifier-fixtures';

interface Backend {
  /** What an operator uses (the schema's owner on SQL). */
  readonly admin: ServiceKeyRepository;
  /** What the serving service uses (the app role on SQL). */
  readonly serving: ServiceKeyRepository;
  close(): Promise<void>;
}

const unique = (label: string) => `${label}-${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;
const sha256 = (raw: string) => new NodeSecrets().sha256Hex(raw);

function describeServiceKeys(name: string, open: () => Promise<Backend>, sql: boolean): void {
  describe(`service keys on ${name}`, () => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await open();
    });
    afterAll(async () => {
      await backend?.close();
    });

    it('makes a key that is shown once, stored only as its hash, and found by the service until revoked', async () => {
      const manage = serviceKeyManager(backend.admin);
      const keyName = unique('worker');
      const { key, rawKey } = await manage.create(keyName, ALL_TENANTS);
      expect(isWellFormedServiceKey(rawKey)).toBe(true);
      expect(rawKey.startsWith(SERVICE_KEY_PREFIX)).toBe(true);
      expect(key.keyHash).toBe(sha256(rawKey));
      expect((await manage.list()).find((k) => k.id === key.id)).toEqual(key);
      expect(await backend.serving.findActiveByHash(sha256(rawKey))).toEqual(key);

      const revoked = await manage.revoke(keyName);
      expect(revoked).toMatchObject({ id: key.id, name: keyName });
      expect(revoked!.revokedAt).toBeInstanceOf(Date);
      expect(await backend.serving.findActiveByHash(sha256(rawKey))).toBeNull();
      expect(await manage.revoke(keyName)).toBeNull();
    });

    it('keeps one key in use per name; a revoked name may be reused, and a key may be revoked by id', async () => {
      const manage = serviceKeyManager(backend.admin);
      const keyName = unique('portal');
      const first = await manage.create(keyName, ALL_TENANTS);
      await expect(manage.create(keyName, ALL_TENANTS)).rejects.toBeInstanceOf(ServiceKeyNameTaken);
      await manage.revoke(first.key.id);
      const second = await manage.create(keyName, ALL_TENANTS);
      expect(await backend.serving.findActiveByHash(second.key.keyHash)).toMatchObject({ id: second.key.id });
      expect(await backend.serving.findActiveByHash(first.key.keyHash)).toBeNull();
    });

    if (sql) {
      it('the serving service may read keys but never make or revoke one', async () => {
        const { key } = await serviceKeyManager(backend.admin).create(unique('readonly'), ALL_TENANTS);
        await expect(serviceKeyManager(backend.serving).create(unique('sneaky'), ALL_TENANTS)).rejects.toThrow(/permission denied/);
        await expect(backend.serving.revoke(key.id, new Date())).rejects.toThrow(/permission denied/);
      });
    }
  });
}

describeServiceKeys('memory', async () => {
  const keys = new MemoryServiceKeys();
  return { admin: keys, serving: keys, close: async () => undefined };
}, false);

function sqlBackend(db: Kysely<DB>, close: () => Promise<void>): Backend {
  return { admin: new KyselyServiceKeyRepository(ownerView(db)), serving: new KyselyServiceKeyRepository(db), close };
}

describeServiceKeys('PGlite', async () => {
  assertPgliteCanLoadInJest();
  const { db, close } = await servingTestPglite();
  return sqlBackend(db, close);
}, true);

describeIfPostgres('service keys, Postgres', (url) => {
  describeServiceKeys('Postgres', async () => {
    const { db, close } = await openServingPostgres(url, { max: 2 });
    return sqlBackend(db, close);
  }, true);
});
