import { randomUUID } from 'node:crypto';
import { EmailAlreadyRegistered } from '../../../src/domain/errors';
import { aTenant, aUser, seedTenant, type StorageGetter } from '../storage-fixtures';

export function describeUserCases(storage: StorageGetter): void {
  describe('tenants and users', () => {
    test('a stored tenant and user read back with every field intact', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos, 'admin');

      expect(await repos.tenants.findById(tenant.id)).toEqual(tenant);
      expect(await repos.users.findByEmail(user.email)).toEqual(user);
      expect(await repos.users.findById(tenant.id, user.id)).toEqual(user);
    });

    test('unknown or malformed ids and unknown e-mails find nothing', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);

      expect(await repos.tenants.findById(randomUUID())).toBeNull();
      expect(await repos.tenants.findById('not-a-uuid')).toBeNull();
      expect(await repos.users.findById(tenant.id, randomUUID())).toBeNull();
      expect(await repos.users.findById(tenant.id, 'not-a-uuid')).toBeNull();
      expect(await repos.users.findByEmail(`nobody-${randomUUID()}@example.test`)).toBeNull();
    });

    test('findById is null for a user of another tenant', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);

      expect(await repos.users.findById(b.tenant.id, a.user.id)).toBeNull();
      expect(await repos.users.findById(a.tenant.id, a.user.id)).toEqual(a.user);
    });

    test("updatePasswordHash replaces the hash of that tenant's user only", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);

      expect(await repos.users.updatePasswordHash(a.tenant.id, a.user.id, { from: a.user.passwordHash, to: 'scrypt$renewed' })).toBe(true);
      expect(await repos.users.updatePasswordHash(a.tenant.id, b.user.id, { from: b.user.passwordHash, to: 'scrypt$cross-tenant' })).toBe(false);
      expect(await repos.users.updatePasswordHash(a.tenant.id, 'not-a-uuid', { from: a.user.passwordHash, to: 'scrypt$ignored' })).toBe(false);

      expect((await repos.users.findById(a.tenant.id, a.user.id))?.passwordHash).toBe('scrypt$renewed');
      expect(await repos.users.findById(b.tenant.id, b.user.id)).toEqual(b.user);
    });

    test('a second user with a registered e-mail is refused, even in another tenant', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const duplicate = aUser(b.tenant.id, { email: a.user.email });

      await expect(repos.users.create(duplicate)).rejects.toBeInstanceOf(EmailAlreadyRegistered);
      expect(await repos.users.findByEmail(a.user.email)).toEqual(a.user);
      expect(await repos.users.findById(b.tenant.id, duplicate.id)).toBeNull();
    });

    test('inside a run, a registered e-mail is refused and the run keeps nothing', async () => {
      const { repos, unitOfWork } = storage();
      const existing = await seedTenant(repos);
      const tenant = aTenant();

      const run = unitOfWork.run(async (tx) => {
        await tx.tenants.create(tenant);
        await tx.users.create(aUser(tenant.id, { email: existing.user.email, role: 'owner' }));
      });

      await expect(run).rejects.toBeInstanceOf(EmailAlreadyRegistered);
      expect(await repos.tenants.findById(tenant.id)).toBeNull();
      expect(await repos.users.findByEmail(existing.user.email)).toEqual(existing.user);
    });
  });
}
