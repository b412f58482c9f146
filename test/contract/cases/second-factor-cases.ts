import { createHash, randomUUID } from 'node:crypto';
import type { RecoveryCode, TotpFactor } from '../../../src/domain/second-factor';
import { addUser, minutesFrom, seedTenant, type StorageGetter } from '../storage-fixtures';

const at = (minutes: number) => minutesFrom(new Date('2030-01-01T00:00:00.000Z'), minutes);
const hash = (text: string) => createHash('sha256').update(text).digest('hex');

function aFactor(tenantId: string, userId: string, overrides: Partial<TotpFactor> = {}): TotpFactor {
  return { id: randomUUID(), tenantId, userId, secret: `v1.sealed.${randomUUID()}`, createdAt: at(0), confirmedAt: null, lastUsedStep: null, ...overrides };
}

function codesFor(tenantId: string, userId: string, count = 3): RecoveryCode[] {
  return Array.from({ length: count }, () => ({
    id: randomUUID(), tenantId, userId, codeHash: hash(randomUUID()), createdAt: at(0), usedAt: null,
  }));
}

export function describeSecondFactorCases(storage: StorageGetter): void {
  describe('second factors', () => {
    test('an authenticator app: one per member, pending until confirmed once, and a pending one can be replaced', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      expect(await repos.totpFactors.findByMember(tenant.id, user.id)).toBeNull();
      const pending = aFactor(tenant.id, user.id);
      await repos.totpFactors.create(pending);
      expect(await repos.totpFactors.findByMember(tenant.id, user.id)).toEqual(pending);
      await expect(repos.totpFactors.create(aFactor(tenant.id, user.id))).rejects.toThrow();
      // Not confirmed: no step can be used.
      expect(await repos.totpFactors.useStep(tenant.id, user.id, pending.id, 100)).toBe(false);
      expect(await repos.totpFactors.deletePending(tenant.id, user.id)).toBe(true);
      const again = aFactor(tenant.id, user.id);
      await repos.totpFactors.create(again);
      expect(await repos.totpFactors.confirm(tenant.id, user.id, again.id, at(1), 100)).toBe(true);
      expect(await repos.totpFactors.confirm(tenant.id, user.id, again.id, at(2), 101)).toBe(false);
      expect(await repos.totpFactors.deletePending(tenant.id, user.id)).toBe(false);
      expect(await repos.totpFactors.findByMember(tenant.id, user.id)).toEqual({ ...again, confirmedAt: at(1), lastUsedStep: 100 });
    });

    // The service asks at start whether secrets sealed with MFA_ENCRYPTION_KEY exist, across every tenant.
    test('anyExist: true once any member of any tenant has an authenticator app, pending or confirmed', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      await repos.totpFactors.create(aFactor(tenant.id, user.id));
      expect(await repos.totpFactors.anyExist()).toBe(true);
    });

    // V6.5.1: a step is accepted once, and never one at or before the last accepted.
    test('a step is used once: the same step or an earlier one is refused, a later one accepted (V6.5.1)', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const factor = aFactor(tenant.id, user.id);
      await repos.totpFactors.create(factor);
      await repos.totpFactors.confirm(tenant.id, user.id, factor.id, at(1), 100);
      expect(await repos.totpFactors.useStep(tenant.id, user.id, factor.id, 100)).toBe(false);
      expect(await repos.totpFactors.useStep(tenant.id, user.id, factor.id, 99)).toBe(false);
      expect(await repos.totpFactors.useStep(tenant.id, user.id, factor.id, 101)).toBe(true);
      expect(await repos.totpFactors.useStep(tenant.id, user.id, factor.id, 101)).toBe(false);
      expect((await repos.totpFactors.findByMember(tenant.id, user.id))?.lastUsedStep).toBe(101);
      expect(await repos.totpFactors.deleteOf(tenant.id, user.id)).toBe(true);
      expect(await repos.totpFactors.deleteOf(tenant.id, user.id)).toBe(false);
    });

    test("factors are the member's and the tenant's only (tenant isolation)", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const colleague = await addUser(repos, tenant.id, 'member');
      const other = await seedTenant(repos);
      const factor = aFactor(tenant.id, user.id);
      await repos.totpFactors.create(factor);
      await repos.totpFactors.confirm(tenant.id, user.id, factor.id, at(1), 1);
      const codes = codesFor(tenant.id, user.id);
      await repos.recoveryCodes.replaceAll(tenant.id, user.id, codes);

      expect(await repos.totpFactors.findByMember(other.tenant.id, user.id)).toBeNull();
      expect(await repos.totpFactors.findByMember(tenant.id, colleague.id)).toBeNull();
      expect(await repos.totpFactors.useStep(other.tenant.id, user.id, factor.id, 5)).toBe(false);
      expect(await repos.totpFactors.useStep(tenant.id, colleague.id, factor.id, 5)).toBe(false);
      expect(await repos.totpFactors.deleteOf(other.tenant.id, user.id)).toBe(false);
      expect(await repos.recoveryCodes.consume(other.tenant.id, user.id, codes[0]!.codeHash, at(2))).toBe(false);
      expect(await repos.recoveryCodes.consume(tenant.id, colleague.id, codes[0]!.codeHash, at(2))).toBe(false);
      expect(await repos.recoveryCodes.countUnused(other.tenant.id, user.id)).toBe(0);
      expect(await repos.recoveryCodes.deleteAllOf(other.tenant.id, user.id)).toBe(0);
      expect(await repos.recoveryCodes.countUnused(tenant.id, user.id)).toBe(3);
      expect(await repos.totpFactors.findByMember(tenant.id, user.id)).not.toBeNull();
    });

    // V6.5.2: recovery codes are kept as hashes and each is used once; a new set voids the old.
    test('recovery codes: each used once, counted, and a new set replaces the old one whole (V6.5.2)', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const first = codesFor(tenant.id, user.id);
      await repos.recoveryCodes.replaceAll(tenant.id, user.id, first);
      expect(await repos.recoveryCodes.consume(tenant.id, user.id, first[1]!.codeHash, at(1))).toBe(true);
      expect(await repos.recoveryCodes.consume(tenant.id, user.id, first[1]!.codeHash, at(2))).toBe(false);
      expect(await repos.recoveryCodes.consume(tenant.id, user.id, hash('never issued'), at(2))).toBe(false);
      expect(await repos.recoveryCodes.countUnused(tenant.id, user.id)).toBe(2);

      const second = codesFor(tenant.id, user.id, 2);
      await repos.recoveryCodes.replaceAll(tenant.id, user.id, second);
      expect(await repos.recoveryCodes.consume(tenant.id, user.id, first[0]!.codeHash, at(3))).toBe(false);
      expect(await repos.recoveryCodes.countUnused(tenant.id, user.id)).toBe(2);
      expect(await repos.recoveryCodes.deleteAllOf(tenant.id, user.id)).toBe(2);
      expect(await repos.recoveryCodes.countUnused(tenant.id, user.id)).toBe(0);
    });

    test('a unit of work that fails keeps no factor and no used code', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant, user } = await seedTenant(repos);
      const codes = codesFor(tenant.id, user.id);
      await repos.recoveryCodes.replaceAll(tenant.id, user.id, codes);
      await expect(unitOfWork.run(async (tx) => {
        await tx.totpFactors.create(aFactor(tenant.id, user.id));
        expect(await tx.recoveryCodes.consume(tenant.id, user.id, codes[0]!.codeHash, at(1))).toBe(true);
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      expect(await repos.totpFactors.findByMember(tenant.id, user.id)).toBeNull();
      expect(await repos.recoveryCodes.countUnused(tenant.id, user.id)).toBe(3);
    });

    test("a session records its amr", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const id = randomUUID();
      await repos.sessions.create({
        id, tenantId: tenant.id, userId: user.id, createdAt: at(0), lastSeenAt: at(0), authenticatedAt: at(0), userAgent: null, ip: null,
        endedAt: null, endedBy: null, endReason: null, amr: ['pwd', 'otp', 'mfa'],
      });
      expect((await repos.sessions.listLive(tenant.id, user.id)).map((s) => s.amr)).toEqual([['pwd', 'otp', 'mfa']]);
    });
  });
}

/** Postgres only: real parallel connections. */
export function describeConcurrentSecondFactorCases(storage: StorageGetter): void {
  // V6.5.1: two sign-ins with one code, or one recovery code, in parallel transactions: one wins.
  test('two parallel uses of one step, and of one recovery code: exactly one of each wins (V6.5.1)', async () => {
    const { repos, unitOfWork } = storage();
    const { tenant, user } = await seedTenant(repos);
    const factor = aFactor(tenant.id, user.id);
    await repos.totpFactors.create(factor);
    await repos.totpFactors.confirm(tenant.id, user.id, factor.id, at(1), 1);
    const codes = codesFor(tenant.id, user.id);
    await repos.recoveryCodes.replaceAll(tenant.id, user.id, codes);
    const steps = await Promise.all([0, 1].map(() => unitOfWork.run((tx) => tx.totpFactors.useStep(tenant.id, user.id, factor.id, 2))));
    expect(steps.sort()).toEqual([false, true]);
    const used = await Promise.all([0, 1].map(() => unitOfWork.run((tx) => tx.recoveryCodes.consume(tenant.id, user.id, codes[0]!.codeHash, at(2)))));
    expect(used.sort()).toEqual([false, true]);
  });
}
