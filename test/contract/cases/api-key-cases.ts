import { randomBytes, randomUUID } from 'node:crypto';
import { addUser, anApiKey, seedTenant, type StorageGetter } from '../storage-fixtures';

export function describeApiKeyCases(storage: StorageGetter): void {
  describe('api keys', () => {
    test('an active key is found by its prefix and hash, as its tenant and user', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const key = anApiKey(tenant.id, user.id);
      await repos.apiKeys.create(key);

      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toEqual({
        keyId: key.id,
        tenantId: tenant.id,
        userId: user.id,
        expiresAt: null,
        owner: { tenantId: tenant.id, userId: user.id, role: 'admin', authVersion: 0 },
      });
    });

    test('both the prefix and the hash must match', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const key = anApiKey(tenant.id, user.id);
      const other = anApiKey(tenant.id, user.id);
      await repos.apiKeys.create(key);
      await repos.apiKeys.create(other);

      expect(await repos.apiKeys.findActiveByHash(other.keyPrefix, key.keyHash)).toBeNull();
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, other.keyHash)).toBeNull();
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, randomBytes(32).toString('hex'))).toBeNull();
    });

    test('a revoked key is not found', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const key = anApiKey(tenant.id, user.id, { revoked: true });
      await repos.apiKeys.create(key);

      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toBeNull();
    });

    test("the role is the owning user's, not the creator's or a fixed one", async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos, 'owner');
      const admin = await addUser(repos, tenant.id, 'admin');
      const viewer = await addUser(repos, tenant.id, 'viewer');
      const adminKey = anApiKey(tenant.id, admin.id);
      const viewerKey = anApiKey(tenant.id, viewer.id);
      await repos.apiKeys.create(adminKey);
      await repos.apiKeys.create(viewerKey);

      expect(await repos.apiKeys.findActiveByHash(adminKey.keyPrefix, adminKey.keyHash)).toMatchObject({ userId: admin.id, owner: { role: 'admin' } });
      expect(await repos.apiKeys.findActiveByHash(viewerKey.keyPrefix, viewerKey.keyHash)).toMatchObject({ userId: viewer.id, owner: { role: 'viewer' } });
    });
  });
}

export function describeApiKeyLifecycleCases(storage: StorageGetter): void {
  describe('api keys over their life', () => {
    test("listForTenant is the tenant's keys, newest first, revoked ones and every field included", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const base = Date.now();
      const older = anApiKey(tenant.id, user.id, { name: 'ci', expiresAt: new Date(base + 86_400_000), createdAt: new Date(base - 2000) });
      const newer = anApiKey(tenant.id, user.id, { revoked: true, lastUsedAt: new Date(base - 500), createdAt: new Date(base - 1000) });
      await repos.apiKeys.create(older);
      await repos.apiKeys.create(newer);
      await repos.apiKeys.create(anApiKey((await seedTenant(repos)).tenant.id, user.id));

      expect(await repos.apiKeys.listForTenant(tenant.id)).toEqual([newer, older]);
      expect(await repos.apiKeys.listForTenant('not-a-uuid')).toEqual([]);
    });

    test('an expired key is still found, with its expiry, for the caller to refuse', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const expiresAt = new Date(Date.now() - 1000);
      const key = anApiKey(tenant.id, user.id, { expiresAt });
      await repos.apiKeys.create(key);

      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toMatchObject({ keyId: key.id, expiresAt });
    });

    test("revoke keeps the record, revoked; only the key's own tenant can revoke it", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos, 'admin');
      const key = anApiKey(a.tenant.id, a.user.id);
      await repos.apiKeys.create(key);

      expect(await repos.apiKeys.revoke(b.tenant.id, key.id)).toBe('not_found');
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).not.toBeNull();
      expect(await repos.apiKeys.revoke(a.tenant.id, randomUUID())).toBe('not_found');
      expect(await repos.apiKeys.revoke(a.tenant.id, 'not-a-uuid')).toBe('not_found');

      expect(await repos.apiKeys.revoke(a.tenant.id, key.id)).toBe('revoked');
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toBeNull();
      expect(await repos.apiKeys.listForTenant(a.tenant.id)).toEqual([{ ...key, revoked: true }]);
      // A second revocation changes nothing, and says so.
      expect(await repos.apiKeys.revoke(a.tenant.id, key.id)).toBe('already_revoked');
      expect(await repos.apiKeys.listForTenant(a.tenant.id)).toEqual([{ ...key, revoked: true }]);
    });

    test("findById answers the tenant's key, revoked too, and nothing for another tenant or an unknown id", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos, 'admin');
      const key = anApiKey(a.tenant.id, a.user.id, { revoked: true, name: 'deploy' });
      await repos.apiKeys.create(key);

      expect(await repos.apiKeys.findById(a.tenant.id, key.id)).toEqual(key);
      expect(await repos.apiKeys.findById(b.tenant.id, key.id)).toBeNull();
      expect(await repos.apiKeys.findById(a.tenant.id, randomUUID())).toBeNull();
      expect(await repos.apiKeys.findById(a.tenant.id, 'not-a-uuid')).toBeNull();
    });

    test("revokeAllOf revokes that member's active keys only and counts them", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');
      const other = await addUser(repos, tenant.id, 'admin');
      const keys = [anApiKey(tenant.id, user.id), anApiKey(tenant.id, user.id), anApiKey(tenant.id, user.id, { revoked: true })];
      const kept = anApiKey(tenant.id, other.id);
      for (const key of [...keys, kept]) await repos.apiKeys.create(key);

      expect(await repos.apiKeys.revokeAllOf(tenant.id, user.id)).toBe(2);
      for (const key of keys) expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toBeNull();
      expect(await repos.apiKeys.findActiveByHash(kept.keyPrefix, kept.keyHash)).not.toBeNull();
      expect(await repos.apiKeys.revokeAllOf((await seedTenant(repos)).tenant.id, other.id)).toBe(0);
    });

    test('markUsed moves last_used_at forward only, each key in its own tenant, a batch across tenants at once', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos, 'admin');
      const keyOfA = anApiKey(a.tenant.id, a.user.id);
      const keyOfB = anApiKey(b.tenant.id, b.user.id);
      await repos.apiKeys.create(keyOfA);
      await repos.apiKeys.create(keyOfB);
      const later = new Date(Date.now() + 60_000);
      const lastUsed = async (tenantId: string) => (await repos.apiKeys.listForTenant(tenantId))[0]?.lastUsedAt;

      // A key named with another tenant is not that tenant's: nothing moves.
      await repos.apiKeys.markUsed([{ tenantId: b.tenant.id, keyId: keyOfA.id, at: later }]);
      expect(await lastUsed(a.tenant.id)).toBeNull();

      const earlier = new Date(later.getTime() - 30_000);
      await repos.apiKeys.markUsed([
        { tenantId: a.tenant.id, keyId: keyOfA.id, at: earlier },
        { tenantId: b.tenant.id, keyId: keyOfB.id, at: earlier },
        { tenantId: a.tenant.id, keyId: keyOfA.id, at: later }, // named twice: the later time wins
        { tenantId: a.tenant.id, keyId: 'not-a-uuid', at: later },
      ]);
      expect(await lastUsed(a.tenant.id)).toEqual(later);
      expect(await lastUsed(b.tenant.id)).toEqual(earlier);

      await repos.apiKeys.markUsed([{ tenantId: a.tenant.id, keyId: keyOfA.id, at: earlier }]);
      expect(await lastUsed(a.tenant.id)).toEqual(later);
      await repos.apiKeys.markUsed([]);
    });
  });
}
