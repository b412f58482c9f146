import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { buildTestApp, expectTooManyRequests, SPEC_RATE_LIMITS } from '../support/http-app';
import { AUTH, PASSWORD, signupOwner } from '../support/http-fixtures';
import { TestClock } from '../../src/testing/test-clock';
import { uniqueEmail } from '../support/test-use-cases';

// ASVS 5.0 V6.3.1 (brute force and credential stuffing throttled) without the malicious lockout
// V6.1.1 asks the throttle's design to prevent: a device that signed in before keeps its own
// allowance of failed logins, which failures from any other address never use up.

// Clients at distinct addresses behind one trusted proxy (X-Forwarded-For), as login-throttle.test.ts.
const behindOneProxy = { trustProxy: 1, rateLimits: { ...SPEC_RATE_LIMITS, login: 1_000 } } as const;
const POLICY = { limit: 5, accountLimit: 20, windowSeconds: 900 };
const OWNER_HOME = '192.0.2.10';
const PROOF = /^v1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/;

let fresh = 0;
const freshAddress = () => {
  fresh += 1;
  return `198.18.${fresh >> 8 & 255}.${fresh & 255}`;
};

function login(app: RequestListener, address: string, email: string, password: string, proof: { header?: string; cookie?: string } = {}) {
  const sent = request(app).post(`${AUTH}/login`).set('X-Forwarded-For', address);
  if (proof.header !== undefined) sent.set('X-Device-Proof', proof.header);
  if (proof.cookie !== undefined) sent.set('Cookie', proof.cookie);
  return sent.send({ email, password });
}

/** The owner's first sign-in: the signup, with the device proof it hands back. */
async function ownerWithDevice(app: RequestListener) {
  const email = uniqueEmail('owner');
  const res = await request(app).post(`${AUTH}/signup`).set('X-Forwarded-For', OWNER_HOME).send({ email, password: PASSWORD, tenant_name: 'Acme' });
  expect(res.status).toBe(201);
  return { email, proof: proofOf(res) };
}

function proofOf(res: Response): string {
  const proof = res.headers['x-device-proof'] as string | undefined;
  expect(proof).toMatch(PROOF);
  return proof!;
}

const deviceIdOf = (proof: string) => proof.split('.')[1];

/** 22 addresses × 5 wrong passwords, as a spread-out attacker tries them: the ceiling of 20 is reached on the way. */
async function attackFromEverywhere(app: RequestListener, email: string): Promise<void> {
  const statuses: number[] = [];
  for (let address = 0; address < 22; address += 1) {
    const from = `203.0.113.${address + 1}`;
    for (let i = 0; i < 5; i += 1) statuses.push((await login(app, from, email, 'wrong password')).status);
  }
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
  expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
}

describe('Known devices: a device that signed in before keeps its own allowance of failed logins', () => {
  it('hands a device proof to every signup and login, in a header and an HttpOnly, SameSite=Strict cookie, the JSON bodies unchanged', async () => {
    const { app } = await buildTestApp(behindOneProxy, { loginFailures: POLICY });
    const signup = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('new'), password: PASSWORD, tenant_name: 'Acme' });
    expect(Object.keys(signup.body as object).sort()).toEqual(['expires_in', 'tenant_id', 'token']);
    const proof = proofOf(signup);
    expect(signup.headers['set-cookie']).toEqual([expect.stringMatching(
      new RegExp(`^pc_device=${proof.replace(/[.]/g, '\\.')}; Path=/api/v1/auth; Expires=[^;]+ GMT; HttpOnly; SameSite=Strict$`),
    )]);

    const owner = await signupOwner(app);
    const res = await login(app, OWNER_HOME, owner.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['expires_in', 'token']);
    proofOf(res);
    // Over https (as the trusted proxy says), the cookie is Secure: never sent back in the clear.
    const overHttps = await login(app, OWNER_HOME, owner.email, PASSWORD).set('X-Forwarded-Proto', 'https');
    expect((overHttps.headers['set-cookie'] as unknown as string[])[0]).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it("lets the owner's device in while failures from 22 addresses lock out every client without a proof", async () => {
    const { app } = await buildTestApp(behindOneProxy, { clock: new TestClock(), loginFailures: POLICY });
    const owner = await ownerWithDevice(app);
    await attackFromEverywhere(app, owner.email);

    // Without a proof, even the right password from a fresh address is refused: the account-wide ceiling.
    expectTooManyRequests(await login(app, freshAddress(), owner.email, PASSWORD), { maxSeconds: 900 });

    // The owner's device, from home or anywhere else, by header (an API client) or cookie (the console).
    const byHeader = await login(app, OWNER_HOME, owner.email, PASSWORD, { header: owner.proof });
    expect(byHeader.status).toBe(200);
    const refreshed = proofOf(byHeader);
    expect(deviceIdOf(refreshed)).toBe(deviceIdOf(owner.proof));
    const byCookie = await login(app, freshAddress(), owner.email, PASSWORD, { cookie: `theme=dark; pc_device=${refreshed}; lang=en` });
    expect(byCookie.status).toBe(200);
    expect(deviceIdOf(proofOf(byCookie))).toBe(deviceIdOf(owner.proof));
  });

  it("refuses the device's own 6th failure in the window: a stolen proof buys no more guesses than one address gets", async () => {
    const clock = new TestClock();
    const { app } = await buildTestApp(behindOneProxy, { clock, loginFailures: POLICY });
    const owner = await ownerWithDevice(app);
    for (let i = 0; i < 5; i += 1) {
      expect((await login(app, freshAddress(), owner.email, 'wrong password', { header: owner.proof })).status).toBe(401);
    }
    // From yet another address, and with the right password: refused, so a lucky guess is not revealed.
    expectTooManyRequests(await login(app, freshAddress(), owner.email, PASSWORD, { header: owner.proof }), { maxSeconds: 900 });
    // The device's failures were its own: the owner's home address without the proof still signs in.
    expect((await login(app, OWNER_HOME, owner.email, PASSWORD)).status).toBe(200);
    clock.advance({ seconds: 900 });
    expect((await login(app, OWNER_HOME, owner.email, PASSWORD, { header: owner.proof })).status).toBe(200);
  });

  it("ignores an invalid, tampered, expired or other account's proof: the attempt is counted as one without a proof", async () => {
    const clock = new TestClock();
    const { app } = await buildTestApp(behindOneProxy, { clock, loginFailures: POLICY });
    const owner = await ownerWithDevice(app);
    const other = await ownerWithDevice(app);
    clock.advance({ days: 91 }); // the owner's proof has expired, not the one from a fresh login below
    const current = proofOf(await login(app, OWNER_HOME, owner.email, PASSWORD));
    const flipped = current.slice(0, -2) + (current.at(-2) === 'A' ? 'B' : 'A') + current.at(-1)!;
    await attackFromEverywhere(app, owner.email);
    for (const proof of [{ header: owner.proof }, { header: other.proof }, { header: flipped }, { header: 'v1.nonsense' }, { cookie: `pc_device=${other.proof}` }]) {
      expectTooManyRequests(await login(app, OWNER_HOME, owner.email, PASSWORD, proof), { maxSeconds: 900 });
    }
    expect((await login(app, OWNER_HOME, owner.email, PASSWORD, { header: current })).status).toBe(200);
  });
});
