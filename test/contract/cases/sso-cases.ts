import { randomBytes, randomUUID } from 'node:crypto';
import { SsoDomainTaken } from '../../../src/domain/errors';
import type { SsoConnection, SsoDomain, SsoIdentity, SsoSignIn } from '../../../src/domain/sso';
import { addUser, minutesFrom, seedTenant, type StorageGetter } from '../storage-fixtures';

const base = new Date('2030-01-01T00:00:00.000Z');
const at = (minutes: number): Date => minutesFrom(base, minutes);
const PARALLEL_RUNS = 10;

export function aConnection(tenantId: string, overrides: Partial<SsoConnection> = {}): SsoConnection {
  return {
    tenantId, issuer: 'https://idp.example.test', clientId: `client-${randomUUID()}`, clientSecretSealed: `v1.${randomBytes(24).toString('base64url')}`,
    defaultRole: 'member', ssoRequired: false, groupRoles: {}, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

export function uniqueDomain(): string {
  return `d-${randomUUID()}.example.test`;
}

export function aDomainClaim(tenantId: string, overrides: Partial<SsoDomain> = {}): SsoDomain {
  return {
    domain: uniqueDomain(), tenantId, txtValue: `portcullis-verification=${randomBytes(32).toString('base64url')}`,
    verifiedAt: null, createdAt: at(0), ...overrides,
  };
}

function anIdentity(tenantId: string, userId: string, overrides: Partial<SsoIdentity> = {}): SsoIdentity {
  return { tenantId, issuer: 'https://idp.example.test', subject: randomUUID(), userId, createdAt: at(0), lastSignInAt: at(0), ...overrides };
}

function aSsoSignIn(tenantId: string, overrides: Partial<SsoSignIn> = {}): SsoSignIn {
  return {
    stateHash: randomBytes(32).toString('hex'), tenantId, issuer: 'https://idp.example.test', nonce: randomBytes(16).toString('base64url'),
    codeVerifier: randomBytes(32).toString('base64url'), createdAt: at(0), expiresAt: at(10), usedAt: null, ...overrides,
  };
}

export function describeSsoCases(storage: StorageGetter): void {
  describe('single sign-on', () => {
    test("a tenant's connection is saved, replaced keeping its creation time, seen by no other tenant, and removed once", async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const other = await seedTenant(repos);
      expect(await repos.ssoConnections.find(tenant.id)).toBeNull();

      const first = aConnection(tenant.id, { groupRoles: { Engineering: 'admin', 'Read only': 'viewer' } });
      await repos.ssoConnections.save(first);
      expect(await repos.ssoConnections.find(tenant.id)).toEqual(first);
      expect(await repos.ssoConnections.find(other.tenant.id)).toBeNull();

      const replacement = aConnection(tenant.id, {
        issuer: 'https://other-idp.example.test', defaultRole: 'viewer', ssoRequired: true, groupRoles: {}, createdAt: at(5), updatedAt: at(5),
      });
      await repos.ssoConnections.save(replacement);
      expect(await repos.ssoConnections.find(tenant.id)).toEqual({ ...replacement, createdAt: first.createdAt });

      expect(await repos.ssoConnections.remove(other.tenant.id)).toBe(false);
      expect(await repos.ssoConnections.find(tenant.id)).not.toBeNull();
      expect(await repos.ssoConnections.remove(tenant.id)).toBe(true);
      expect(await repos.ssoConnections.remove(tenant.id)).toBe(false);
      expect(await repos.ssoConnections.find(tenant.id)).toBeNull();
      expect(await repos.ssoConnections.find('not-a-uuid')).toBeNull();
    });

    test("a domain claim is added once per tenant, listed by name for that tenant only, and other tenants' unverified claims do not block it", async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const other = await seedTenant(repos);
      const second = aDomainClaim(tenant.id, { domain: `b-${uniqueDomain()}` });
      const first = aDomainClaim(tenant.id, { domain: `a-${uniqueDomain()}` });

      expect(await repos.ssoDomains.add(second)).toBe(true);
      expect(await repos.ssoDomains.add(first)).toBe(true);
      expect(await repos.ssoDomains.add({ ...first, txtValue: 'portcullis-verification=other', createdAt: at(3) })).toBe(false);
      expect(await repos.ssoDomains.listFor(tenant.id)).toEqual([first, second]);

      const rival = aDomainClaim(other.tenant.id, { domain: first.domain });
      expect(await repos.ssoDomains.add(rival)).toBe(true);
      expect(await repos.ssoDomains.listFor(other.tenant.id)).toEqual([rival]);
      expect(await repos.ssoDomains.verifiedOwner(first.domain)).toBeNull();
      expect(await repos.ssoDomains.listFor('not-a-uuid')).toEqual([]);
    });

    test('a domain is verified by one tenant only: the other can neither verify it nor claim it until the owner lets it go', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const other = await seedTenant(repos);
      const claim = aDomainClaim(tenant.id);
      const rival = aDomainClaim(other.tenant.id, { domain: claim.domain });
      await repos.ssoDomains.add(claim);
      await repos.ssoDomains.add(rival);

      expect(await repos.ssoDomains.markVerified(tenant.id, claim.domain, at(1))).toEqual({ ...claim, verifiedAt: at(1) });
      expect(await repos.ssoDomains.verifiedOwner(claim.domain)).toBe(tenant.id);
      await expect(repos.ssoDomains.markVerified(other.tenant.id, claim.domain, at(2))).rejects.toBeInstanceOf(SsoDomainTaken);
      await expect(repos.ssoDomains.add(aDomainClaim(randomUUID(), { domain: claim.domain }))).rejects.toBeInstanceOf(SsoDomainTaken);
      expect(await repos.ssoDomains.listFor(other.tenant.id)).toEqual([rival]);

      // Verifying again keeps the first time; the owner's own add changes nothing.
      expect(await repos.ssoDomains.markVerified(tenant.id, claim.domain, at(4))).toEqual({ ...claim, verifiedAt: at(1) });
      expect(await repos.ssoDomains.add(claim)).toBe(false);

      expect(await repos.ssoDomains.remove(other.tenant.id, 'never-claimed.example.test')).toBe(false);
      expect(await repos.ssoDomains.remove(tenant.id, claim.domain)).toBe(true);
      expect(await repos.ssoDomains.remove(tenant.id, claim.domain)).toBe(false);
      expect(await repos.ssoDomains.verifiedOwner(claim.domain)).toBeNull();
      expect(await repos.ssoDomains.markVerified(other.tenant.id, claim.domain, at(5))).toEqual({ ...rival, verifiedAt: at(5) });
      expect(await repos.ssoDomains.verifiedOwner(claim.domain)).toBe(other.tenant.id);
    });

    test('verifying a claim the tenant does not have answers null, and the owner lookup matches exact names only', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const other = await seedTenant(repos);
      const claim = aDomainClaim(tenant.id);
      await repos.ssoDomains.add(claim);

      expect(await repos.ssoDomains.markVerified(other.tenant.id, claim.domain, at(1))).toBeNull();
      expect(await repos.ssoDomains.markVerified(tenant.id, uniqueDomain(), at(1))).toBeNull();
      expect(await repos.ssoDomains.markVerified('not-a-uuid', claim.domain, at(1))).toBeNull();
      await repos.ssoDomains.markVerified(tenant.id, claim.domain, at(1));

      for (const near of ['%', claim.domain.toUpperCase(), claim.domain.slice(1), `${claim.domain}.`, `x.${claim.domain}`]) {
        expect(await repos.ssoDomains.verifiedOwner(near)).toBeNull();
      }
    });

    test('a domain added inside a unit of work that fails is not kept', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos);
      const claim = aDomainClaim(tenant.id);

      await expect(unitOfWork.run(async (tx) => {
        await tx.ssoDomains.add(claim);
        await tx.ssoDomains.markVerified(tenant.id, claim.domain, at(1));
        throw new Error('the work failed');
      })).rejects.toThrow('the work failed');
      expect(await repos.ssoDomains.listFor(tenant.id)).toEqual([]);
      expect(await repos.ssoDomains.verifiedOwner(claim.domain)).toBeNull();
    });

    test('V6.8.1: an identity is keyed by tenant, issuer and subject: created once, found only under all three', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const colleague = await addUser(repos, tenant.id, 'member');
      const other = await seedTenant(repos);
      const identity = anIdentity(tenant.id, user.id);

      expect(await repos.ssoIdentities.create(identity)).toBe(true);
      expect(await repos.ssoIdentities.create({ ...identity, userId: colleague.id })).toBe(false);
      expect(await repos.ssoIdentities.find(tenant.id, identity.issuer, identity.subject)).toEqual(identity);

      expect(await repos.ssoIdentities.find(other.tenant.id, identity.issuer, identity.subject)).toBeNull();
      expect(await repos.ssoIdentities.find(tenant.id, 'https://elsewhere.example.test', identity.subject)).toBeNull();
      expect(await repos.ssoIdentities.find(tenant.id, identity.issuer, identity.subject.toUpperCase())).toBeNull();
      expect(await repos.ssoIdentities.find('not-a-uuid', identity.issuer, identity.subject)).toBeNull();

      // The same subject at another tenant is another identity, of another member.
      const theirs = anIdentity(other.tenant.id, other.user.id, { subject: identity.subject });
      expect(await repos.ssoIdentities.create(theirs)).toBe(true);
      expect(await repos.ssoIdentities.find(other.tenant.id, identity.issuer, identity.subject)).toEqual(theirs);
      expect(await repos.ssoIdentities.find(tenant.id, identity.issuer, identity.subject)).toEqual(identity);
    });

    test("a sign-in is recorded on the identity's own tenant only, and its time never moves back", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const other = await seedTenant(repos);
      const identity = anIdentity(tenant.id, user.id);
      await repos.ssoIdentities.create(identity);

      expect(await repos.ssoIdentities.recordSignIn(tenant.id, identity.issuer, identity.subject, at(5))).toBe(true);
      expect(await repos.ssoIdentities.recordSignIn(tenant.id, identity.issuer, identity.subject, at(3))).toBe(true);
      expect(await repos.ssoIdentities.recordSignIn(other.tenant.id, identity.issuer, identity.subject, at(9))).toBe(false);
      expect(await repos.ssoIdentities.recordSignIn(tenant.id, identity.issuer, randomUUID(), at(9))).toBe(false);
      expect(await repos.ssoIdentities.find(tenant.id, identity.issuer, identity.subject)).toEqual({ ...identity, lastSignInAt: at(5) });
    });

    test('V6.5.1: a sign-in in flight is consumed once by its state, answers what the callback checks, and not after it expires', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const signIn = aSsoSignIn(tenant.id, { createdAt: at(0), expiresAt: at(10) });
      const expiring = aSsoSignIn(tenant.id, { createdAt: at(0), expiresAt: at(10) });
      await repos.ssoSignIns.create(signIn);
      await repos.ssoSignIns.create(expiring);

      expect(await repos.ssoSignIns.consume(signIn.stateHash, at(1))).toEqual({ ...signIn, usedAt: at(1) });
      expect(await repos.ssoSignIns.consume(signIn.stateHash, at(1))).toBeNull();
      expect(await repos.ssoSignIns.consume(expiring.stateHash, at(10))).toBeNull();
      expect(await repos.ssoSignIns.consume(aSsoSignIn(tenant.id).stateHash, at(1))).toBeNull();
      await expect(repos.ssoSignIns.create({ ...aSsoSignIn(tenant.id), stateHash: signIn.stateHash })).rejects.toThrow();
    });

    // Far in the past, and the live one expires far in the future: other suites sharing the database
    // prune on their own clocks, and neither side's clean-up may reach the other's.
    test('pruning drops the sign-ins that expired before the given time, and keeps the live ones', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const past = new Date('2000-01-01T00:00:00.000Z');
      const stale = aSsoSignIn(tenant.id, { createdAt: past, expiresAt: minutesFrom(past, 5) });
      const live = aSsoSignIn(tenant.id, { createdAt: past, expiresAt: new Date('2099-01-01T00:00:00.000Z') });
      await repos.ssoSignIns.create(stale);
      await repos.ssoSignIns.create(live);

      expect(await repos.ssoSignIns.pruneExpired(minutesFrom(past, 10))).toBeGreaterThanOrEqual(1);
      // Consumed at a time it would still be live: only its deletion refuses it.
      expect(await repos.ssoSignIns.consume(stale.stateHash, minutesFrom(past, 1))).toBeNull();
      expect(await repos.ssoSignIns.consume(live.stateHash, minutesFrom(past, 11))).toEqual({ ...live, usedAt: minutesFrom(past, 11) });
    });
  });
}

/** Needs real parallel connections (Postgres). */
export function describeConcurrentSsoCases(storage: StorageGetter): void {
  describe('single sign-on, concurrent', () => {
    test('V6.5.1: parallel callbacks with one state: exactly one consumes the sign-in', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos);
      const signIn = aSsoSignIn(tenant.id, { createdAt: at(0), expiresAt: at(10) });
      await repos.ssoSignIns.create(signIn);

      const results = await Promise.all(Array.from({ length: PARALLEL_RUNS }, () =>
        unitOfWork.run((tx) => tx.ssoSignIns.consume(signIn.stateHash, at(1)))));
      expect(results.filter((result) => result !== null)).toEqual([{ ...signIn, usedAt: at(1) }]);
    });

    test('tenants verifying one domain in parallel: exactly one owns it, the others get SsoDomainTaken', async () => {
      const { repos, unitOfWork } = storage();
      const domain = uniqueDomain();
      const tenants = await Promise.all(Array.from({ length: PARALLEL_RUNS }, async () => {
        const { tenant } = await seedTenant(repos);
        await repos.ssoDomains.add(aDomainClaim(tenant.id, { domain }));
        return tenant.id;
      }));

      const results = await Promise.allSettled(tenants.map((tenantId) =>
        unitOfWork.run(async (tx) => (await tx.ssoDomains.markVerified(tenantId, domain, at(1)))?.tenantId)));
      const winners = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      expect(winners).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(SsoDomainTaken);
      expect(await repos.ssoDomains.verifiedOwner(domain)).toBe(winners[0]);
    });
  });
}
