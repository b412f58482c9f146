import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, createApiKey, expectError, PASSWORD } from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const INVALID = 'Invalid or expired confirmation token';
const NEW_PASSWORD = 'a brand new passphrase';

describe('changing the e-mail address (ASVS V7.5.1, V6.4.1)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  async function member(tenantName = 'Change <Co>'): Promise<Account> {
    const email = uniqueEmail('change');
    const res = await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: tenantName });
    expect(res.status).toBe(201);
    const claims = jwt.decode(res.body.token as string) as { userId: string; role: string };
    return { email, token: res.body.token as string, tenantId: res.body.tenant_id as string, userId: claims.userId, role: claims.role };
  }

  const ask = (headers: Record<string, string>, body: Record<string, unknown>): Promise<Response> =>
    request(t.app).post(`${AUTH}/email/change`).set(headers).send(body).then();
  const confirm = (token: unknown): Promise<Response> => request(t.app).post(`${AUTH}/email/change/confirm`).send({ token }).then();
  const me = (token: string): Promise<Response> => request(t.app).get(`${AUTH}/me`).set(bearer({ token })).then();

  /** Asks to move the session's account to `to`, and returns the link's token from the message sent to `to`. */
  async function confirmationLink(session: string, to: string): Promise<string> {
    const res = await ask(bearer({ token: session }), { new_email: to, current_password: PASSWORD });
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 202, body: {} });
    await t.assembly.mailWorker!.deliverNow();
    const message = mailbox.latestTo(to);
    expect(message?.subject).toBe('Confirm your new e-mail address for Change <Co>');
    return linkToken(message!.text, 'confirm-email');
  }

  it('moves the account once the new address confirms: sign-in there, the old session and address end, the old address is told (V7.4.3, V6.3.6)', async () => {
    const { email, token: before } = await member();
    const to = uniqueEmail('moved');
    const link = await confirmationLink(before, to);
    // Nothing changes until the link is used.
    expect((await me(before)).status).toBe(200);
    expect((await request(t.app).get(`${AUTH}/account`).set(bearer({ token: before }))).body.email).toBe(email);

    const done = await confirm(link);
    expect({ status: done.status, body: done.body as unknown }).toEqual({ status: 200, body: { token: expect.any(String), expires_in: '24h' } });
    // V7.4.3: the bearer token issued before carries the old address; the auth version rose, so it is refused.
    expectError(await me(before), 401, 'Invalid or expired token');
    const account = await request(t.app).get(`${AUTH}/account`).set(bearer({ token: done.body.token as string }));
    expect(account.body).toMatchObject({ email: to, email_verified: true });
    expect((await request(t.app).post(`${AUTH}/login`).send({ email, password: PASSWORD })).status).toBe(401);
    expect((await request(t.app).post(`${AUTH}/login`).send({ email: to, password: PASSWORD })).status).toBe(200);

    expectError(await confirm(link), 400, INVALID);

    await t.assembly.mailWorker!.deliverNow();
    const notice = mailbox.latestTo(email)!;
    expect(notice.subject).toBe('Your e-mail address for Change <Co> was changed');
    // The notice names the new address masked, and carries no secret.
    expect(notice.text).not.toContain(to);
    expect(notice.text).not.toContain(link);
    expect(notice.text).not.toMatch(/[0-9a-f]{64}/);
    expect(notice.html).not.toContain(to);
  });

  it('a password reset link sent to the old address stops working once the address changes', async () => {
    const { email, token } = await member();
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email })).status).toBe(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
    const reset = linkToken(mailbox.latestTo(email)!.text, 'reset-password');

    expect((await confirm(await confirmationLink(token, uniqueEmail('moved')))).status).toBe(200);
    expectError(await request(t.app).post(`${AUTH}/password/reset`).send({ token: reset, password: NEW_PASSWORD }), 400, 'Invalid or expired reset token');
  });

  it('a confirmation link expires after one hour on the service clock; a newer request voids the older link', async () => {
    const { token } = await member();
    const expiring = await confirmationLink(token, uniqueEmail('late'));
    clock.advance({ hours: 1 });
    expectError(await confirm(expiring), 400, INVALID);
    // An hour on, the session's sign-in is no longer recent: the password proves it again (V7.5.1).
    expect((await request(t.app).post(`${AUTH}/reauthenticate`).set(bearer({ token })).send({ password: PASSWORD })).status).toBe(200);

    const older = await confirmationLink(token, uniqueEmail('older'));
    const newerAddress = uniqueEmail('newer');
    const newer = await confirmationLink(token, newerAddress);
    expectError(await confirm(older), 400, INVALID);
    expect((await confirm(newer)).status).toBe(200);
  });

  it('a password change voids a pending address change asked for before it', async () => {
    const { token } = await member();
    const link = await confirmationLink(token, uniqueEmail('pending'));
    const changed = await request(t.app).post(`${AUTH}/password`).set(bearer({ token })).send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expectError(await confirm(link), 400, INVALID);
  });

  it('refuses a token of another purpose: a verification link does not confirm a change', async () => {
    const { email } = await member();
    await t.assembly.mailWorker!.deliverNow();
    const verification = linkToken(mailbox.latestTo(email)!.text, 'verify-email');
    expectError(await confirm(verification), 400, INVALID);
    // And the other way round.
    const { token } = await member();
    const link = await confirmationLink(token, uniqueEmail('other'));
    expectError(await request(t.app).post(`${AUTH}/email/verify`).send({ token: link }), 400, 'Invalid or expired verification token');
  });

  it.each([
    ['a made-up token', 'f'.repeat(64)],
    ['a token of the wrong shape', 'not-a-token'],
    ['upper-case hex', 'F'.repeat(64)],
  ])('refuses %s with the same 400', async (_label, token) => {
    expectError(await confirm(token), 400, INVALID);
  });

  it('answers 403 for a wrong current password, and sends nothing (V7.5.1)', async () => {
    const { token } = await member();
    const to = uniqueEmail('wrong');
    expectError(await ask(bearer({ token }), { new_email: to, current_password: 'not my password' }), 403, 'Current password is incorrect');
    await t.assembly.mailWorker!.deliverNow();
    expect(mailbox.latestTo(to)).toBeUndefined();
  });

  it('refuses an API key with 403: a key acts for a person, it has no session to have signed in recently (V7.5.1)', async () => {
    const owner = await member();
    const key = await createApiKey(t.app, owner);
    expectError(await ask({ 'x-api-key': key }, { new_email: uniqueEmail('key'), current_password: PASSWORD }), 403,
      'Recent authentication required');
    expectError(await ask({}, { new_email: uniqueEmail('anon'), current_password: PASSWORD }), 401, 'Missing authentication');
  });

  it('answers 409 for an address registered to anyone, in any tenant, and 400 for the current address', async () => {
    const { email, token } = await member();
    const other = await member('Another tenant');
    expectError(await ask(bearer({ token }), { new_email: other.email, current_password: PASSWORD }), 409, 'Email already registered');
    expectError(await ask(bearer({ token }), { new_email: email.toUpperCase(), current_password: PASSWORD }), 400,
      'new_email is already the address of this account');
  });

  it('answers 409 at confirmation when the new address was registered meanwhile, and changes nothing', async () => {
    const { email, token } = await member();
    const to = uniqueEmail('taken');
    const link = await confirmationLink(token, to);
    expect((await request(t.app).post(`${AUTH}/signup`).send({ email: to, password: PASSWORD, tenant_name: 'Quick' })).status).toBe(201);
    expectError(await confirm(link), 409, 'Email already registered');
    expect((await request(t.app).get(`${AUTH}/account`).set(bearer({ token }))).body.email).toBe(email);
  });

  it('bad bodies get a 400 naming the field, never a 5xx', async () => {
    const { token } = await member();
    const missing = await ask(bearer({ token }), { current_password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual(expect.stringContaining('new_email'));
    expect((await ask(bearer({ token }), { new_email: 'not an address', current_password: PASSWORD })).status).toBe(400);
    expect((await ask(bearer({ token }), { new_email: uniqueEmail('x') })).body.error).toEqual(expect.stringContaining('current_password'));
    expect((await request(t.app).post(`${AUTH}/email/change/confirm`).send({})).body.error).toEqual(expect.stringContaining('token'));
  });

  it('records email.change_requested and email.changed in the audit trail, and never the token', async () => {
    const { email, token } = await member();
    const to = uniqueEmail('audited');
    const link = await confirmationLink(token, to);
    const done = await confirm(link);
    const events = await request(t.app).get(`${AUTH}/audit-events`).set(bearer({ token: done.body.token as string }));
    const byAction = new Map((events.body.events as Array<{ action: string; details: unknown }>).map((e) => [e.action, e.details]));
    expect(byAction.get('email.change_requested')).toEqual({ new_email: to });
    expect(byAction.get('email.changed')).toEqual({ from: email, to });
    expect(JSON.stringify(events.body)).not.toContain(link);
  });
});

describe('changing the e-mail address with no way to send mail', () => {
  it('answers 503 "E-mail delivery is not configured"; confirm still answers for its token', async () => {
    const assembly = await assembleForTest({}, testConfig({}, { nodeEnv: 'production', rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } }));
    try {
      const signup = await request(assembly.listener).post(`${AUTH}/signup`).send({ email: uniqueEmail('nomail'), password: PASSWORD, tenant_name: 'No mail' });
      expect(signup.status).toBe(201);
      const res = await request(assembly.listener).post(`${AUTH}/email/change`).set(bearer({ token: signup.body.token as string }))
        .send({ new_email: uniqueEmail('nomail'), current_password: PASSWORD });
      expectError(res, 503, 'E-mail delivery is not configured');
      expectError(await request(assembly.listener).post(`${AUTH}/email/change/confirm`).send({ token: 'a'.repeat(64) }), 400, INVALID);
    } finally {
      await assembly.close();
    }
  });
});
