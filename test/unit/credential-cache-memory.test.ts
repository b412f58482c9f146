import { createHash, randomUUID } from 'node:crypto';
import { CachedCredentialStates, type CredentialSource, KEY_ENTRY_BYTES, MEMBER_ENTRY_BYTES } from '../../src/adapters/cache/cached-credential-states';
import type { ActiveApiKey } from '../../src/application/ports/repositories';

const TENANT = randomUUID();
const OWNER = randomUUID();
const PREFIX = 'pcls_00000000';

function hashOf(n: number): string {
  return createHash('sha256').update(`key ${n}`).digest('hex');
}

/** A storage with `keys` keys of one owner and `members` members, counting every lookup it answers. */
function countingSource(keys: number, members: readonly string[] = []) {
  const known = new Map(Array.from({ length: keys }, (_, n) => [hashOf(n), randomUUID()] as const));
  const lookups = { keys: 0, members: 0 };
  const source: CredentialSource = {
    sessions: { findLive: async () => null },
    apiKeys: {
      findActiveByHash: async (_prefix, hash): Promise<ActiveApiKey | null> => {
        lookups.keys += 1;
        const keyId = known.get(hash);
        if (!keyId) return null;
        return { keyId, tenantId: TENANT, userId: OWNER, expiresAt: null, owner: { tenantId: TENANT, userId: OWNER, role: 'owner', authVersion: 0 } };
      },
    },
    users: {
      findAuthState: async (tenantId, userId) => {
        lookups.members += 1;
        return userId === OWNER || members.includes(userId) ? { tenantId, userId, role: 'member' as const, authVersion: 0 } : null;
      },
    },
  };
  return { source, lookups, keyIdOf: (n: number) => known.get(hashOf(n))! };
}

describe('the credential cache, bounded by memory', () => {
  it('holds members and keys within its budget, dropping the least recently used first', async () => {
    const { source, lookups } = countingSource(30);
    // Room for the owner and ten keys, no more.
    const cache = new CachedCredentialStates(source, { memoryBytes: MEMBER_ENTRY_BYTES + 10 * KEY_ENTRY_BYTES, ttlMs: 600_000 });
    for (let n = 0; n < 30; n++) await cache.apiKey(PREFIX, hashOf(n));
    expect(cache.size.bytes).toBeLessThanOrEqual(MEMBER_ENTRY_BYTES + 10 * KEY_ENTRY_BYTES);
    expect(cache.size.entries).toBe(11);
    expect(lookups.keys).toBe(30);

    // The ten most recent are answered from memory, and so is their owner (kept fresh by every key).
    for (let n = 20; n < 30; n++) await cache.apiKey(PREFIX, hashOf(n));
    await cache.user(TENANT, OWNER);
    expect(lookups).toEqual({ keys: 30, members: 0 });
    // The first ones were let go.
    await cache.apiKey(PREFIX, hashOf(0));
    expect(lookups.keys).toBe(31);
  });

  it('shares one budget between members and keys', async () => {
    const members = Array.from({ length: 20 }, () => randomUUID());
    const { source } = countingSource(20, members);
    const budget = 8 * KEY_ENTRY_BYTES + 8 * MEMBER_ENTRY_BYTES;
    const cache = new CachedCredentialStates(source, { memoryBytes: budget, ttlMs: 600_000 });
    for (let n = 0; n < 20; n++) {
      await cache.apiKey(PREFIX, hashOf(n));
      await cache.user(TENANT, members[n]!);
    }
    expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    expect(cache.size.bytes).toBeGreaterThan(budget - KEY_ENTRY_BYTES);
  });

  it('neither remembers unknown keys nor lets a flood of them push out the keys in use', async () => {
    const { source, lookups } = countingSource(5);
    const cache = new CachedCredentialStates(source, { memoryBytes: MEMBER_ENTRY_BYTES + 5 * KEY_ENTRY_BYTES, ttlMs: 600_000 });
    for (let n = 0; n < 5; n++) await cache.apiKey(PREFIX, hashOf(n));

    for (let round = 0; round < 2; round++) {
      for (let n = 1000; n < 2000; n++) expect(await cache.apiKey(PREFIX, hashOf(n))).toBeNull();
    }
    expect(lookups.keys).toBe(5 + 2000); // every unknown key asked the storage, both times

    for (let n = 0; n < 5; n++) expect(await cache.apiKey(PREFIX, hashOf(n))).not.toBeNull();
    expect(lookups.keys).toBe(2005);
  });

  it('forgets a revoked key by its id, also one pushed out and loaded again since', async () => {
    const { source, lookups, keyIdOf } = countingSource(3);
    const cache = new CachedCredentialStates(source, { memoryBytes: MEMBER_ENTRY_BYTES + 2 * KEY_ENTRY_BYTES, ttlMs: 600_000 });
    for (let n = 0; n < 3; n++) await cache.apiKey(PREFIX, hashOf(n)); // key 0 is pushed out by key 2
    await cache.apiKey(PREFIX, hashOf(0)); // and comes back, pushing out key 1
    expect(lookups.keys).toBe(4);

    cache.forget({ kind: 'api-key', keyId: keyIdOf(0) });
    await cache.apiKey(PREFIX, hashOf(0));
    expect(lookups.keys).toBe(5);
    cache.forget({ kind: 'api-key', keyId: keyIdOf(1) }); // not held: nothing else is dropped
    await cache.apiKey(PREFIX, hashOf(0));
    await cache.apiKey(PREFIX, hashOf(2));
    expect(lookups.keys).toBe(5);
  });

  it('keeps an entry no longer than its time to live, the fallback should an announcement be lost', async () => {
    const { source, lookups } = countingSource(1);
    let now = 1_000;
    const cache = new CachedCredentialStates(source, { memoryBytes: 2 ** 20, ttlMs: 600_000, now: () => now });
    await cache.apiKey(PREFIX, hashOf(0));
    now += 599_000;
    await cache.apiKey(PREFIX, hashOf(0));
    await cache.user(TENANT, OWNER);
    expect(lookups).toEqual({ keys: 1, members: 0 });

    now += 2_000;
    await cache.apiKey(PREFIX, hashOf(0));
    expect(lookups.keys).toBe(2);
  });
});
