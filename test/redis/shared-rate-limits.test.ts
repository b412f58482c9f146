import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import type { RateLimitConfig } from '../../src/adapters/http/middleware/rate-limits';
import { redisRateLimitStores } from '../../src/adapters/rate-limit/redis-rate-limit-store';
import { closeRedis } from '../../src/bootstrap/redis';
import { buildTestApp, expectTooManyRequests, sendSequentially, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, PASSWORD } from '../support/http-fixtures';
import { connectTestRedis, deleteKeysUnder, describeIfRedis, keysUnder, uniqueRedisPrefix } from '../support/redis';
import { uniqueEmail } from '../support/test-use-cases';

const login = (app: RequestListener) => request(app).post(`${AUTH}/login`).send({ email: uniqueEmail(), password: PASSWORD });
const signup = (app: RequestListener) => request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'T' });
const statuses = (responses: Response[]) => responses.map((r) => r.status);
const count = (responses: Response[], status: number) => responses.filter((r) => r.status === status).length;

describeIfRedis('Rate limits shared by instances through Redis', (url) => {
  let inspector: Redis;
  const clients: Redis[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    inspector = (await connectTestRedis(url)).client;
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysUnder(inspector, prefix);
    await Promise.all([...clients, inspector].map(closeRedis));
  });

  /**
   * Two app instances as two processes would be: each with its own Redis connection and its own
   * memory, sharing only Redis (under a prefix of this test's own, so tests never meet).
   */
  async function twoInstances(rateLimits: RateLimitConfig = SPEC_RATE_LIMITS): Promise<{ a: RequestListener; b: RequestListener; prefix: string }> {
    const prefix = uniqueRedisPrefix('rate-limits');
    prefixes.push(prefix);
    const apps: RequestListener[] = [];
    for (let i = 0; i < 2; i += 1) {
      const { client } = await connectTestRedis(url);
      clients.push(client);
      apps.push((await buildTestApp({ rateLimits, rateLimitStore: redisRateLimitStores(client, prefix) })).app);
    }
    return { a: apps[0]!, b: apps[1]!, prefix };
  }

  it('allows 5 logins a minute per client between two instances, not 5 each', async () => {
    const { a, b } = await twoInstances();
    const allowed = await sendSequentially(5, (i) => login(i % 2 === 0 ? a : b));
    expect(statuses(allowed)).toEqual([401, 401, 401, 401, 401]);
    expectTooManyRequests(await login(a), { policy: '5-in-1min' });
    expectTooManyRequests(await login(b), { policy: '5-in-1min' });
  });

  it('allows 3 signups a minute per client between two instances', async () => {
    const { a, b } = await twoInstances();
    const allowed = await sendSequentially(3, (i) => signup(i % 2 === 0 ? b : a));
    expect(statuses(allowed)).toEqual([201, 201, 201]);
    expectTooManyRequests(await signup(a), { policy: '3-in-1min' });
    expectTooManyRequests(await signup(b), { policy: '3-in-1min' });
  });

  it('lets exactly the limit through of a parallel burst of logins split over both instances', async () => {
    const { a, b } = await twoInstances();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(i % 2 === 0 ? a : b)));
    expect(count(burst, 401)).toBe(5);
    expect(count(burst, 429)).toBe(25);
  });

  it('lets exactly the limit through of a parallel burst of signups split over both instances', async () => {
    const { a, b } = await twoInstances();
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => signup(i % 2 === 0 ? a : b)));
    expect(count(burst, 201)).toBe(3);
    expect(count(burst, 429)).toBe(9);
  });

  it('shares the global limit too, over every route', async () => {
    const { a, b } = await twoInstances({ global: 4, login: 100, signup: 100 });
    await request(a).get(`${AUTH}/me`).expect(401);
    await request(b).get('/nowhere').expect(404);
    await login(a).expect(401);
    await request(b).get(`${AUTH}/me`).expect(401);
    expectTooManyRequests(await request(a).get(`${AUTH}/me`), { policy: '4-in-1min' });
    expectTooManyRequests(await login(b), { policy: '4-in-1min' });
  });

  it('keeps one counter per limiter: logins spend the login and global budgets, never signup\'s', async () => {
    const { a, b, prefix } = await twoInstances();
    await sendSequentially(6, (i) => login(i % 2 === 0 ? a : b));
    expect((await signup(b)).status).toBe(201);

    const keys = await keysUnder(inspector, prefix);
    const limiters = new Set(keys.map((key) => key.slice(prefix.length).split(':').slice(0, 2).join(':')));
    expect([...limiters].sort()).toEqual(['rl:global', 'rl:login', 'rl:signup']);
    for (const key of keys) {
      const ttl = await inspector.pttl(key);
      expect(ttl).toBeGreaterThan(0); // every counter expires with its window
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    const loginKey = keys.find((key) => key.startsWith(`${prefix}rl:login:`))!;
    expect(Number(await inspector.get(loginKey))).toBe(6);
  });
});
