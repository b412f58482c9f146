import type { CredentialChange } from '../../../src/application/ports/credential-states';
import { anApiKey, aTenant, aUser, type StorageGetter } from '../storage-fixtures';

/** The member, key or session a change names; none for `everything`. */
function subjectOf(change: CredentialChange): string | undefined {
  switch (change.kind) {
    case 'user': return change.userId;
    case 'api-key': return change.keyId;
    case 'session': return change.sessionId;
    default: return undefined;
  }
}

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

    test('a committed run reports the credential changes it made, once committed; a failed run reports none', async () => {
      const store = storage();
      const tenant = aTenant();
      const user = aUser(tenant.id, { role: 'admin' });
      const [revoked, used, kept] = [anApiKey(tenant.id, user.id), anApiKey(tenant.id, user.id), anApiKey(tenant.id, user.id)];
      const ours = new Set([user.id, revoked.id, used.id, kept.id]);
      const reports: CredentialChange[][] = [];
      const stop = store.afterCommit((changes) => {
        const mine = changes.filter((change) => ours.has(subjectOf(change) ?? ''));
        if (mine.length > 0) reports.push([...mine]);
      });
      try {
        await store.unitOfWork.run(async (tx) => {
          await tx.tenants.create(tenant);
          await tx.users.create(user);
          for (const key of [revoked, used, kept]) await tx.apiKeys.create(key);
        });
        expect(reports).toEqual([]); // new records change no credential anyone holds

        let reportedBeforeCommit = true;
        await store.unitOfWork.run(async (tx) => {
          await tx.users.changeRole(tenant.id, user.id, 'viewer');
          await tx.apiKeys.revoke(tenant.id, revoked.id);
          await tx.apiKeys.markUsed([{ tenantId: tenant.id, keyId: used.id, at: new Date() }]); // bookkeeping, not a credential
          reportedBeforeCommit = reports.length > 0;
        });
        expect(reportedBeforeCommit).toBe(false);
        expect(reports).toHaveLength(1);
        expect(new Set(reports[0])).toEqual(new Set([{ kind: 'user', userId: user.id }, { kind: 'api-key', keyId: revoked.id }]));

        await expect(store.unitOfWork.run(async (tx) => {
          await tx.apiKeys.revoke(tenant.id, kept.id);
          throw new Error('boom');
        })).rejects.toThrow('boom');
        expect(reports).toHaveLength(1);
      } finally {
        stop();
      }
    });
  });
}
