import { randomBytes, randomUUID } from 'node:crypto';
import type { Invite } from '../../../src/domain/invite';
import { addUser, anInvite, minutesFrom, seedTenant, summaryOf, type StorageGetter } from '../storage-fixtures';

export function describeInviteCases(storage: StorageGetter): void {
  describe('invites', () => {
    const now = new Date();
    const earlier = minutesFrom(now, -30);

    async function stored(...invites: Invite[]): Promise<void> {
      for (const invite of invites) await storage().repos.invites.create(invite);
    }

    test('findByToken returns the invite with every field, whatever its state', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const pending = anInvite(tenant.id, user.id, { role: 'admin' });
      const expired = anInvite(tenant.id, user.id, { role: 'viewer', expiresAt: earlier });
      const accepted = anInvite(tenant.id, user.id, { acceptedAt: earlier });
      await stored(pending, expired, accepted);

      for (const invite of [pending, expired, accepted]) {
        expect(await repos.invites.findByToken(invite.token)).toEqual(invite);
      }
      expect(await repos.invites.findByToken(randomBytes(32).toString('hex'))).toBeNull();
    });

    test("findById returns the tenant's invite with every field, whatever its state, and nothing of another tenant", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const pending = anInvite(a.tenant.id, a.user.id, { role: 'admin' });
      const expired = anInvite(a.tenant.id, a.user.id, { expiresAt: earlier });
      const accepted = anInvite(a.tenant.id, a.user.id, { acceptedAt: earlier });
      const ofB = anInvite(b.tenant.id, b.user.id);
      await stored(pending, expired, accepted, ofB);

      for (const invite of [pending, expired, accepted]) expect(await repos.invites.findById(a.tenant.id, invite.id)).toEqual(invite);
      expect(await repos.invites.findById(a.tenant.id, ofB.id)).toBeNull();
      expect(await repos.invites.findById(b.tenant.id, ofB.id)).toEqual(ofB);
      expect(await repos.invites.findById(a.tenant.id, randomUUID())).toBeNull();
      expect(await repos.invites.findById(a.tenant.id, 'not-a-uuid')).toBeNull();
      expect(await repos.invites.findById('not-a-uuid', pending.id)).toBeNull();
    });

    test('markAccepted consumes an invite once', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const invite = anInvite(tenant.id, user.id);
      await stored(invite);

      expect(await repos.invites.markAccepted(tenant.id, invite.id, now)).toBe(true);
      expect(await repos.invites.markAccepted(tenant.id, invite.id, now)).toBe(false);
      expect(await repos.invites.findByToken(invite.token)).toEqual({ ...invite, acceptedAt: now });
    });

    test('markAccepted refuses an expired invite and an unknown id', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const expired = anInvite(tenant.id, user.id, { expiresAt: earlier });
      const expiringNow = anInvite(tenant.id, user.id, { expiresAt: now });
      await stored(expired, expiringNow);

      expect(await repos.invites.markAccepted(tenant.id, expired.id, now)).toBe(false);
      expect(await repos.invites.markAccepted(tenant.id, expiringNow.id, now)).toBe(false);
      expect(await repos.invites.markAccepted(tenant.id, randomUUID(), now)).toBe(false);
      expect(await repos.invites.markAccepted(tenant.id, 'not-a-uuid', now)).toBe(false);
      expect((await repos.invites.findByToken(expired.token))?.acceptedAt).toBeNull();
    });

    test("markAccepted refuses another tenant's invite and leaves it pending", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const ofB = anInvite(b.tenant.id, b.user.id);
      await stored(ofB);

      expect(await repos.invites.markAccepted(a.tenant.id, ofB.id, now)).toBe(false);
      expect(await repos.invites.markAccepted('not-a-uuid', ofB.id, now)).toBe(false);
      expect((await repos.invites.findByToken(ofB.token))?.acceptedAt).toBeNull();
      expect(await repos.invites.markAccepted(b.tenant.id, ofB.id, now)).toBe(true);
    });

    test('listPending leaves out accepted and expired invites and lists the newest created first', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const created = (minutes: number): Partial<Invite> => ({ createdAt: minutesFrom(now, minutes) });
      const oldest = anInvite(tenant.id, user.id, created(-3));
      const newest = anInvite(tenant.id, user.id, created(-1));
      const middle = anInvite(tenant.id, user.id, created(-2));
      const accepted = anInvite(tenant.id, user.id, { ...created(0), acceptedAt: earlier });
      const expired = anInvite(tenant.id, user.id, { ...created(0), expiresAt: now });
      await stored(oldest, newest, accepted, middle, expired);

      expect(await repos.invites.listPending(tenant.id, now)).toEqual([newest, middle, oldest].map(summaryOf));
    });

    test('listPending orders invites created in the same instant by id, descending', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const invites = [1, 2, 3].map(() => anInvite(tenant.id, user.id, { createdAt: earlier }));
      await stored(...invites);

      const byIdDescending = [...invites].sort((a, b) => (a.id < b.id ? 1 : -1));
      expect(await repos.invites.listPending(tenant.id, now)).toEqual(byIdDescending.map(summaryOf));
    });

    test("listPending never shows another tenant's invites", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const ofA = anInvite(a.tenant.id, a.user.id);
      const ofB = anInvite(b.tenant.id, b.user.id);
      await stored(ofA, ofB);

      expect(await repos.invites.listPending(a.tenant.id, now)).toEqual([summaryOf(ofA)]);
      expect(await repos.invites.listPending(randomUUID(), now)).toEqual([]);
      expect(await repos.invites.listPending('not-a-uuid', now)).toEqual([]);
    });

    test('deleteUnaccepted removes a pending or expired invite of the tenant, once', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const pending = anInvite(tenant.id, user.id);
      const expired = anInvite(tenant.id, user.id, { expiresAt: earlier });
      await stored(pending, expired);

      expect(await repos.invites.deleteUnaccepted(tenant.id, pending.id)).toBe(true);
      expect(await repos.invites.deleteUnaccepted(tenant.id, expired.id)).toBe(true);
      expect(await repos.invites.findByToken(pending.token)).toBeNull();
      expect(await repos.invites.findByToken(expired.token)).toBeNull();
      expect(await repos.invites.deleteUnaccepted(tenant.id, pending.id)).toBe(false);
    });

    test("deleteUnaccepted refuses accepted invites, other tenants' invites and unknown ids", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const accepted = anInvite(a.tenant.id, a.user.id, { acceptedAt: earlier });
      const ofB = anInvite(b.tenant.id, b.user.id);
      await stored(accepted, ofB);

      expect(await repos.invites.deleteUnaccepted(a.tenant.id, accepted.id)).toBe(false);
      expect(await repos.invites.deleteUnaccepted(a.tenant.id, ofB.id)).toBe(false);
      expect(await repos.invites.deleteUnaccepted(a.tenant.id, randomUUID())).toBe(false);
      expect(await repos.invites.deleteUnaccepted(a.tenant.id, 'not-a-uuid')).toBe(false);
      expect(await repos.invites.findByToken(accepted.token)).toEqual(accepted);
      expect(await repos.invites.listPending(b.tenant.id, now)).toEqual([summaryOf(ofB)]);
    });

    test("deleteUnacceptedFrom removes the sender's unaccepted invites for the roles named, in its tenant only", async () => {
      const { repos } = storage();
      const { tenant, user: sender } = await seedTenant(repos, 'admin');
      const other = await seedTenant(repos, 'admin');
      const colleague = await addUser(repos, tenant.id, 'admin');
      const asAdmin = anInvite(tenant.id, sender.id, { role: 'admin' });
      const expiredAdmin = anInvite(tenant.id, sender.id, { role: 'admin', expiresAt: earlier });
      const asMember = anInvite(tenant.id, sender.id, { role: 'member' });
      const acceptedAdmin = anInvite(tenant.id, sender.id, { role: 'admin', acceptedAt: earlier });
      const colleagues = anInvite(tenant.id, colleague.id, { role: 'admin' });
      const otherTenants = anInvite(other.tenant.id, other.user.id, { role: 'admin' });
      await stored(asAdmin, expiredAdmin, asMember, acceptedAdmin, colleagues, otherTenants);

      expect((await repos.invites.deleteUnacceptedFrom(tenant.id, sender.id, ['admin'])).sort())
        .toEqual([asAdmin.id, expiredAdmin.id].sort());
      for (const kept of [asMember, acceptedAdmin, colleagues, otherTenants]) {
        expect(await repos.invites.findByToken(kept.token)).toEqual(kept);
      }
      expect(await repos.invites.deleteUnacceptedFrom(other.tenant.id, sender.id, ['admin', 'member', 'viewer'])).toEqual([]);
      expect(await repos.invites.deleteUnacceptedFrom(tenant.id, sender.id, [])).toEqual([]);
      expect(await repos.invites.deleteUnacceptedFrom(tenant.id, 'not-a-uuid', ['member'])).toEqual([]);
      expect(await repos.invites.deleteUnacceptedFrom(tenant.id, sender.id, ['admin', 'member', 'viewer'])).toEqual([asMember.id]);
    });
  });
}
