import { EmailAlreadyRegistered, InviteAlreadyAccepted } from '../../../src/domain/errors';
import { addUser, aTenant, aUser, anInvite, seedTenant, uniqueEmail, type StorageGetter } from '../storage-fixtures';

const PARALLEL_RUNS = 10;

function fulfilled<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}

function rejections<T>(results: PromiseSettledResult<T>[]): unknown[] {
  return results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
}

/** Needs real parallel connections; the storage must allow at least PARALLEL_RUNS of them. */
export function describeConcurrencyCases(storage: StorageGetter): void {
  describe('concurrent runs', () => {
    test('parallel signups with one e-mail: exactly one wins, the others get EmailAlreadyRegistered', async () => {
      const { repos, unitOfWork } = storage();
      const email = uniqueEmail();
      const tenants = Array.from({ length: PARALLEL_RUNS }, () => aTenant());

      const results = await Promise.allSettled(
        tenants.map((tenant) =>
          unitOfWork.run(async (tx) => {
            await tx.tenants.create(tenant);
            await tx.users.create(aUser(tenant.id, { email, role: 'owner' }));
            return tenant.id;
          }),
        ),
      );

      const winners = fulfilled(results);
      expect(winners).toHaveLength(1);
      const losses = rejections(results);
      expect(losses).toHaveLength(PARALLEL_RUNS - 1);
      for (const reason of losses) expect(reason).toBeInstanceOf(EmailAlreadyRegistered);
      expect((await repos.users.findByEmail(email))?.tenantId).toBe(winners[0]);
      const kept = await Promise.all(tenants.map((tenant) => repos.tenants.findById(tenant.id)));
      expect(kept.filter((tenant) => tenant !== null).map((tenant) => tenant.id)).toEqual(winners);
    });

    test('parallel signups on one invite: exactly one consumes it and keeps its user', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant, user: inviter } = await seedTenant(repos, 'admin');
      const invite = anInvite(tenant.id, inviter.id);
      await repos.invites.create(invite);
      const joiners = Array.from({ length: PARALLEL_RUNS }, () => aUser(tenant.id, { role: invite.role }));
      const now = new Date();

      const results = await Promise.allSettled(
        joiners.map((joiner) =>
          unitOfWork.run(async (tx) => {
            const consumed = await tx.invites.markAccepted(tenant.id, invite.id, now);
            // As the signup use-case does: a lost race must undo the whole run.
            if (!consumed) throw new InviteAlreadyAccepted();
            await tx.users.create(joiner);
            return joiner.id;
          }),
        ),
      );

      const winners = fulfilled(results);
      expect(winners).toHaveLength(1);
      for (const reason of rejections(results)) expect(reason).toBeInstanceOf(InviteAlreadyAccepted);
      const kept = await Promise.all(joiners.map((joiner) => repos.users.findById(tenant.id, joiner.id)));
      expect(kept.filter((user) => user !== null).map((user) => user.id)).toEqual(winners);
      expect((await repos.invites.findByToken(invite.token))?.acceptedAt).toEqual(now);
    });

    test('two owners demoting each other under the membership lock leave exactly one owner', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant, user: first } = await seedTenant(repos, 'owner');
      const second = await addUser(repos, tenant.id, 'owner');

      // As the use-cases do: lock, count, then demote only when another owner remains. The pause
      // between the count and the write is where, without the lock, both would see two owners.
      const demote = (target: string) => unitOfWork.run(async (tx) => {
        await tx.tenants.lockMembership(tenant.id);
        const owners = await tx.users.countOwners(tenant.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (owners <= 1) return false;
        return tx.users.changeRole(tenant.id, target, 'admin');
      });
      const outcomes = await Promise.all([demote(first.id), demote(second.id)]);

      expect(outcomes.sort()).toEqual([false, true]);
      expect(await repos.users.countOwners(tenant.id)).toBe(1);
    });

    test("a member change waits for work that holds the member, then revokes the invite that work made", async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos, 'owner');
      const sender = await addUser(repos, tenant.id, 'admin');
      const invite = anInvite(tenant.id, sender.id, { role: 'admin' });
      let held!: () => void;
      const holding = new Promise<void>((resolve) => { held = resolve; });

      // As InviteUser does: hold the sender's standing, then write; the demotion starts in between.
      const inviting = unitOfWork.run(async (tx) => {
        const standing = await tx.users.holdAuthState(tenant.id, sender.id);
        held();
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.invites.create(invite);
        return standing?.role;
      });
      await holding;
      // As ChangeMemberRole does: the membership lock, the member's row, then the invites.
      const demoting = unitOfWork.run(async (tx) => {
        await tx.tenants.lockMembership(tenant.id);
        await tx.users.changeRole(tenant.id, sender.id, 'member');
        return tx.invites.deleteUnacceptedFrom(tenant.id, sender.id, ['admin']);
      });

      expect(await inviting).toBe('admin');
      expect(await demoting).toEqual([invite.id]);
      expect(await repos.invites.findByToken(invite.token)).toBeNull();
    });

    test('an invite accepted while its sender is demoted is either accepted or revoked, never both', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos, 'owner');
      const senders = await Promise.all(Array.from({ length: PARALLEL_RUNS }, () => addUser(repos, tenant.id, 'admin')));
      const invites = senders.map((sender) => anInvite(tenant.id, sender.id, { role: 'admin' }));
      for (const invite of invites) await repos.invites.create(invite);
      const now = new Date();

      const outcomes = await Promise.all(invites.map(async (invite, i) => {
        const [accepted, revoked] = await Promise.all([
          unitOfWork.run((tx) => tx.invites.markAccepted(tenant.id, invite.id, now)),
          unitOfWork.run(async (tx) => {
            await tx.tenants.lockMembership(tenant.id);
            await tx.users.changeRole(tenant.id, senders[i]!.id, 'member');
            return tx.invites.deleteUnacceptedFrom(tenant.id, senders[i]!.id, ['admin']);
          }),
        ]);
        return { accepted, revoked: revoked.includes(invite.id), stored: await repos.invites.findByToken(invite.token) };
      }));

      for (const { accepted, revoked, stored } of outcomes) {
        expect(accepted).toBe(!revoked);
        if (accepted) expect(stored?.acceptedAt).toEqual(now);
        else expect(stored).toBeNull();
      }
    });
  });
}
