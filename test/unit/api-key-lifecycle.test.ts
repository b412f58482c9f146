import { randomUUID } from 'node:crypto';
import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { ApiKeyNotFound, InsufficientRole, InvalidApiKey } from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestUseCases, type TestUseCasesOptions, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';
const DAY_S = 86_400;

async function tenantWithOwner(options: TestUseCasesOptions = {}) {
  const built = await buildTestUseCases(options);
  const signup = await built.useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, tenantName: 'Keys' });
  const claims = built.services.tokens.verify(signup.token)!;
  const owner: Principal = { tenantId: claims.tenantId, userId: claims.userId, role: 'owner', method: 'jwt' };
  const useKey = (apiKey: string) => built.useCases.authenticate.execute({ apiKey, authorization: undefined });
  return { ...built, owner, useKey };
}

describe('API keys over their life', () => {
  it('creates a named key with an expiry; without either, an unnamed key that never expires', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
    const { useCases, owner } = await tenantWithOwner({ clock });

    const named = await useCases.createApiKey.execute(owner, { name: 'CI deploy', expiresInDays: 30 });
    expect(named).toMatchObject({ name: 'CI deploy', expiresAt: new Date('2030-01-31T00:00:00Z'), id: expect.any(String) });
    const plain = await useCases.createApiKey.execute(owner);
    expect(plain).toMatchObject({ name: null, expiresAt: null });
  });

  it('lists the tenant\'s keys newest first, revoked ones included, without their hashes', async () => {
    const clock = new TestClock();
    const { useCases, owner } = await tenantWithOwner({ clock });
    const other = await tenantWithOwner();
    const first = await useCases.createApiKey.execute(owner, { name: 'first' });
    clock.advance({ seconds: 1 });
    const second = await useCases.createApiKey.execute(owner);
    await other.useCases.createApiKey.execute(other.owner);
    await useCases.revokeApiKey.execute(owner, first.id);

    const listed = await useCases.listApiKeys.execute(owner);
    expect(listed.map((k) => [k.id, k.revoked])).toEqual([[second.id, false], [first.id, true]]);
    expect(listed[1]).toEqual({
      id: first.id, userId: owner.userId, keyPrefix: first.prefix, name: 'first', revoked: true,
      createdAt: expect.any(Date), expiresAt: null, lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(first.apiKey.slice(13));
  });

  it('refuses a revoked key on the very next request, even one this instance already holds in memory', async () => {
    const { useCases, owner, useKey } = await tenantWithOwner();
    const key = await useCases.createApiKey.execute(owner);
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ userId: owner.userId, role: 'owner' });

    await useCases.revokeApiKey.execute(owner, key.id.toUpperCase());
    await expect(useKey(key.apiKey)).rejects.toBeInstanceOf(InvalidApiKey);
    // Revoking again is not an error: the key exists, and is revoked.
    await expect(useCases.revokeApiKey.execute(owner, key.id)).resolves.toBeUndefined();
  });

  it("answers another tenant's, unknown and malformed ids with ApiKeyNotFound, and revokes nothing", async () => {
    const { useCases, owner, useKey } = await tenantWithOwner();
    const other = await tenantWithOwner();
    const key = await useCases.createApiKey.execute(owner);

    for (const id of [key.id, randomUUID(), 'not-a-uuid', '']) {
      await expect(other.useCases.revokeApiKey.execute(other.owner, id)).rejects.toBeInstanceOf(ApiKeyNotFound);
    }
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ userId: owner.userId });
  });

  it('lets only admins and owners list and revoke keys', async () => {
    const { useCases, owner } = await tenantWithOwner();
    const key = await useCases.createApiKey.execute(owner);
    for (const role of ['member', 'viewer']) {
      await expect(useCases.listApiKeys.execute({ ...owner, role })).rejects.toEqual(new InsufficientRole('admin'));
      await expect(useCases.revokeApiKey.execute({ ...owner, role }, key.id)).rejects.toEqual(new InsufficientRole('admin'));
    }
  });

  it('refuses a key from its expiry instant on, like an unknown key, even while held in memory', async () => {
    const clock = new TestClock();
    const { useCases, owner, useKey } = await tenantWithOwner({ clock });
    const key = await useCases.createApiKey.execute(owner, { expiresInDays: 1 });
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ method: 'api_key' });

    clock.advance({ seconds: DAY_S - 1 });
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ method: 'api_key' });
    clock.advance({ seconds: 1 });
    await expect(useKey(key.apiKey)).rejects.toBeInstanceOf(InvalidApiKey);
  });

  it('acts with the owner\'s current role, not the role the owner had when the key was made', async () => {
    const { useCases, owner, useKey } = await tenantWithOwner();
    const invite = await useCases.inviteUser.execute(owner, { email: uniqueEmail(), role: 'admin' });
    const joined = await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken });
    const adminId = (await useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${joined.token}` })).userId;
    const admin: Principal = { tenantId: owner.tenantId, userId: adminId, role: 'admin', method: 'jwt' };
    const key = await useCases.createApiKey.execute(admin);
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ role: 'admin' });

    await useCases.changeMemberRole.execute(owner, adminId, 'viewer');
    await expect(useKey(key.apiKey)).resolves.toMatchObject({ userId: adminId, role: 'viewer' });
  });

  it('writes last_used_at once the interval is over, after the request, with the latest use', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
    const built = await buildTestUseCases({ clock });
    const keyUsage = new BatchedApiKeyUsage(built.storage.repos.apiKeys, clock, (error) => { throw error; }, { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 100 });
    const { useCases, owner, useKey, storage } = await tenantWithOwner({ clock, storage: built.storage, keyUsage });
    const key = await useCases.createApiKey.execute(owner);
    const lastUsed = async () => (await storage.repos.apiKeys.listForTenant(owner.tenantId))[0]?.lastUsedAt;

    await useKey(key.apiKey);
    clock.advance({ seconds: 10 });
    await useKey(key.apiKey);
    await keyUsage.settled();
    expect(await lastUsed()).toBeNull();

    clock.advance({ seconds: 50 });
    const due = clock.now();
    await useKey(key.apiKey); // the interval is over: this use starts the batch's write
    expect(keyUsage.pendingKeys).toBe(0);
    await keyUsage.settled();
    expect(await lastUsed()).toEqual(due);
  });

  it('answers the request even when the last_used_at write fails, and reports the failure', async () => {
    const reported: unknown[] = [];
    const failing = { markUsed: async () => { throw new Error('database down'); } };
    const clock = new TestClock();
    const keyUsage = new BatchedApiKeyUsage(failing, clock, (error) => reported.push(error));
    const { useCases, owner, useKey } = await tenantWithOwner({ clock, keyUsage });
    const key = await useCases.createApiKey.execute(owner);

    await expect(useKey(key.apiKey)).resolves.toMatchObject({ method: 'api_key' });
    await keyUsage.flush();
    expect(reported).toEqual([new Error('database down')]);
  });
});
