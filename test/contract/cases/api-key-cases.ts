import { randomBytes } from 'node:crypto';
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
        role: 'admin',
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

      expect(await repos.apiKeys.findActiveByHash(adminKey.keyPrefix, adminKey.keyHash)).toMatchObject({ userId: admin.id, role: 'admin' });
      expect(await repos.apiKeys.findActiveByHash(viewerKey.keyPrefix, viewerKey.keyHash)).toMatchObject({ userId: viewer.id, role: 'viewer' });
    });
  });
}
