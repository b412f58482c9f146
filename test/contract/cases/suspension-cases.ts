import { randomBytes, randomUUID } from 'node:crypto';
import type { LoggedChange } from '../../../src/application/ports/credential-change-log';
import type { CredentialChange } from '../../../src/application/ports/credential-states';
import type { ScimToken } from '../../../src/domain/scim';
import { aPasskey, addUser, anApiKey, minutesFrom, seedTenant, type StorageGetter } from '../storage-fixtures';

const base = new Date('2030-01-01T00:00:00.000Z');

function aScimToken(tenantId: string, overrides: Partial<ScimToken> = {}): ScimToken {
  return { tenantId, tokenHash: randomBytes(32).toString('hex'), createdAt: base, lastUsedAt: null, ...overrides };
}

export function describeSuspensionCases(storage: StorageGetter): void {
  describe('member suspension', () => {
    test('a suspended member is a member (found by id, address and list) whose credentials no lookup finds; restore brings the keys back', async () => {
      const { repos } = storage();
      const { tenant, user: owner } = await seedTenant(repos, 'owner');
      const member = await addUser(repos, tenant.id, 'admin');
      const key = anApiKey(tenant.id, member.id);
      await repos.apiKeys.create(key);
      const passkey = aPasskey(tenant.id, member.id);
      await repos.passkeys.create(passkey);

      expect(await repos.users.suspend(tenant.id, member.id, base)).toBe(true);
      expect(await repos.users.suspend(tenant.id, member.id, minutesFrom(base, 1))).toBe(false); // once: the first time stands
      expect(await repos.users.suspendedAt(tenant.id, member.id)).toEqual(base);
      expect(await repos.users.suspensions(tenant.id)).toEqual(new Map([[member.id, base]]));
      expect(await repos.users.findById(tenant.id, member.id)).toEqual({ ...member, authVersion: 1 });
      expect(await repos.users.findInTenantByEmail(tenant.id, member.email)).toEqual({ ...member, authVersion: 1 });
      // Both were made at the same instant, so their order is their ids': compare as a set.
      expect((await repos.users.listMembers(tenant.id)).map((u) => u.id).sort()).toEqual([owner.id, member.id].sort());

      expect(await repos.users.findAuthState(tenant.id, member.id)).toBeNull();
      expect(await repos.users.holdAuthState(tenant.id, member.id)).toBeNull();
      expect(await repos.users.findByEmail(member.email)).toBeNull();
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toBeNull();
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId)).toBeNull();

      expect(await repos.users.restore(tenant.id, member.id)).toBe(true);
      expect(await repos.users.restore(tenant.id, member.id)).toBe(false);
      expect(await repos.users.suspendedAt(tenant.id, member.id)).toBeNull();
      expect(await repos.users.suspensions(tenant.id)).toEqual(new Map());
      expect(await repos.users.findAuthState(tenant.id, member.id)).toEqual({ tenantId: tenant.id, userId: member.id, role: 'admin', authVersion: 2 });
      expect(await repos.apiKeys.findActiveByHash(key.keyPrefix, key.keyHash)).toMatchObject({ keyId: key.id, owner: { authVersion: 2 } });
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId)).toMatchObject({ id: passkey.id });
      expect(await repos.users.findByEmail(member.email)).toEqual({ ...member, authVersion: 2 });
    });

    test('suspension keeps the address taken, counts no suspended owner, and reaches no other tenant nor a removed member', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos, 'owner');
      const b = await seedTenant(repos, 'owner');
      const second = await addUser(repos, a.tenant.id, 'owner');
      expect(await repos.users.countOwners(a.tenant.id)).toBe(2);
      await repos.users.suspend(a.tenant.id, second.id, base);
      expect(await repos.users.countOwners(a.tenant.id)).toBe(1);

      await expect(repos.users.create({ ...second, id: randomUUID(), tenantId: b.tenant.id })).rejects.toMatchObject({ code: 'EMAIL_ALREADY_REGISTERED' });
      expect(await repos.users.findInTenantByEmail(b.tenant.id, second.email)).toBeNull();

      expect(await repos.users.suspend(b.tenant.id, a.user.id, base)).toBe(false);
      expect(await repos.users.suspend(a.tenant.id, 'not-a-uuid', base)).toBe(false);
      expect(await repos.users.suspendedAt(b.tenant.id, second.id)).toBeNull();
      expect(await repos.users.suspensions(b.tenant.id)).toEqual(new Map());
      expect(await repos.users.findAuthState(a.tenant.id, a.user.id)).toMatchObject({ authVersion: 0 });

      expect(await repos.users.markRemoved(a.tenant.id, second.id, base)).toBe(true);
      expect(await repos.users.restore(a.tenant.id, second.id)).toBe(false);
      expect(await repos.users.suspensions(a.tenant.id)).toEqual(new Map());
    });

    test('a suspension and a restore are credential changes: reported to the unit of work once committed, and logged', async () => {
      const store = storage();
      const { tenant, user } = await seedTenant(store.repos, 'admin');
      const reports: CredentialChange[] = [];
      const stop = store.afterCommit((changes) => reports.push(...changes.filter((c) => c.kind === 'user' && c.userId === user.id)));
      const { head } = await store.changeLog.read(Number.MAX_SAFE_INTEGER, 0);
      try {
        await store.unitOfWork.run((tx) => tx.users.suspend(tenant.id, user.id, base));
        await store.unitOfWork.run((tx) => tx.users.restore(tenant.id, user.id));
      } finally {
        stop();
      }
      expect(reports).toEqual([{ kind: 'user', userId: user.id }, { kind: 'user', userId: user.id }]);
      const { changes } = await store.changeLog.read(head, 10_000);
      const logged = changes.filter((c): c is Extract<LoggedChange, { kind: 'user' }> => c.kind === 'user' && c.userId === user.id);
      expect(logged.map(({ tenantId }) => tenantId)).toEqual([tenant.id, tenant.id]);
    });
  });

  describe('SCIM tokens', () => {
    test('one per tenant: a new one replaces the old, which no lookup finds any more; found by hash across tenants', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const first = aScimToken(a.tenant.id);
      const second = aScimToken(a.tenant.id, { createdAt: minutesFrom(base, 1) });
      const other = aScimToken(b.tenant.id);
      await repos.scimTokens.replace(first);
      await repos.scimTokens.replace(other);
      expect(await repos.scimTokens.findByHash(first.tokenHash)).toEqual(first);
      await repos.scimTokens.replace(second);

      expect(await repos.scimTokens.find(a.tenant.id)).toEqual(second);
      expect(await repos.scimTokens.findByHash(first.tokenHash)).toBeNull();
      expect(await repos.scimTokens.findByHash(second.tokenHash)).toEqual(second);
      expect(await repos.scimTokens.findByHash(other.tokenHash)).toEqual(other);
      expect(await repos.scimTokens.find(randomUUID())).toBeNull();
    });

    test('markUsed moves the last use forward only, for that tenant and hash only; remove drops it once', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const token = aScimToken(a.tenant.id);
      await repos.scimTokens.replace(token);

      expect(await repos.scimTokens.markUsed(a.tenant.id, token.tokenHash, minutesFrom(base, 10))).toBe(true);
      expect(await repos.scimTokens.markUsed(a.tenant.id, token.tokenHash, minutesFrom(base, 5))).toBe(true);
      expect((await repos.scimTokens.find(a.tenant.id))?.lastUsedAt).toEqual(minutesFrom(base, 10));
      expect(await repos.scimTokens.markUsed(b.tenant.id, token.tokenHash, minutesFrom(base, 20))).toBe(false);
      expect(await repos.scimTokens.markUsed(a.tenant.id, randomBytes(32).toString('hex'), minutesFrom(base, 20))).toBe(false);

      expect(await repos.scimTokens.remove(b.tenant.id)).toBe(false);
      expect(await repos.scimTokens.remove(a.tenant.id)).toBe(true);
      expect(await repos.scimTokens.remove(a.tenant.id)).toBe(false);
      expect(await repos.scimTokens.findByHash(token.tokenHash)).toBeNull();
    });
  });
}
