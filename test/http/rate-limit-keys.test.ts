import type { RequestListener } from 'node:http';
import { request } from '../support/contract-request';
import { buildTestApp, expectTooManyRequests, sendSequentially, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, PASSWORD } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

const loginAt = (app: RequestListener, path: string) => request(app).post(path).send({ email: uniqueEmail(), password: PASSWORD });

describe('What a rate limit counts', () => {
  describe('by route, not by the spelling of its URL', () => {
    it('counts /login, /login/, /LOGIN and any query string in one login bucket', async () => {
      const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
      const spellings = [
        `${AUTH}/login`, `${AUTH}/login/`, `${AUTH.toUpperCase()}/LOGIN`, `${AUTH}/login?fresh=1`, `${AUTH}/Login/?a=b&c`,
      ];
      const allowed = await sendSequentially(spellings.length, (i) => loginAt(app, spellings[i]!));
      expect(allowed.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
      expectTooManyRequests(await loginAt(app, `${AUTH}/login/?yet=another`), { policy: '5-in-1min' });
      expectTooManyRequests(await loginAt(app, `${AUTH}/login`), { policy: '5-in-1min' });
    });

    it('lets exactly the limit through of a parallel burst in one instance', async () => {
      const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => loginAt(app, i % 2 ? `${AUTH}/login/` : `${AUTH}/LOGIN?i=${i}`)));
      expect(burst.filter((r) => r.status === 401)).toHaveLength(5);
      expect(burst.filter((r) => r.status === 429)).toHaveLength(25);
    });

    it('does the same for signup', async () => {
      const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
      const spellings = [`${AUTH}/signup/`, `${AUTH}/SIGNUP?x=1`, `/API/v1/Auth/SignUp`];
      const signup = (path: string) => request(app).post(path).send({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'T' });
      const allowed = await sendSequentially(3, (i) => signup(spellings[i]!));
      expect(allowed.map((r) => r.status)).toEqual([201, 201, 201]);
      expectTooManyRequests(await signup(`${AUTH}/signup`), { policy: '3-in-1min' });
    });

    it('counts every route and spelling in one global bucket per client', async () => {
      const { app } = await buildTestApp({ rateLimits: { global: 3, login: 100, signup: 100 } });
      await request(app).get(`${AUTH}/me`).expect(401);
      await request(app).get(`${AUTH}/ME/?cache-buster=${Date.now()}`).expect(401);
      await request(app).get('/nowhere?x=1').expect(404);
      expectTooManyRequests(await request(app).get(`${AUTH}/me?another=1`), { policy: '3-in-1min' });
    });
  });

  describe('by client address, as RequestListener\'s trust proxy decides it', () => {
    // supertest connects from loopback: with `trustProxy: 1` that connection is the one trusted
    // proxy, and the client is the right-most X-Forwarded-For entry, the one the proxy appended.
    const behindOneProxy = { trustProxy: 1, rateLimits: SPEC_RATE_LIMITS } as const;

    it('behind one proxy, a forged left part of X-Forwarded-For does not open a fresh bucket', async () => {
      const { app } = await buildTestApp(behindOneProxy);
      const forged = (i: number) => loginAt(app, `${AUTH}/login`).set('X-Forwarded-For', `forged-${i}, 198.51.100.${i}, 203.0.113.7`);
      const allowed = await sendSequentially(5, forged);
      expect(allowed.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
      expectTooManyRequests(await forged(99), { policy: '5-in-1min' });
      // The proxy's own entry decides: another real client still has its budget.
      const other = await loginAt(app, `${AUTH}/login`).set('X-Forwarded-For', 'forged-0, 203.0.113.8');
      expect(other.status).toBe(401);
    });

    it('without a trusted proxy, X-Forwarded-For is ignored and the socket address counts', async () => {
      const { app, logged } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
      const spoofing = (i: number) => loginAt(app, `${AUTH}/login`).set('X-Forwarded-For', `203.0.113.${i + 1}`);
      const allowed = await sendSequentially(5, spoofing);
      expect(allowed.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
      expectTooManyRequests(await spoofing(50), { policy: '5-in-1min' });
      expect(logged).toEqual([]); // and that is intended, not reported as a misconfiguration
    });

    it('treats `trustProxy: false` as no proxy at all', async () => {
      const { app } = await buildTestApp({ trustProxy: false, rateLimits: SPEC_RATE_LIMITS });
      await sendSequentially(5, (i) => loginAt(app, `${AUTH}/login`).set('X-Forwarded-For', `203.0.113.${i + 1}`));
      expect((await loginAt(app, `${AUTH}/login`).set('X-Forwarded-For', '203.0.113.99')).status).toBe(429);
    });

    it('refuses to trust every proxy: a blanket `true` would take the client\'s own word for its address', async () => {
      await expect(buildTestApp({ trustProxy: true as unknown as number })).rejects.toThrow(/never true/);
    });
  });
});
