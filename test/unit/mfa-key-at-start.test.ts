import { randomUUID } from 'node:crypto';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { StartRefused } from '../../src/bootstrap/start-refused';
import { SecondFactorsNotConfigured } from '../../src/domain/errors';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery staple';

// docs/operations.md, MFA_ENCRYPTION_KEY: in production the key is required once an authenticator app exists.
describe('MFA_ENCRYPTION_KEY at start, in production', () => {
  const production = testConfig({}, { nodeEnv: 'production', mfaEncryptionKey: undefined });

  it('without the key and with no authenticator app stored: the service starts with second factors off', async () => {
    const assembly = await assembleForTest({}, production);
    try {
      const signup = await assembly.useCases.signup.execute({ email: uniqueEmail('owner'), password: PASSWORD, tenantName: 'Acme' });
      const owner = await assembly.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${signup.token}` });
      await expect(assembly.useCases.enrollAuthenticatorApp.execute(owner)).rejects.toBeInstanceOf(SecondFactorsNotConfigured);
    } finally {
      await assembly.close();
    }
  });

  it('without the key once an authenticator app is stored, in any tenant: the service refuses to start, naming the key', async () => {
    const storage = createMemoryStorage();
    await storage.repos.totpFactors.create({
      id: randomUUID(), tenantId: randomUUID(), userId: randomUUID(), secret: 'v1.sealed.elsewhere', createdAt: new Date(), confirmedAt: new Date(), lastUsedStep: null,
    });
    const refused = assembleForTest({ storage }, production);
    await expect(refused).rejects.toBeInstanceOf(StartRefused);
    await expect(refused).rejects.toThrow(/MFA_ENCRYPTION_KEY is not set, and members have authenticator apps/);
  });
});
