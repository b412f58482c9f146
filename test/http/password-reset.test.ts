import request from 'supertest';
import { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestApp, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';
import { linkToken } from '../support/mail-links';

const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

describe('password reset by e-mail (ASVS V6.4.1, V6.4.3)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  /** Lets the request's work after its answer finish, then delivers the outbox. */
  async function deliver(): Promise<void> {
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
  }

  async function member(): Promise<{ email: string; token: string }> {
    const email = uniqueEmail('reset');
    const res = await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Reset <Co>' });
    expect(res.status).toBe(201);
    return { email, token: res.body.token };
  }

  async function forgot(email: string) {
    return request(t.app).post(`${AUTH}/password/forgot`).send({ email });
  }

  async function resetLink(email: string): Promise<string> {
    expect((await forgot(email)).status).toBe(202);
    await deliver();
    const message = mailbox.latestTo(email);
    expect(message?.subject).toBe('Reset your password for Reset <Co>');
    return linkToken(message!.text, 'reset-password');
  }

  it('answers 202 {} alike for a member and for nobody, and only the member gets a message', async () => {
    const { email } = await member();
    const stranger = uniqueEmail('nobody');
    const answers = [await forgot(email), await forgot(stranger)].map((res) => ({ status: res.status, body: res.body }));
    expect(answers).toEqual([{ status: 202, body: {} }, { status: 202, body: {} }]);
    await deliver();
    expect(mailbox.latestTo(email)?.subject).toBe('Reset your password for Reset <Co>');
    expect(mailbox.latestTo(stranger)).toBeUndefined();
  });

  it('a link resets the password once: the old password and every earlier token stop working, the answer signs in', async () => {
    const { email, token: before } = await member();
    const token = await resetLink(email);
    const reset = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ token: expect.any(String), expires_in: '24h' });

    expect((await request(t.app).get(`${AUTH}/me`).set('authorization', `Bearer ${before}`)).body).toEqual({ error: 'Invalid or expired token' });
    expect((await request(t.app).get(`${AUTH}/me`).set('authorization', `Bearer ${reset.body.token}`)).status).toBe(200);
    expect((await request(t.app).post(`${AUTH}/login`).send({ email, password: PASSWORD })).status).toBe(401);
    expect((await request(t.app).post(`${AUTH}/login`).send({ email, password: NEW_PASSWORD })).status).toBe(200);

    const again = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'yet another passphrase' });
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: { error: 'Invalid or expired reset token' } });
    // The member is told, without any secret in the message.
    await deliver();
    // (The sign-in above, from a client without a device proof, has its own notice.)
    const notice = mailbox.messages().filter((m) => m.to === email).find((m) => m.subject === 'Your password for Reset <Co> was reset')!;
    expect(notice).toBeDefined();
    expect(notice.text).not.toContain(token);
    expect(notice.text).not.toContain(NEW_PASSWORD);
    // The address counts as proven: the link reached it.
    const account = await request(t.app).get(`${AUTH}/account`).set('authorization', `Bearer ${reset.body.token}`);
    expect(account.status).toBe(200);
  });

  it('a link expires after 30 minutes on the service clock; a newer request voids the older link', async () => {
    const { email } = await member();
    const expiring = await resetLink(email);
    clock.advance({ minutes: 30 });
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token: expiring, password: NEW_PASSWORD })).body)
      .toEqual({ error: 'Invalid or expired reset token' });

    const older = await resetLink(email);
    const newer = await resetLink(email);
    expect(newer).not.toBe(older);
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token: older, password: NEW_PASSWORD })).status).toBe(400);
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token: newer, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('a password change voids a reset link sent before it', async () => {
    const { email, token: session } = await member();
    const link = await resetLink(email);
    const changed = await request(t.app).post(`${AUTH}/password`).set('authorization', `Bearer ${session}`)
      .send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token: link, password: 'the attacker chose this' })).body)
      .toEqual({ error: 'Invalid or expired reset token' });
    await deliver();
    expect(mailbox.latestTo(email)?.subject).toBe('Your password for Reset <Co> was changed');
  });

  it.each([
    ['a made-up token', 'f'.repeat(64)],
    ['a token of the wrong shape', 'not-a-token'],
    ['upper-case hex', 'F'.repeat(64)],
  ])('%s is refused with the same 400', async (_label, token) => {
    const res = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: NEW_PASSWORD });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: 'Invalid or expired reset token' } });
  });

  it('bad bodies get a 400 naming the field, never a 5xx', async () => {
    for (const body of [{}, { email: 'not an address' }, { email: 42 }]) {
      const res = await request(t.app).post(`${AUTH}/password/forgot`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.stringContaining('email'));
    }
    const short = await request(t.app).post(`${AUTH}/password/reset`).send({ token: 'a'.repeat(64), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error).toEqual(expect.stringContaining('password'));
  });

  it('the audit trail records the request and the reset, and never the token', async () => {
    const { email } = await member();
    const token = await resetLink(email);
    const reset = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: NEW_PASSWORD });
    await deliver();
    const events = await request(t.app).get(`${AUTH}/audit-events`).set('authorization', `Bearer ${reset.body.token}`);
    const actions = (events.body.events as Array<{ action: string }>).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['password.reset_requested', 'password.reset', 'email.sent']));
    expect(JSON.stringify(events.body)).not.toContain(token);
  });
});

describe('password reset with no way to send mail', () => {
  it('forgot answers 503 "E-mail delivery is not configured" for every address alike; reset still answers for its token', async () => {
    // Production without SMTP_URL: the service runs, and has no mailer.
    const assembly = await assembleForTest({}, testConfig({}, { nodeEnv: 'production', rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } }));
    try {
      expect(assembly.mailer).toBeUndefined();
      const email = uniqueEmail('nomail');
      expect((await request(assembly.listener).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'No mail' })).status).toBe(201);
      for (const address of [email, uniqueEmail('nobody')]) {
        const res = await request(assembly.listener).post(`${AUTH}/password/forgot`).send({ email: address });
        expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: { error: 'E-mail delivery is not configured' } });
      }
      const reset = await request(assembly.listener).post(`${AUTH}/password/reset`).send({ token: 'a'.repeat(64), password: NEW_PASSWORD });
      expect(reset.status).toBe(400);
    } finally {
      await assembly.close();
    }
  });
});
