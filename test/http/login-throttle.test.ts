import type { RequestListener } from 'node:http';
import { request } from '../support/contract-request';
import { buildTestApp, expectTooManyRequests, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { TestClock } from '../../src/testing/test-clock';
import { uniqueEmail } from '../support/test-use-cases';

// Clients at distinct addresses behind one trusted proxy (X-Forwarded-For). The per-address rate
// limit of 5 logins a minute counts each of them apart too, so each test keeps every address under
// it, or spreads an address's attempts over fresh ones where only the account's ceiling matters.
const behindOneProxy = { trustProxy: 1, rateLimits: { ...SPEC_RATE_LIMITS, login: 1_000 } } as const;
const ATTACKER = '203.0.113.66';
const OWNER_HOME = '192.0.2.10';
const loginFrom = (app: RequestListener, address: string, email: string, password: string) =>
  request(app).post(`${AUTH}/login`).set('X-Forwarded-For', address).send({ email, password });
let fresh = 0;
const freshAddress = () => {
  fresh += 1;
  return `198.18.${fresh >> 8 & 255}.${fresh & 255}`;
};

describe('Failed logins, throttled per account and client address, with a ceiling over all addresses', () => {
  it("answers 429 after 10 failures from one address in 15 minutes by default; the owner's own address still logs in", async () => {
    const { app } = await buildTestApp(behindOneProxy, { clock: new TestClock() });
    const owner = await signupOwner(app);
    for (let i = 0; i < 10; i += 1) expect((await loginFrom(app, ATTACKER, owner.email, 'wrong password')).status).toBe(401);
    const res = await loginFrom(app, ATTACKER, owner.email, PASSWORD);
    expect(res.body).toEqual({ error: 'Too many requests, retry after 900 seconds' });
    expectTooManyRequests(res, { maxSeconds: 900 });

    const home = await loginFrom(app, OWNER_HOME, owner.email, PASSWORD);
    expect(home.status).toBe(200);
  });

  it('refuses every address after 100 failures over all of them by default (distributed guessing)', async () => {
    const { app } = await buildTestApp(behindOneProxy, { clock: new TestClock() });
    const owner = await signupOwner(app);
    for (let address = 0; address < 10; address += 1) {
      for (let i = 0; i < 10; i += 1) expect((await loginFrom(app, `198.51.100.${address}`, owner.email, 'wrong password')).status).toBe(401);
    }
    const res = await loginFrom(app, OWNER_HOME, owner.email, PASSWORD);
    expect(res.body).toEqual({ error: 'Too many requests, retry after 900 seconds' });
    expectTooManyRequests(res, { maxSeconds: 900 });
  });

  it('refuses the right password too from a throttled address, so a lucky guess is not revealed', async () => {
    const clock = new TestClock();
    const { app } = await buildTestApp(behindOneProxy, { clock, loginFailures: { limit: 3, accountLimit: 20, windowSeconds: 600 } });
    const owner = await signupOwner(app);
    for (let i = 0; i < 3; i += 1) await loginFrom(app, ATTACKER, owner.email, 'wrong password');
    clock.advance({ seconds: 120 });
    const right = await loginFrom(app, ATTACKER, owner.email, PASSWORD);
    expect(expectTooManyRequests(right, { maxSeconds: 600 })).toBe(480);

    // Unknown e-mails get exactly the same treatment.
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 3; i += 1) expect((await loginFrom(app, ATTACKER, nobody, PASSWORD)).status).toBe(401);
    expectTooManyRequests(await loginFrom(app, ATTACKER, nobody, PASSWORD), { maxSeconds: 600 });

    clock.advance({ seconds: 480 });
    const after = await loginFrom(app, ATTACKER, owner.email, PASSWORD);
    expect(after.status).toBe(200);
    expect(Object.keys(after.body as object).sort()).toEqual(['expires_in', 'token']);
  });

  it("counts wrong current passwords on POST /password per address too: an attacker's failures do not stop the owner's change", async () => {
    const { app } = await buildTestApp(behindOneProxy, { loginFailures: { limit: 3, accountLimit: 20, windowSeconds: 600 } });
    const owner = await signupOwner(app);
    const changePassword = (address: string, current: string) => request(app).post(`${AUTH}/password`).set(bearer(owner))
      .set('X-Forwarded-For', address).send({ current_password: current, new_password: 'a new long passphrase' });

    // A stolen token guessing from the attacker's address is counted with the attacker's failed logins.
    await loginFrom(app, ATTACKER, owner.email, 'wrong password');
    for (let i = 0; i < 2; i += 1) expectError(await changePassword(ATTACKER, 'wrong password'), 403, 'Current password is incorrect');
    expectTooManyRequests(await changePassword(ATTACKER, PASSWORD), { maxSeconds: 600 });
    expect((await loginFrom(app, ATTACKER, owner.email, PASSWORD)).status).toBe(429);

    // The owner, at home, changes it.
    expect((await changePassword(OWNER_HOME, PASSWORD)).status).toBe(200);
  });

  it('leaves other accounts alone, and a success before the limit starts that address\'s count again', async () => {
    const { app } = await buildTestApp(behindOneProxy, { loginFailures: { limit: 3, accountLimit: 20, windowSeconds: 600 } });
    const [victim, bystander] = [await signupOwner(app), await signupOwner(app)];
    for (let i = 0; i < 2; i += 1) await loginFrom(app, ATTACKER, bystander.email, 'wrong password');
    expect((await loginFrom(app, ATTACKER, bystander.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await loginFrom(app, ATTACKER, bystander.email, 'wrong password')).status).toBe(401);

    for (let i = 0; i < 3; i += 1) await loginFrom(app, ATTACKER, victim.email, 'wrong password');
    expect((await loginFrom(app, ATTACKER, victim.email, PASSWORD)).status).toBe(429);
    expect((await loginFrom(app, ATTACKER, bystander.email, PASSWORD)).status).toBe(200);
  });

  it('without a trusted proxy, a forged X-Forwarded-For does not buy fresh counts', async () => {
    const { app } = await buildTestApp({ rateLimits: { ...SPEC_RATE_LIMITS, login: 1_000 } }, { loginFailures: { limit: 3, accountLimit: 20, windowSeconds: 600 } });
    const owner = await signupOwner(app);
    for (let i = 0; i < 3; i += 1) expect((await loginFrom(app, freshAddress(), owner.email, 'wrong password')).status).toBe(401);
    expectTooManyRequests(await loginFrom(app, freshAddress(), owner.email, PASSWORD), { maxSeconds: 600 });
  });
});
