import net from 'node:net';
import { MemoryStore, type IncrementResponse, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { request } from '../support/contract-request';
import { LoginThrottleUnavailable, type LoginThrottle } from '../../src/application/ports/login-throttle';
import { ServiceUnavailable } from '../../src/adapters/http/errors/http-error';
import { RedisLoginThrottle } from '../../src/adapters/rate-limit/redis-login-throttle';
import { redisRateLimitStores } from '../../src/adapters/rate-limit/redis-rate-limit-store';
import { createRedisClient } from '../../src/bootstrap/redis';
import { buildTestApp, expectServiceUnavailable, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

/** A store whose every call fails, as a Redis store does when Redis is gone. */
class BrokenStore implements Store {
  readonly failure = new Error('connect ECONNREFUSED 10.0.0.9:6379');
  increment(): Promise<IncrementResponse> { return Promise.reject(this.failure); }
  decrement(): Promise<void> { return Promise.reject(this.failure); }
  resetKey(): Promise<void> { return Promise.reject(this.failure); }
}

/** A store that answers, but nonsense: a count the library would compare as NaN > limit, i.e. a pass. */
class NonsenseStore implements Store {
  increment(): Promise<IncrementResponse> { return Promise.resolve({ totalHits: Number.NaN, resetTime: undefined }); }
  decrement(): void {}
  resetKey(): void {}
}

const login = (app: Parameters<typeof request>[0]) => request(app).post(`${AUTH}/login`).send({ email: uniqueEmail(), password: PASSWORD });

describe('A rate-limit store that fails', () => {
  it('refuses every counted request with 503 and Retry-After, and logs the cause', async () => {
    const broken: BrokenStore[] = [];
    const { app, logged } = await buildTestApp({
      rateLimits: SPEC_RATE_LIMITS,
      rateLimitStore: () => { const store = new BrokenStore(); broken.push(store); return store; },
    });
    for (const res of [await login(app), await request(app).get(`${AUTH}/me`), await request(app).get('/nowhere')]) {
      expectServiceUnavailable(res);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.text).not.toContain('ECONNREFUSED');
    }
    await request(app).get('/healthz').expect(200); // not counted, so not refused
    expect(logged).toHaveLength(3);
    expect(logged[0]).toBeInstanceOf(ServiceUnavailable);
    expect((logged[0] as Error).cause).toBe(broken[0]!.failure);
  });

  it('refuses only what the failing limiter guards: a broken login store leaves other routes alone', async () => {
    const { app } = await buildTestApp({
      rateLimits: SPEC_RATE_LIMITS,
      rateLimitStore: (limiter) => (limiter === 'login' ? new BrokenStore() : new MemoryStore()),
    });
    expectServiceUnavailable(await login(app));
    await request(app).get(`${AUTH}/me`).expect(401);
    await signupOwner(app);
  });

  it('refuses when the store answers with an unusable count rather than letting the request through', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS, rateLimitStore: () => new NonsenseStore() });
    expectServiceUnavailable(await login(app));
  });

  it('answers a login 503 when the per-account throttle is down, even with the right password', async () => {
    const down: LoginThrottle = {
      recordAttempt: () => Promise.reject(new LoginThrottleUnavailable(new Error('READONLY'))),
      recordSuccess: () => Promise.reject(new LoginThrottleUnavailable(new Error('READONLY'))),
    };
    const { app: signupApp, storage } = await buildTestApp();
    const owner = await signupOwner(signupApp);
    const { app, logged } = await buildTestApp({}, { storage, loginThrottle: down });
    const res = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
    expectServiceUnavailable(res);
    expect(logged).toEqual([expect.any(LoginThrottleUnavailable)]);
  });

  describe('a real Redis client whose server is gone', () => {
    let client: Redis;
    const clientErrors: Error[] = [];

    beforeAll(async () => {
      // A port that was free a moment ago: connections to it are refused.
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      await new Promise((resolve) => server.close(resolve));
      // disconnectTimeout: ioredis arms a timer of that length on disconnect even when the socket has
      // already closed (as a refused one has); at the default 2 s it would hold Jest open.
      client = createRedisClient(`redis://127.0.0.1:${port}`, (error) => clientErrors.push(error), { disconnectTimeout: 20 });
    });

    afterAll(() => {
      client.disconnect();
    });

    it('answers 503 quickly, from the limiters and from the login throttle', async () => {
      const { app } = await buildTestApp({ rateLimitStore: redisRateLimitStores(client, 'portcullis-test:dead:') });
      const started = Date.now();
      expectServiceUnavailable(await login(app));
      expectServiceUnavailable(await request(app).get(`${AUTH}/me`));
      expect(Date.now() - started).toBeLessThan(5_000);

      const throttle = new RedisLoginThrottle(client, { keyPrefix: 'portcullis-test:dead:', limit: 10, accountLimit: 100, windowSeconds: 900 });
      const { app: throttled } = await buildTestApp({}, { loginThrottle: throttle });
      expectServiceUnavailable(await login(throttled));
      expect(clientErrors.length).toBeGreaterThan(0); // reported to the error handler, not printed by ioredis
    });
  });
});
