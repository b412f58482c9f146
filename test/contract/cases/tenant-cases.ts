import { randomBytes } from 'node:crypto';
import { NodeSecrets } from '../../../src/adapters/crypto/node-secrets';
import type { Secrets } from '../../../src/application/ports/secrets';
import { slugBase } from '../../../src/domain/slug';
import { buildTestUseCases, uniqueEmail } from '../../support/test-use-cases';
import { aTenant, aUser, type StorageGetter } from '../storage-fixtures';

/** The secure generator, except that the slug suffixes (3 bytes) come from `suffixes`, in order, while any are left. */
function scriptedSuffixes(suffixes: string[]): Secrets & { readonly asked: number } {
  const real = new NodeSecrets();
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    randomHex: (bytes) => {
      if (bytes !== 3) return real.randomHex(bytes);
      asked += 1;
      return suffixes.shift() ?? real.randomHex(bytes);
    },
    sha256Hex: (value) => real.sha256Hex(value),
  };
}

/** A tenant name no earlier run used, so its slugs are free on a database the test files share. */
function freshName(): string {
  return `Slug ${randomBytes(4).toString('hex')} Works`;
}

export function describeTenantCases(storage: StorageGetter): void {
  describe('tenants and their slugs', () => {
    test('create answers true and writes the tenant', async () => {
      const { repos } = storage();
      const tenant = aTenant();
      expect(await repos.tenants.create(tenant)).toBe(true);
      expect(await repos.tenants.findById(tenant.id)).toEqual(tenant);
    });

    test('findIdBySlug answers the id of the tenant with exactly that slug, across tenants; null for any other', async () => {
      const { repos } = storage();
      const tenant = aTenant();
      await repos.tenants.create(tenant);
      expect(await repos.tenants.findIdBySlug(tenant.slug)).toBe(tenant.id);
      expect(await repos.tenants.findIdBySlug(tenant.slug.toUpperCase())).toBeNull();
      expect(await repos.tenants.findIdBySlug(`${tenant.slug}-x`)).toBeNull();
      expect(await repos.tenants.findIdBySlug('%')).toBeNull();
      expect(await repos.tenants.findIdBySlug('')).toBeNull();
    });

    test('a taken slug answers false and writes nothing, and the transaction goes on to commit what follows', async () => {
      const { repos, unitOfWork } = storage();
      const first = aTenant();
      await repos.tenants.create(first);
      const second = aTenant({ slug: first.slug });
      const owner = aUser(second.id, { role: 'owner' });

      const answers = await unitOfWork.run(async (tx) => {
        const taken = await tx.tenants.create(second);
        // On Postgres a failed statement would abort the transaction: these must still work.
        const free = await tx.tenants.create({ ...second, slug: `${second.slug}-2` });
        await tx.users.create(owner);
        return [taken, free];
      });

      expect(answers).toEqual([false, true]);
      expect(await repos.tenants.findById(second.id)).toEqual({ ...second, slug: `${second.slug}-2` });
      expect(await repos.tenants.findById(first.id)).toEqual(first);
      expect(await repos.users.findById(second.id, owner.id)).toEqual(owner);
    });

    test('a duplicate id is still an error, not a taken slug', async () => {
      const { repos } = storage();
      const tenant = aTenant();
      await repos.tenants.create(tenant);
      await expect(repos.tenants.create({ ...tenant, slug: `${tenant.slug}-other` })).rejects.toThrow();
    });

    test('signup retries with a fresh suffix when the slug it drew is taken, instead of failing', async () => {
      const name = freshName();
      const secrets = scriptedSuffixes(['c0ffee', 'c0ffee', 'c0ffee', 'beef01']);
      const { useCases, storage: used, assembly } = await buildTestUseCases({ storage: storage(), secrets });
      try {
        const first = await useCases.signup.execute({ email: uniqueEmail('slug-a'), password: 'correct horse battery', tenantName: name });
        const second = await useCases.signup.execute({ email: uniqueEmail('slug-b'), password: 'correct horse battery', tenantName: name });

        expect((await used.repos.tenants.findById(first.tenantId))?.slug).toBe(`${slugBase(name)}-c0ffee`);
        expect((await used.repos.tenants.findById(second.tenantId))?.slug).toBe(`${slugBase(name)}-beef01`);
        expect(secrets.asked).toBe(4);
      } finally {
        await assembly.feed.close(); // its follower, not the storage the other cases share
      }
    });

    test('signup gives up with an error after a few taken slugs in a row, and keeps nothing', async () => {
      const name = freshName();
      const secrets = scriptedSuffixes(Array.from({ length: 20 }, () => 'abcdef'));
      const { useCases, storage: used, assembly } = await buildTestUseCases({ storage: storage(), secrets });
      try {
        await useCases.signup.execute({ email: uniqueEmail('slug-c'), password: 'correct horse battery', tenantName: name });
        const email = uniqueEmail('slug-d');

        await expect(useCases.signup.execute({ email, password: 'correct horse battery', tenantName: name })).rejects.toThrow(/slug/);
        expect(await used.repos.users.findByEmail(email)).toBeNull();
        expect(secrets.asked).toBeLessThan(20);
      } finally {
        await assembly.feed.close();
      }
    });
  });
}
