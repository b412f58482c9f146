import { VerdictCache, type Verdict } from '../../packages/client/src/verdict-cache';

function verdict(userId: string, keyId?: string, staleAtMs = Number.POSITIVE_INFINITY, sessionId?: string): Verdict {
  return { principal: { tenantId: 't', userId, role: 'member', method: keyId ? 'api_key' : 'jwt', amr: keyId ? ['api_key'] : ['pwd'] }, staleAtMs, keyId, sessionId };
}

function trusted(size: number): VerdictCache {
  const cache = new VerdictCache(size);
  cache.trust(0);
  return cache;
}

describe('the client library\'s verdict cache', () => {
  it('keeps nothing until the feed is trusted, and forgets everything when it is not', () => {
    const cache = new VerdictCache(10);
    cache.set('token', 'a', verdict('u1'), cache.generation, 0);
    expect(cache.get('token', 'a', 0)).toBeUndefined();
    cache.trust(0);
    cache.set('token', 'a', verdict('u1'), cache.generation, 0);
    expect(cache.get('token', 'a', 0)?.principal.userId).toBe('u1');
    cache.distrust();
    expect(cache.get('token', 'a', 0)).toBeUndefined();
  });

  it('keeps tokens and API keys apart: the same text is two different credentials', () => {
    const cache = trusted(10);
    cache.set('api_key', 'pcls_same', verdict('owner', 'k1'), cache.generation, 0);
    expect(cache.get('token', 'pcls_same', 0)).toBeUndefined();
    expect(cache.get('api_key', 'pcls_same', 0)?.keyId).toBe('k1');
  });

  it('does not store an answer whose lookup began before a change', () => {
    const cache = trusted(10);
    const before = cache.generation;
    cache.forgetUser('someone');
    cache.set('token', 'a', verdict('u1'), before, 0);
    expect(cache.get('token', 'a', 0)).toBeUndefined();
  });

  it('forgets a user\'s tokens and keys, or one key, and nothing else', () => {
    const cache = trusted(10);
    cache.set('token', 't1', verdict('u1'), cache.generation, 0);
    cache.set('api_key', 'k1', verdict('u1', 'key-1'), cache.generation, 0);
    cache.set('api_key', 'k2', verdict('u2', 'key-2'), cache.generation, 0);
    cache.set('api_key', 'k3', verdict('u2', 'key-3'), cache.generation, 0);
    cache.forgetUser('u1');
    cache.forgetKey('key-2');
    expect([cache.get('token', 't1', 0), cache.get('api_key', 'k1', 0), cache.get('api_key', 'k2', 0)]).toEqual([undefined, undefined, undefined]);
    expect(cache.get('api_key', 'k3', 0)?.keyId).toBe('key-3');
  });

  it('forgets the tokens of an ended session, and keeps the same member\'s other sessions and keys', () => {
    const cache = trusted(10);
    cache.set('token', 'laptop', verdict('u1', undefined, Number.POSITIVE_INFINITY, 's1'), cache.generation, 0);
    cache.set('token', 'laptop-renewed', verdict('u1', undefined, Number.POSITIVE_INFINITY, 's1'), cache.generation, 0);
    cache.set('token', 'phone', verdict('u1', undefined, Number.POSITIVE_INFINITY, 's2'), cache.generation, 0);
    cache.set('api_key', 'k1', verdict('u1', 'key-1'), cache.generation, 0);
    const before = cache.generation;
    cache.forgetSession('s1');
    expect([cache.get('token', 'laptop', 0), cache.get('token', 'laptop-renewed', 0)]).toEqual([undefined, undefined]);
    expect(cache.get('token', 'phone', 0)?.sessionId).toBe('s2');
    expect(cache.get('api_key', 'k1', 0)?.keyId).toBe('key-1');
    expect(cache.generation).not.toBe(before); // a lookup under way when the session ended does not put its token back
  });

  it('keeps no answer given at a change position before one heard on the feed', () => {
    const cache = new VerdictCache(10);
    cache.trust(7);
    cache.set('token', 'a', verdict('u1'), cache.generation, 6);
    expect(cache.get('token', 'a', 0)).toBeUndefined();
    cache.set('token', 'a', verdict('u1'), cache.generation, 7);
    expect(cache.get('token', 'a', 0)).toBeDefined();

    cache.heard(9);
    cache.set('token', 'b', verdict('u2'), cache.generation, 8);
    expect(cache.get('token', 'b', 0)).toBeUndefined();
    expect(cache.seen).toBe(9);
  });

  it('a feed that comes back from an instance further behind does not lower what answers must reach', () => {
    const cache = new VerdictCache(10);
    cache.trust(5);
    cache.heard(12);
    cache.distrust();
    cache.trust(10);
    expect(cache.seen).toBe(12);
    cache.set('token', 'a', verdict('u1'), cache.generation, 11);
    expect(cache.get('token', 'a', 0)).toBeUndefined();
    // Portcullis read its log and holds nothing as late as 12: a restored database, believed from 3 on.
    cache.unheard(12, 3);
    expect(cache.seen).toBe(3);
    cache.unheard(12, 1); // an older question answered late changes nothing
    expect(cache.seen).toBe(3);
  });

  it('refuses a remembered credential from its expiry on', () => {
    const cache = trusted(10);
    cache.set('api_key', 'k', verdict('u', 'key', 1_000), cache.generation, 0);
    expect(cache.get('api_key', 'k', 999)).toBeDefined();
    expect(cache.get('api_key', 'k', 1_000)).toBeUndefined();
  });

  it('stays within its size, and what is in use survives while the unused go', () => {
    const cache = trusted(100);
    cache.set('token', 'hot', verdict('hot'), cache.generation, 0);
    for (let i = 0; i < 1_000; i += 1) {
      cache.set('token', `cold-${i}`, verdict(`cold-${i}`), cache.generation, 0);
      expect(cache.get('token', 'hot', 0)).toBeDefined(); // used between every two others
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.get('token', 'cold-0', 0)).toBeUndefined();
    expect(cache.get('token', 'cold-999', 0)).toBeDefined();
  });

  it('keeps at least the most recent half of its size', () => {
    const cache = trusted(100);
    for (let i = 0; i < 1_000; i += 1) cache.set('token', `c-${i}`, verdict(`c-${i}`), cache.generation, 0);
    for (let i = 950; i < 1_000; i += 1) expect(cache.get('token', `c-${i}`, 0)).toBeDefined();
  });
});
