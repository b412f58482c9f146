import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { buildTestUseCases, FAST_SCRYPT, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';
const OLDER = { N: 512, r: 8, p: 1 };

describe('scrypt parameters travel with the hash', () => {
  it('verifies a hash made at other parameters and says it needs renewing', async () => {
    const older = await new ScryptPasswordHasher(OLDER).hash(PASSWORD);
    const current = new ScryptPasswordHasher(FAST_SCRYPT);
    expect(older).toMatch(/^scrypt\$512\$8\$1\$/);
    await expect(current.verify(PASSWORD, older)).resolves.toBe(true);
    expect(current.needsRehash(older)).toBe(true);
    expect(current.needsRehash(await current.hash(PASSWORD))).toBe(false);
    expect(current.needsRehash('not a hash')).toBe(true);
  });

  it('the production hasher (N=2^13, r=8, p=10) verifies hashes stored at the earlier default N=2^14, r=8, p=5, and renews them', async () => {
    const stored = await new ScryptPasswordHasher({ N: 2 ** 14, r: 8, p: 5 }).hash(PASSWORD);
    const production = new ScryptPasswordHasher();
    expect(stored).toMatch(/^scrypt\$16384\$8\$5\$/);
    await expect(production.verify(PASSWORD, stored)).resolves.toBe(true);
    await expect(production.verify('wrong password', stored)).resolves.toBe(false);
    expect(production.needsRehash(stored)).toBe(true);
    expect(await production.hash(PASSWORD)).toMatch(/^scrypt\$8192\$8\$10\$/);
  });

  it('rejects malformed stored hashes without throwing', async () => {
    const hasher = new ScryptPasswordHasher(FAST_SCRYPT);
    for (const stored of ['', 'scrypt$', 'scrypt$x$8$1$AA==$AA==', 'scrypt$3$8$1$AA==$AA==', 'bcrypt$1$2$3$4$5']) {
      await expect(hasher.verify(PASSWORD, stored)).resolves.toBe(false);
    }
  });
});

describe('Login renews a hash made at older parameters', () => {
  it('rehashes at the current parameters on a successful login, and the new hash works', async () => {
    const storage = createMemoryStorage();
    const before = await buildTestUseCases({ storage, hasher: new ScryptPasswordHasher(OLDER) });
    const email = uniqueEmail();
    await before.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Old hashes' });
    const stale = (await storage.repos.users.findByEmail(email))!.passwordHash;

    const after = await buildTestUseCases({ storage });
    await expect(after.useCases.login.execute({ email, password: 'wrong password!' })).rejects.toThrow();
    expect((await storage.repos.users.findByEmail(email))!.passwordHash).toBe(stale);

    await after.useCases.login.execute({ email, password: PASSWORD });
    const renewed = (await storage.repos.users.findByEmail(email))!.passwordHash;
    expect(renewed).toMatch(new RegExp(`^scrypt\\$${FAST_SCRYPT.N}\\$${FAST_SCRYPT.r}\\$${FAST_SCRYPT.p}\\$`));
    await expect(after.useCases.login.execute({ email, password: PASSWORD })).resolves.toHaveProperty('token');
  });
});
