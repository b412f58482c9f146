import jwt from 'jsonwebtoken';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { TEST_JWT_SECRET, uniqueEmail } from '../support/test-use-cases';

const REQUIRED = 'Recent authentication required';
/** REAUTH_WINDOW_SECONDS unless set. */
const WINDOW_SECONDS = 600;

describe('recent authentication (ASVS V7.5.1)', () => {
  let t: TestApp;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock, loginFailures: { limit: 3, accountLimit: 100, windowSeconds: 900 } });
  });
  afterAll(() => t.assembly.close());

  const changeEmail = (headers: Record<string, string>) =>
    request(t.app).post(`${AUTH}/email/change`).set(headers).send({ new_email: uniqueEmail('moved'), current_password: PASSWORD });
  const reauthenticate = (headers: Record<string, string>, password = PASSWORD) =>
    request(t.app).post(`${AUTH}/reauthenticate`).set(headers).send({ password });
  const endSessions = (caller: Account, member: Account) => request(t.app).delete(`${AUTH}/members/${member.userId}/sessions`).set(bearer(caller));
  const sessionless = (account: Account) => jwt.sign(
    { tenantId: account.tenantId, userId: account.userId, email: account.email, role: account.role, authVersion: 0 },
    TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '24h' },
  );

  it('a sign-in is recent for the window; past it the routes that change how someone signs in answer 403, until the password is proven again', async () => {
    const owner = await signupOwner(t.app);
    const member = await joinWithRole(t.app, owner, 'member');
    expect((await changeEmail(bearer(owner))).status).toBe(202);

    clock.advance({ seconds: WINDOW_SECONDS + 1 });
    expectError(await changeEmail(bearer(owner)), 403, REQUIRED);
    expectError(await endSessions(owner, member), 403, REQUIRED);
    expect((await request(t.app).get(`${AUTH}/me`).set(bearer(member))).status).toBe(200);

    expectError(await reauthenticate(bearer(owner), 'not the password'), 401, 'Invalid credentials');
    expectError(await changeEmail(bearer(owner)), 403, REQUIRED);
    const renewed = await reauthenticate(bearer(owner));
    expect({ status: renewed.status, body: renewed.body as unknown }).toEqual({
      status: 200, body: { recent_until: new Date(clock.now().getTime() + WINDOW_SECONDS * 1000).toISOString() },
    });
    expect((await changeEmail(bearer(owner))).status).toBe(202);
    expect((await endSessions(owner, member)).body).toEqual({ ended: 1 });
  });

  it('an API key or a token without a session cannot prove it: 403 on those routes, 400 No session to renew', async () => {
    const owner = await signupOwner(t.app);
    const member = await joinWithRole(t.app, owner, 'member');
    const key = await createApiKey(t.app, owner);
    const old = { authorization: `Bearer ${sessionless(owner)}` };
    for (const headers of [{ 'x-api-key': key }, old]) {
      expectError(await changeEmail(headers), 403, REQUIRED);
      expectError(await request(t.app).delete(`${AUTH}/members/${member.userId}/sessions`).set(headers), 403, REQUIRED);
      expectError(await reauthenticate(headers), 400, 'No session to renew');
    }
    expectError(await reauthenticate({}), 401, 'Missing authentication');
  });

  it('wrong passwords at reauthentication count in the login throttle, as at /login (V6.3.1)', async () => {
    const owner = await signupOwner(t.app);
    for (let i = 0; i < 3; i += 1) expectError(await reauthenticate(bearer(owner), 'wrong guess'), 401, 'Invalid credentials');
    const throttled = await reauthenticate(bearer(owner));
    expect(throttled.status).toBe(429);
    expect((await request(t.app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD })).status).toBe(429);
    clock.advance({ minutes: 16 });
    expect((await reauthenticate(bearer(owner))).status).toBe(200);
  });

  it("the contract's own routes do not ask for it: password, role change, removal, keys and invites work long after sign-in", async () => {
    const owner = await signupOwner(t.app);
    const member = await joinWithRole(t.app, owner, 'member');
    const other = await joinWithRole(t.app, owner, 'member');
    clock.advance({ hours: 2 });

    expect((await request(t.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' })).status).toBe(200);
    expect((await request(t.app).delete(`${AUTH}/members/${other.userId}`).set(bearer(owner))).status).toBe(200);
    expect((await request(t.app).post(`${AUTH}/api-keys`).set(bearer(owner))).status).toBe(201);
    expect((await request(t.app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: uniqueEmail('inv') })).status).toBe(201);
    const changed = await request(t.app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: 'another good passphrase' });
    expect(changed.status).toBe(200);
  });
});
