import { randomUUID } from 'node:crypto';
import { addUser, aUser, anApiKey, seedTenant, type StorageGetter } from '../storage-fixtures';

export function describeMemberCases(storage: StorageGetter): void {
  describe('members', () => {
    test("findAuthState is the member's role and auth version; null across tenants and for unknown ids", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos);

      expect(await repos.users.findAuthState(a.tenant.id, a.user.id)).toEqual({
        tenantId: a.tenant.id, userId: a.user.id, role: 'admin', authVersion: 0,
      });
      expect(await repos.users.findAuthState(b.tenant.id, a.user.id)).toBeNull();
      expect(await repos.users.findAuthState(a.tenant.id, randomUUID())).toBeNull();
      expect(await repos.users.findAuthState('not-a-uuid', a.user.id)).toBeNull();
    });

    test("listMembers is the tenant's members, oldest first; countOwners counts its owners", async () => {
      const { repos } = storage();
      const { tenant, user: owner } = await seedTenant(repos, 'owner');
      const later = aUser(tenant.id, { role: 'owner', createdAt: new Date(owner.createdAt.getTime() + 1000) });
      const latest = aUser(tenant.id, { role: 'viewer', createdAt: new Date(owner.createdAt.getTime() + 2000) });
      await repos.users.create(latest);
      await repos.users.create(later);
      await seedTenant(repos, 'owner');

      expect((await repos.users.listMembers(tenant.id)).map((u) => u.id)).toEqual([owner.id, later.id, latest.id]);
      expect(await repos.users.countOwners(tenant.id)).toBe(2);
      expect(await repos.users.listMembers(randomUUID())).toEqual([]);
      expect(await repos.users.countOwners('not-a-uuid')).toBe(0);
    });

    test('changeRole sets the role and raises the auth version, in its own tenant only', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos);

      expect(await repos.users.changeRole(a.tenant.id, a.user.id, 'viewer')).toBe(true);
      expect(await repos.users.findAuthState(a.tenant.id, a.user.id)).toMatchObject({ role: 'viewer', authVersion: 1 });
      expect(await repos.users.findById(a.tenant.id, a.user.id)).toMatchObject({ role: 'viewer', authVersion: 1 });

      expect(await repos.users.changeRole(a.tenant.id, b.user.id, 'viewer')).toBe(false);
      expect(await repos.users.changeRole(a.tenant.id, 'not-a-uuid', 'viewer')).toBe(false);
      expect(await repos.users.findById(b.tenant.id, b.user.id)).toEqual(b.user);
    });

    test('raiseAuthVersion raises the auth version alone, in its own tenant only', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos);

      expect(await repos.users.raiseAuthVersion(a.tenant.id, a.user.id)).toBe(true);
      expect(await repos.users.findAuthState(a.tenant.id, a.user.id)).toMatchObject({ role: 'admin', authVersion: 1 });
      expect(await repos.users.findById(a.tenant.id, a.user.id)).toEqual({ ...a.user, authVersion: 1 });

      expect(await repos.users.raiseAuthVersion(a.tenant.id, b.user.id)).toBe(false);
      expect(await repos.users.raiseAuthVersion(a.tenant.id, 'not-a-uuid')).toBe(false);
      expect(await repos.users.findById(b.tenant.id, b.user.id)).toEqual(b.user);
    });

    test('a tenant\'s second-factor policy is optional until set, set per tenant, and kept through a rolled-back run only as before', async () => {
      const { repos, unitOfWork } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);

      expect(await repos.tenants.mfaPolicy(a.tenant.id)).toBe('optional');
      expect(await repos.tenants.setMfaPolicy(a.tenant.id, 'required')).toBe(true);
      expect(await repos.tenants.mfaPolicy(a.tenant.id)).toBe('required');
      expect(await repos.tenants.mfaPolicy(b.tenant.id)).toBe('optional');
      await expect(unitOfWork.run(async (tx) => {
        await tx.tenants.setMfaPolicy(a.tenant.id, 'optional');
        throw new Error('undone');
      })).rejects.toThrow('undone');
      expect(await repos.tenants.mfaPolicy(a.tenant.id)).toBe('required');
      expect(await repos.tenants.findById(a.tenant.id)).toEqual(a.tenant);

      expect(await repos.tenants.mfaPolicy(randomUUID())).toBeNull();
      expect(await repos.tenants.mfaPolicy('not-a-uuid')).toBeNull();
      expect(await repos.tenants.setMfaPolicy(randomUUID(), 'required')).toBe(false);
      expect(await repos.tenants.setMfaPolicy('not-a-uuid', 'required')).toBe(false);
    });

    test('changePassword replaces the hash and answers the member as stored after it; a rehash keeps the version', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);

      expect(await repos.users.updatePasswordHash(tenant.id, user.id, { from: user.passwordHash, to: 'scrypt$rehashed' })).toBe(true);
      expect(await repos.users.findById(tenant.id, user.id)).toMatchObject({ passwordHash: 'scrypt$rehashed', authVersion: 0 });
      expect(await repos.users.changePassword(tenant.id, user.id, { from: 'scrypt$rehashed', to: 'scrypt$changed' }))
        .toEqual({ ...user, passwordHash: 'scrypt$changed', authVersion: 1 });
      // A role change in between is in the answer: what a token issued now must carry.
      await repos.users.changeRole(tenant.id, user.id, 'viewer');
      expect(await repos.users.changePassword(tenant.id, user.id, { from: 'scrypt$changed', to: 'scrypt$again' }))
        .toMatchObject({ role: 'viewer', passwordHash: 'scrypt$again', authVersion: 3 });
      expect(await repos.users.findByEmail(user.email)).toMatchObject({ passwordHash: 'scrypt$again', authVersion: 3 });
      expect(await repos.users.changePassword(randomUUID(), user.id, { from: 'scrypt$again', to: 'scrypt$other-tenant' })).toBeNull();
    });

    test('a password change or rehash from a hash no longer stored changes nothing', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      await repos.users.changePassword(tenant.id, user.id, { from: user.passwordHash, to: 'scrypt$new' });

      // Both were verified against the old hash: the change that committed first stands.
      expect(await repos.users.changePassword(tenant.id, user.id, { from: user.passwordHash, to: 'scrypt$late' })).toBeNull();
      expect(await repos.users.updatePasswordHash(tenant.id, user.id, { from: user.passwordHash, to: 'scrypt$rehash' })).toBe(false);
      expect(await repos.users.findById(tenant.id, user.id)).toMatchObject({ passwordHash: 'scrypt$new', authVersion: 1 });
    });

    test('holdAuthState answers the member of that tenant as findAuthState does, inside a run too', async () => {
      const { repos, unitOfWork } = storage();
      const a = await seedTenant(repos, 'admin');
      const b = await seedTenant(repos);

      expect(await repos.users.holdAuthState(a.tenant.id, a.user.id))
        .toEqual({ tenantId: a.tenant.id, userId: a.user.id, role: 'admin', authVersion: 0 });
      expect(await unitOfWork.run((tx) => tx.users.holdAuthState(a.tenant.id, a.user.id))).toMatchObject({ role: 'admin' });
      expect(await repos.users.holdAuthState(a.tenant.id, b.user.id)).toBeNull();
      expect(await repos.users.holdAuthState(a.tenant.id, 'not-a-uuid')).toBeNull();
      await repos.users.markRemoved(a.tenant.id, a.user.id, new Date());
      expect(await repos.users.holdAuthState(a.tenant.id, a.user.id)).toBeNull();
    });

    test('a removed member is found by no lookup, owns no usable key, and frees the e-mail', async () => {
      const { repos } = storage();
      const { tenant, user: owner } = await seedTenant(repos, 'owner');
      const member = await addUser(repos, tenant.id, 'owner');
      const key = anApiKey(tenant.id, member.id);
      await repos.apiKeys.create(key);

      expect(await repos.users.markRemoved(tenant.id, member.id, new Date())).toBe(true);

      expect(await repos.users.findById(tenant.id, member.id)).toBeNull();
      expect(await repos.users.findByEmail(member.email)).toBeNull();
      expect(await repos.users.findAuthState(tenant.id, member.id)).toBeNull();
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toBeNull();
      expect((await repos.users.listMembers(tenant.id)).map((u) => u.id)).toEqual([owner.id]);
      expect(await repos.users.countOwners(tenant.id)).toBe(1);
      // Removed once is removed: nothing left to change.
      expect(await repos.users.markRemoved(tenant.id, member.id, new Date())).toBe(false);
      expect(await repos.users.changeRole(tenant.id, member.id, 'admin')).toBe(false);

      const again = aUser(tenant.id, { email: member.email });
      await repos.users.create(again);
      expect(await repos.users.findByEmail(member.email)).toEqual(again);
    });

    test('lockMembership answers whether the tenant exists', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos);

      expect(await unitOfWork.run((tx) => tx.tenants.lockMembership(tenant.id))).toBe(true);
      expect(await unitOfWork.run((tx) => tx.tenants.lockMembership(randomUUID()))).toBe(false);
      expect(await unitOfWork.run((tx) => tx.tenants.lockMembership('not-a-uuid'))).toBe(false);
    });

    test('a run that changes a role, removes a member and revokes keys, then fails, keeps none of it', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant, user: owner } = await seedTenant(repos, 'owner');
      const member = await addUser(repos, tenant.id, 'member');
      const key = anApiKey(tenant.id, member.id);
      await repos.apiKeys.create(key);

      await expect(unitOfWork.run(async (tx) => {
        await tx.tenants.lockMembership(tenant.id);
        await tx.users.changeRole(tenant.id, owner.id, 'admin');
        await tx.apiKeys.revokeAllOf(tenant.id, member.id);
        await tx.users.markRemoved(tenant.id, member.id, new Date());
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');

      expect(await repos.users.findById(tenant.id, owner.id)).toEqual(owner);
      expect(await repos.users.findById(tenant.id, member.id)).toEqual(member);
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).not.toBeNull();
    });
  });
}
