import { aTenant, aUser, type StorageGetter } from '../storage-fixtures';

export function describeUnitOfWorkCases(storage: StorageGetter): void {
  describe('unit of work', () => {
    test('a run that resolves commits what it wrote and returns its value', async () => {
      const { repos, unitOfWork } = storage();
      const tenant = aTenant();
      const user = aUser(tenant.id, { role: 'owner' });

      const value = await unitOfWork.run(async (tx) => {
        await tx.tenants.create(tenant);
        await tx.users.create(user);
        return 'done';
      });

      expect(value).toBe('done');
      expect(await repos.tenants.findById(tenant.id)).toEqual(tenant);
      expect(await repos.users.findByEmail(user.email)).toEqual(user);
    });

    test('a run that rejects keeps nothing it wrote and rethrows the same error', async () => {
      const { repos, unitOfWork } = storage();
      const tenant = aTenant();
      const user = aUser(tenant.id, { role: 'owner' });
      const boom = new Error('boom');

      const run = unitOfWork.run(async (tx) => {
        await tx.tenants.create(tenant);
        await tx.users.create(user);
        throw boom;
      });

      await expect(run).rejects.toBe(boom);
      expect(await repos.tenants.findById(tenant.id)).toBeNull();
      expect(await repos.users.findByEmail(user.email)).toBeNull();
      expect(await repos.users.findById(tenant.id, user.id)).toBeNull();
    });

    test('reads inside a run see its own writes', async () => {
      const { unitOfWork } = storage();
      const tenant = aTenant();

      const seen = await unitOfWork.run(async (tx) => {
        await tx.tenants.create(tenant);
        return tx.tenants.findById(tenant.id);
      });

      expect(seen).toEqual(tenant);
    });
  });
}
