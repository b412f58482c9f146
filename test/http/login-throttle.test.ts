import type { RequestListener } from 'node:http';
import request from 'supertest';
import { buildTestApp, expectTooManyRequests, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { ManualClock } from '../support/manual-clock';
import { uniqueEmail } from '../support/test-use-cases';

// Each attempt from a different client address (behind one trusted proxy), so the per-address
// limit of 5 a minute never applies: only the per-account throttle can stop them.
const behindOneProxy = { trustProxy: 1, rateLimits: SPEC_RATE_LIMITS } as const;
let address = 0;
const loginFromNewAddress = (app: RequestListener, email: string, password: string) => {
  address += 1;
  return request(app).post(`${AUTH}/login`).set('X-Forwarded-For', `198.18.${address >> 8 & 255}.${address & 255}`).send({ email, password });
};

describe('Failed logins, throttled per account across client addresses', () => {
  it('answers 429 after 10 failures in 15 minutes by default, however many addresses they came from', async () => {
    const { app } = await buildTestApp(behindOneProxy);
    const owner = await signupOwner(app);
    for (let i = 0; i < 10; i += 1) expect((await loginFromNewAddress(app, owner.email, 'wrong password')).status).toBe(401);
    const res = await loginFromNewAddress(app, owner.email, 'wrong password');
    expect(res.body).toEqual({ error: 'Too many requests, retry after 900 seconds' });
    expectTooManyRequests(res, { maxSeconds: 900 });
  });

  it('refuses the right password too while the account is throttled, so a lucky guess is not revealed', async () => {
    const clock = new ManualClock();
    const { app } = await buildTestApp(behindOneProxy, { clock, loginFailures: { limit: 3, windowSeconds: 600 } });
    const owner = await signupOwner(app);
    for (let i = 0; i < 3; i += 1) await loginFromNewAddress(app, owner.email, 'wrong password');
    clock.advanceSeconds(120);
    const right = await loginFromNewAddress(app, owner.email, PASSWORD);
    expect(expectTooManyRequests(right, { maxSeconds: 600 })).toBe(480);

    // Unknown e-mails get exactly the same treatment.
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 3; i += 1) expect((await loginFromNewAddress(app, nobody, PASSWORD)).status).toBe(401);
    expectTooManyRequests(await loginFromNewAddress(app, nobody, PASSWORD), { maxSeconds: 600 });

    clock.advanceSeconds(480);
    const after = await loginFromNewAddress(app, owner.email, PASSWORD);
    expect(after.status).toBe(200);
    expect(Object.keys(after.body as object).sort()).toEqual(['expires_in', 'token']);
  });

  it('counts a wrong current password on POST /password as a failed login of that account', async () => {
    const { app } = await buildTestApp(behindOneProxy, { loginFailures: { limit: 3, windowSeconds: 600 } });
    const owner = await signupOwner(app);
    const changePassword = (current: string) => request(app).post(`${AUTH}/password`).set(bearer(owner))
      .send({ current_password: current, new_password: 'a new long passphrase' });
    await loginFromNewAddress(app, owner.email, 'wrong password');
    for (let i = 0; i < 2; i += 1) expectError(await changePassword('wrong password'), 403, 'Current password is incorrect');
    expectTooManyRequests(await changePassword(PASSWORD), { maxSeconds: 600 });
    expect((await loginFromNewAddress(app, owner.email, PASSWORD)).status).toBe(429);
  });

  it('leaves other accounts alone, and a success before the limit starts the count again', async () => {
    const { app } = await buildTestApp(behindOneProxy, { loginFailures: { limit: 3, windowSeconds: 600 } });
    const [victim, bystander] = [await signupOwner(app), await signupOwner(app)];
    for (let i = 0; i < 2; i += 1) await loginFromNewAddress(app, bystander.email, 'wrong password');
    expect((await loginFromNewAddress(app, bystander.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await loginFromNewAddress(app, bystander.email, 'wrong password')).status).toBe(401);

    for (let i = 0; i < 3; i += 1) await loginFromNewAddress(app, victim.email, 'wrong password');
    expect((await loginFromNewAddress(app, victim.email, PASSWORD)).status).toBe(429);
    expect((await loginFromNewAddress(app, bystander.email, PASSWORD)).status).toBe(200);
  });
});
