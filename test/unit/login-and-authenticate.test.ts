import jwt from 'jsonwebtoken';
import {
  InsufficientRole, InvalidApiKey, InvalidApiKeyFormat, InvalidCredentials, InvalidToken, MissingAuthentication,
} from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { buildTestUseCases, TEST_JWT_SECRET, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

async function ownerSetup() {
  const built = await buildTestUseCases();
  const email = uniqueEmail();
  const signup = await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Acme' });
  const claims = built.services.tokens.verify(signup.token)!;
  const owner: Principal = { tenantId: claims.tenantId, userId: claims.userId, role: claims.role, method: 'jwt', sessionId: claims.sessionId, amr: ['pwd'] };
  return { ...built, email, signup, owner };
}

describe('Login', () => {
  it('issues a token for the right password, e-mail matched case-insensitively', async () => {
    const { useCases, services, email, owner } = await ownerSetup();
    const result = await useCases.login.execute({ email: email.toUpperCase(), password: PASSWORD });
    expect(result.expiresIn).toBe('24h');
    expect(services.tokens.verify(result.token)).toMatchObject({ tenantId: owner.tenantId, userId: owner.userId, role: 'owner' });
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const { useCases, email } = await ownerSetup();
    await expect(useCases.login.execute({ email, password: 'wrong password' })).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(useCases.login.execute({ email: uniqueEmail('nobody'), password: PASSWORD }))
      .rejects.toBeInstanceOf(InvalidCredentials);
  });
});

describe('Authenticate', () => {
  it('accepts a valid bearer token and takes tenant, user and role from its claims', async () => {
    const { useCases, signup, owner } = await ownerSetup();
    const principal = await useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${signup.token}` });
    expect(principal).toEqual(owner);
  });

  it('refuses tokens that fail verification', async () => {
    const { useCases, owner } = await ownerSetup();
    const claims = { tenantId: owner.tenantId, userId: owner.userId, email: 'x@example.com', role: 'owner' };
    const bad = [
      'garbage',
      '',
      jwt.sign(claims, 'another secret of enough length!!', { algorithm: 'HS256', expiresIn: '1h' }),
      jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: '1h' }),
      jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256' }),
      jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256' }), // no expiry
      jwt.sign({ ...claims, tenantId: 42 }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' }),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
    ];
    for (const token of bad) {
      await expect(useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${token}` }))
        .rejects.toBeInstanceOf(InvalidToken);
    }
  });

  it('needs one of the two headers, and "Bearer " exactly', async () => {
    const { useCases, signup } = await ownerSetup();
    await expect(useCases.authenticate.execute({ apiKey: undefined, authorization: undefined }))
      .rejects.toBeInstanceOf(MissingAuthentication);
    await expect(useCases.authenticate.execute({ apiKey: undefined, authorization: `bearer ${signup.token}` }))
      .rejects.toBeInstanceOf(MissingAuthentication);
    await expect(useCases.authenticate.execute({ apiKey: undefined, authorization: `Basic abc` }))
      .rejects.toBeInstanceOf(MissingAuthentication);
  });

  it('uses an API key alone when present: the key acts as its creator with the current role', async () => {
    const { useCases, owner } = await ownerSetup();
    const created = await useCases.createApiKey.execute(owner);
    expect(created.apiKey).toMatch(/^pcls_[0-9a-f]{32}$/);
    expect(created.prefix).toBe(created.apiKey.slice(0, 13));
    const principal = await useCases.authenticate.execute({ apiKey: created.apiKey, authorization: 'Bearer garbage' });
    expect(principal).toEqual({ tenantId: owner.tenantId, userId: owner.userId, role: owner.role, method: 'api_key', amr: ['api_key'] });
  });

  it('refuses malformed and unknown keys with their own errors, even beside a valid token', async () => {
    const { useCases, signup } = await ownerSetup();
    const authorization = `Bearer ${signup.token}`;
    for (const apiKey of ['', 'pcls_short', `xxxx_${'a'.repeat(32)}`, `pcls_${'a'.repeat(33)}`]) {
      await expect(useCases.authenticate.execute({ apiKey, authorization })).rejects.toBeInstanceOf(InvalidApiKeyFormat);
    }
    await expect(useCases.authenticate.execute({ apiKey: `pcls_${'a'.repeat(32)}`, authorization }))
      .rejects.toBeInstanceOf(InvalidApiKey);
    await expect(useCases.authenticate.execute({ apiKey: `pcls_${'Z'.repeat(32)}`, authorization }))
      .rejects.toBeInstanceOf(InvalidApiKey);
  });

  it('stores only the SHA-256 of a key', async () => {
    const { useCases, owner, storage, services } = await ownerSetup();
    const { apiKey } = await useCases.createApiKey.execute(owner);
    const found = await storage.repos.apiKeys.findActiveByHash(apiKey.slice(0, 13), services.secrets.sha256Hex(apiKey));
    expect(found?.userId).toBe(owner.userId);
  });
});

describe('role checks in the use-cases', () => {
  it('lets only admins and owners create keys and manage invites', async () => {
    const { useCases, owner } = await ownerSetup();
    for (const role of ['member', 'viewer', 'unknown']) {
      const caller = { ...owner, role };
      await expect(useCases.createApiKey.execute(caller)).rejects.toEqual(new InsufficientRole('admin'));
      await expect(useCases.inviteUser.execute(caller, { email: uniqueEmail() })).rejects.toBeInstanceOf(InsufficientRole);
      await expect(useCases.listInvites.execute(caller)).rejects.toBeInstanceOf(InsufficientRole);
      await expect(useCases.revokeInvite.execute(caller, owner.userId)).rejects.toBeInstanceOf(InsufficientRole);
    }
    await expect(useCases.createApiKey.execute({ ...owner, role: 'admin' })).resolves.toHaveProperty('apiKey');
  });
});
