import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { buildTestApp, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, bearer, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';
import type { RequestListener } from 'node:http';

const login = (app: RequestListener) => request(app).post(`${AUTH}/login`).send({ email: uniqueEmail(), password: PASSWORD });
const signup = (app: RequestListener) => request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'T' });

async function repeat(times: number, send: () => Promise<Response>): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < times; i += 1) responses.push(await send()); // sequential: counting order matters
  return responses;
}

/** The 429 we chose: docs/contract.md, "Errors and limits", leaves its wording open. */
function expectLimited(res: Response, policy: string): void {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const match = /^Too many requests, retry after (\d+) seconds$/.exec(res.body.error);
  expect(match).not.toBeNull();
  const seconds = Number(match![1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(res.headers['retry-after']).toBe(String(seconds));
  expect(res.headers['ratelimit']).toContain(`"${policy}"; r=0; t=`);
  expect(res.headers['ratelimit-policy']).toContain(`"${policy}"; q=`);
  expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
}

describe('Rate limits', () => {
  it('allows 5 logins a minute and refuses the 6th with 429', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    const allowed = await repeat(5, () => login(app));
    expect(allowed.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(allowed[0]!.headers['ratelimit']).toContain('"5-in-1min"; r=4; t=');
    expect(allowed[0]!.headers['ratelimit-policy']).toContain('"5-in-1min"; q=5; w=60');
    expectLimited(await login(app), '5-in-1min');
  });

  it('shows both the global and the route quota on a login answer', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    const res = await login(app);
    expect(res.headers['ratelimit']).toMatch(/"100-in-1min"; r=99; t=\d+, "5-in-1min"; r=4; t=\d+/);
  });

  it('counts a login before reading its body: bad bodies spend the budget too', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    await repeat(5, () => request(app).post(`${AUTH}/login`).send({}));
    expectLimited(await login(app), '5-in-1min');
  });

  it('counts the passwordless sign-in routes in the login budget of the client address, with POST /login', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    const options = () => request(app).post(`${AUTH}/login/passkey/options`);
    const passkey = () => request(app).post(`${AUTH}/login/passkey`).send({ ceremony: 'ab'.repeat(32), response: { id: 'x', response: {} } });
    const statuses: number[] = [];
    for (const send of [login, options, passkey, options, login]) statuses.push((await send(app)).status);
    expect(statuses).toEqual([401, 200, 401, 200, 401]);
    expectLimited(await options(), '5-in-1min');
    expectLimited(await passkey(), '5-in-1min');
    expectLimited(await login(app), '5-in-1min');
  });

  it('allows 3 signups a minute and refuses the 4th with 429', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    const allowed = await repeat(3, () => signup(app));
    expect(allowed.map((r) => r.status)).toEqual([201, 201, 201]);
    expectLimited(await signup(app), '3-in-1min');
  });

  it('keeps separate counters: logins do not spend the signup budget, nor the reverse', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    await repeat(5, () => login(app));
    expect((await signup(app)).status).toBe(201);
    await repeat(2, () => signup(app));
    expect((await signup(app)).status).toBe(429);
    expect((await login(app)).status).toBe(429);

    const { app: other } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    await repeat(3, () => signup(other));
    expect((await login(other)).status).toBe(401);
  });

  it('does not let an exhausted login budget block protected routes', async () => {
    const { app } = await buildTestApp({ rateLimits: SPEC_RATE_LIMITS });
    const owner = await signupOwner(app);
    await repeat(6, () => login(app));
    await request(app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);
  });

  it('applies the global limit to every route, unknown ones included, but not to /healthz', async () => {
    const { app } = await buildTestApp({ rateLimits: { global: 3, login: 100, signup: 100 } });
    await request(app).get(`${AUTH}/me`).expect(401);
    await request(app).get('/nowhere').expect(404);
    await login(app).expect(401);
    expectLimited(await request(app).get(`${AUTH}/me`), '3-in-1min');
    expectLimited(await request(app).get('/nowhere'), '3-in-1min');
    for (let i = 0; i < 5; i += 1) await request(app).get('/healthz').expect(200, { status: 'ok' });
  });

  it('answers 429 as JSON even on the authenticated routes, before authentication', async () => {
    const { app } = await buildTestApp({ rateLimits: { global: 1, login: 100, signup: 100 } });
    await request(app).get(`${AUTH}/me`);
    expectLimited(await request(app).get(`${AUTH}/me`).set('Authorization', 'Bearer garbage'), '1-in-1min');
  });

  describe('per client address', () => {
    // Behind a trusted proxy the address comes from X-Forwarded-For, which lets the test vary it.
    const viaProxy = { trustProxy: 'loopback', rateLimits: SPEC_RATE_LIMITS } as const;
    const loginFrom = (app: RequestListener, address: string) => login(app).set('X-Forwarded-For', address);

    it('counts each IPv4 address on its own', async () => {
      const { app } = await buildTestApp(viaProxy);
      await repeat(5, () => loginFrom(app, '203.0.113.1'));
      expectLimited(await loginFrom(app, '203.0.113.1'), '5-in-1min');
      expect((await loginFrom(app, '203.0.113.2')).status).toBe(401);
    });

    it('counts an IPv6 /56 as one client', async () => {
      const { app } = await buildTestApp(viaProxy);
      await repeat(5, () => loginFrom(app, '2001:db8:0:1::1'));
      expect((await loginFrom(app, '2001:db8:0:ff::2')).status).toBe(429); // same /56
      expect((await loginFrom(app, '2001:db8:0:100::1')).status).toBe(401); // next /56
    });
  });
});
