import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { CachedCredentialStates } from '../../src/adapters/cache/cached-credential-states';
import type { UserAuthState } from '../../src/application/ports/repositories';
import { InvalidApiKey, InvalidToken } from '../../src/domain/errors';
import { buildTestUseCases, TEST_JWT_SECRET, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

async function owner() {
  const built = await buildTestUseCases();
  const { credentials } = built.assembly.feed;
  const email = uniqueEmail();
  const { token, tenantId } = await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Cache' });
  const userId = built.services.tokens.verify(token)!.userId;
  const bearer = (t: string) => built.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${t}` });
  return { ...built, credentials, email, token, tenantId, userId, bearer };
}

describe('the credential check on every request', () => {
  it('answers from memory once a member has been seen, until told to forget', async () => {
    const { storage, credentials, tenantId, userId } = await owner();
    // A second cache over the same storage that nobody tells of changes.
    const untold = new CachedCredentialStates(storage.repos);
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'owner', authVersion: 0 });
    expect(await credentials.user(tenantId, userId)).toMatchObject({ role: 'owner', authVersion: 0 });

    await storage.repos.users.changeRole(tenantId, userId, 'viewer');
    // The wired cache was told by the unit of work that committed the change; the other still answers from memory.
    expect(await credentials.user(tenantId, userId)).toMatchObject({ role: 'viewer', authVersion: 1 });
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'owner', authVersion: 0 });

    untold.forget({ kind: 'user', userId });
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'viewer', authVersion: 1 });
  });

  it('told that everything changed (one unit of work changed more than it lists), answers nothing from memory', async () => {
    const { storage, tenantId, userId, token, services } = await owner();
    const sessionId = services.tokens.verify(token)!.sessionId!;
    const untold = new CachedCredentialStates(storage.repos);
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'owner' });
    expect(await untold.session(tenantId, sessionId)).toMatchObject({ sessionId });

    await storage.repos.users.changeRole(tenantId, userId, 'viewer');
    await storage.unitOfWork.run((tx) => tx.sessions.end(tenantId, userId, sessionId, { at: new Date(), by: userId, reason: 'logout' }));
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'owner' });

    untold.forget({ kind: 'everything' });
    expect(await untold.user(tenantId, userId)).toMatchObject({ role: 'viewer' });
    expect(await untold.session(tenantId, sessionId)).toBeNull();
  });

  it('answers a live session from memory once seen, until its end is forgotten; a fresh read goes to storage (V7.4.1)', async () => {
    const { storage, credentials, tenantId, userId, token, services } = await owner();
    const sessionId = services.tokens.verify(token)!.sessionId!;
    const untold = new CachedCredentialStates(storage.repos);
    expect(await untold.session(tenantId, sessionId)).toMatchObject({ sessionId, userId });
    expect(await credentials.session(tenantId, sessionId)).toMatchObject({ sessionId, userId });
    expect(await untold.session(randomUUID(), sessionId)).toBeNull();

    await storage.unitOfWork.run((tx) => tx.sessions.end(tenantId, userId, sessionId, { at: new Date(), by: userId, reason: 'logout' }));
    // The wired cache was told by the unit of work; the other answers from memory until told, or asked fresh.
    expect(await credentials.session(tenantId, sessionId)).toBeNull();
    expect(await untold.session(tenantId, sessionId)).toMatchObject({ sessionId });
    expect(await untold.session(tenantId, sessionId, true)).toBeNull();
    expect(await untold.session(tenantId, sessionId)).toBeNull();
  });

  it('does not keep a state it loaded while a change was being forgotten', async () => {
    const { tenantId, userId } = await owner();
    let release!: () => void;
    let loads = 0;
    const stale: UserAuthState = { tenantId, userId, role: 'owner', authVersion: 0 };
    const slow = new CachedCredentialStates({
      users: { findAuthState: async () => { loads += 1; if (loads === 1) await new Promise<void>((r) => { release = r; }); return stale; } },
      apiKeys: { findActiveByHash: async () => null },
      sessions: { findLive: async () => null },
    });

    const racing = slow.user(tenantId, userId);
    await new Promise((resolve) => setImmediate(resolve));
    slow.forget({ kind: 'user', userId }); // the change commits while the old state is on its way
    release();
    await racing;
    await slow.user(tenantId, userId);
    expect(loads).toBe(2);
  });

  it('keeps nothing while suspended, and starts from nothing when resumed', async () => {
    const { storage, credentials, tenantId, userId } = await owner();
    credentials.suspend();
    expect(await credentials.user(tenantId, userId)).toMatchObject({ role: 'owner' });
    await storage.repos.users.changeRole(tenantId, userId, 'admin');
    expect(await credentials.user(tenantId, userId)).toMatchObject({ role: 'admin' });

    credentials.resume();
    expect(await credentials.user(tenantId, userId)).toMatchObject({ role: 'admin' });
  });

  it("refuses a signed token whose tenant and user do not exist (or do not go together)", async () => {
    const { bearer, tenantId, userId } = await owner();
    const sign = (claims: object) => jwt.sign({ email: 'x@example.com', role: 'owner', authVersion: 0, ...claims }, TEST_JWT_SECRET, {
      algorithm: 'HS256', expiresIn: '1h',
    });
    for (const claims of [
      { tenantId: randomUUID(), userId: randomUUID() },
      { tenantId: randomUUID(), userId },
      { tenantId, userId: randomUUID() },
      { tenantId: 'not-a-uuid', userId },
    ]) {
      await expect(bearer(sign(claims))).rejects.toBeInstanceOf(InvalidToken);
    }
  });

  it('accepts a token issued before tokens carried a version until the first change, then refuses it', async () => {
    const { useCases, bearer, tenantId, userId, email } = await owner();
    const legacy = jwt.sign({ tenantId, userId, email, role: 'owner' }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
    await expect(bearer(legacy)).resolves.toMatchObject({ userId, role: 'owner' });

    await useCases.changePassword.execute({ tenantId, userId, role: 'owner', method: 'jwt' }, {
      currentPassword: PASSWORD, newPassword: 'another passphrase',
    });
    await expect(bearer(legacy)).rejects.toBeInstanceOf(InvalidToken);
  });

  it('refuses a token whose version is ahead of the stored one (it was never issued)', async () => {
    const { bearer, tenantId, userId, email } = await owner();
    const ahead = jwt.sign({ tenantId, userId, email, role: 'owner', authVersion: 5 }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
    await expect(bearer(ahead)).rejects.toBeInstanceOf(InvalidToken);
  });

  it("refuses a key whose owner is gone, even while the key is held in memory", async () => {
    const { useCases, storage, credentials, tenantId, userId } = await owner();
    const key = await useCases.createApiKey.execute({ tenantId, userId, role: 'owner', method: 'jwt' });
    await useCases.authenticate.execute({ apiKey: key.apiKey, authorization: undefined });

    await storage.repos.users.markRemoved(tenantId, userId, new Date());
    credentials.forget({ kind: 'user', userId });
    await expect(useCases.authenticate.execute({ apiKey: key.apiKey, authorization: undefined })).rejects.toBeInstanceOf(InvalidApiKey);
  });
});
