import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import { request } from '../support/contract-request';
import type { LoginFailurePolicy } from '../../src/application/ports/login-throttle';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { RedisLoginThrottle } from '../../src/adapters/rate-limit/redis-login-throttle';
import { redisRateLimitStores } from '../../src/adapters/rate-limit/redis-rate-limit-store';
import { closeRedis } from '../../src/bootstrap/redis';
import { buildTestApp, expectTooManyRequests, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, PASSWORD, signupOwner } from '../support/http-fixtures';
import { loginThrottleContract } from '../support/login-throttle-contract';
import { connectTestRedis, deleteKeysUnder, describeIfRedis, keysUnder, uniqueRedisPrefix } from '../support/redis';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describeIfRedis('RedisLoginThrottle', (url) => {
  let client: Redis;
  const clients: Redis[] = [];
  const prefixes: string[] = [];
  const newPrefix = (label: string) => {
    const prefix = uniqueRedisPrefix(label);
    prefixes.push(prefix);
    return prefix;
  };

  beforeAll(async () => {
    client = (await connectTestRedis(url)).client;
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysUnder(client, prefix);
    await Promise.all([...clients, client].map(closeRedis));
  });

  describe('the LoginThrottle contract', () => {
    loginThrottleContract(() => {
      const keyPrefix = newPrefix('throttle-contract');
      return {
        make: (policy: LoginFailurePolicy) => new RedisLoginThrottle(client, { keyPrefix, ...policy }),
        advanceSeconds: (seconds) => sleep(seconds * 1000),
      };
    });
  });

  it("stores only a hash of the normalised e-mail (and the client's address), with the window as expiry; a success forgets the address's count", async () => {
    const keyPrefix = newPrefix('throttle-keys');
    const { app } = await buildTestApp({}, { loginThrottle: new RedisLoginThrottle(client, { keyPrefix, limit: 10, accountLimit: 100, windowSeconds: 900 }) });
    const owner = await signupOwner(app);
    await request(app).post(`${AUTH}/login`).send({ email: owner.email.toUpperCase(), password: 'wrong password' }).expect(401);
    await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: 'wrong password' }).expect(401);

    const overall = `${keyPrefix}login-failures:{${sha256(owner.email.toLowerCase())}}`;
    const fromClient = `${overall}:127.0.0.1`;
    expect((await keysUnder(client, keyPrefix)).sort()).toEqual([overall, fromClient]);
    for (const key of [overall, fromClient]) {
      expect(await client.get(key)).toBe('2');
      const ttl = await client.pttl(key);
      expect(ttl).toBeGreaterThan(890_000);
      expect(ttl).toBeLessThanOrEqual(900_000);
    }

    // The success forgets this address's failures and takes itself back from the overall count,
    // where the two failures stay until the window ends.
    await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD }).expect(200);
    expect(await keysUnder(client, keyPrefix)).toEqual([overall]);
    expect(await client.get(overall)).toBe('2');
    expect(await client.pttl(overall)).toBeGreaterThan(880_000);
  });

  describe('shared by two instances', () => {
    const POLICY = { limit: 2, accountLimit: 4, windowSeconds: 900 };
    let address = 0;
    const loginFromNewAddress = (app: RequestListener, email: string, password: string) => {
      address += 1;
      return request(app).post(`${AUTH}/login`).set('X-Forwarded-For', `198.18.${address >> 8 & 255}.${address & 255}`).send({ email, password });
    };

    /** Two instances on one database (shared memory storage) and one Redis, each with its own connection. */
    async function twoInstances(): Promise<{ a: RequestListener; b: RequestListener }> {
      const keyPrefix = newPrefix('throttle-shared');
      const storage = createMemoryStorage();
      const apps: RequestListener[] = [];
      for (let i = 0; i < 2; i += 1) {
        const { client: own } = await connectTestRedis(url);
        clients.push(own);
        const loginThrottle = new RedisLoginThrottle(own, { keyPrefix, ...POLICY });
        const built = await buildTestApp(
          { trustProxy: 1, rateLimits: SPEC_RATE_LIMITS, rateLimitStore: redisRateLimitStores(own, keyPrefix) },
          { storage, loginThrottle },
        );
        apps.push(built.app);
      }
      return { a: apps[0]!, b: apps[1]! };
    }

    it("counts one address's failures on either instance together, and leaves another address free", async () => {
      const { a, b } = await twoInstances();
      const owner = await signupOwner(a);
      const from = (app: RequestListener, address: string, password: string) =>
        request(app).post(`${AUTH}/login`).set('X-Forwarded-For', address).send({ email: owner.email, password });
      expect((await from(a, '203.0.113.66', 'wrong password')).status).toBe(401);
      expect((await from(b, '203.0.113.66', 'wrong password')).status).toBe(401);
      expectTooManyRequests(await from(a, '203.0.113.66', PASSWORD), { maxSeconds: 900 });
      expect((await from(b, '192.0.2.10', PASSWORD)).status).toBe(200);
    });

    it('counts failures from many addresses on either instance against one ceiling, and then refuses the right password on both', async () => {
      const { a, b } = await twoInstances();
      const owner = await signupOwner(a);
      for (let i = 0; i < POLICY.accountLimit; i += 1) {
        expect((await loginFromNewAddress(i % 2 === 0 ? a : b, owner.email, 'wrong password')).status).toBe(401);
      }
      expectTooManyRequests(await loginFromNewAddress(b, owner.email, PASSWORD), { maxSeconds: 900 });
      expectTooManyRequests(await loginFromNewAddress(a, owner.email, PASSWORD), { maxSeconds: 900 });
    });

    it('lets exactly the ceiling of a parallel burst of guesses through, spread over addresses and instances', async () => {
      const { a, b } = await twoInstances();
      const owner = await signupOwner(b);
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => loginFromNewAddress(i % 2 === 0 ? a : b, owner.email, 'wrong password')));
      expect(burst.filter((r) => r.status === 401)).toHaveLength(POLICY.accountLimit);
      expect(burst.filter((r) => r.status === 429)).toHaveLength(30 - POLICY.accountLimit);
    });
  });
});
