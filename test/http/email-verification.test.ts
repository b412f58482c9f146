import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, expectTooManyRequests, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, createApiKey, createInvite, expectError, PASSWORD } from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const INVALID = 'Invalid or expired verification token';

describe('e-mail verification (ASVS V6.4.1: a random link that expires and works once)', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  async function signup(): Promise<Account> {
    const email = uniqueEmail('verify');
    const res = await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Verify <Co>' });
    // The contract's answer is unchanged by the message that follows.
    expect(Object.keys(res.body as object).sort()).toEqual(['expires_in', 'tenant_id', 'token']);
    expect(res.status).toBe(201);
    const claims = jwt.decode(res.body.token as string) as { userId: string; role: string };
    return { email, token: res.body.token as string, tenantId: res.body.tenant_id as string, userId: claims.userId, role: claims.role };
  }

  async function verificationLink(email: string): Promise<string> {
    await t.assembly.mailWorker!.deliverNow();
    const message = mailbox.latestTo(email);
    expect(message?.subject).toMatch(/^Confirm your e-mail address for /);
    return linkToken(message!.text, 'verify-email');
  }

  const verify = (token: unknown): Promise<Response> => request(t.app).post(`${AUTH}/email/verify`).send({ token }).then();
  const account = (token: string): Promise<Response> => request(t.app).get(`${AUTH}/account`).set(bearer({ token })).then();
  const resend = (headers: Record<string, string>): Promise<Response> => request(t.app).post(`${AUTH}/email/verify/resend`).set(headers).then();

  it('sends every new owner a link valid for 48 hours; the link verifies the address once', async () => {
    const { email, token } = await signup();
    expect((await account(token)).body.email_verified).toBe(false);
    const link = await verificationLink(email);
    expect(mailbox.latestTo(email)!.text).toContain('for 48 hours');

    const first = await verify(link);
    expect({ status: first.status, body: first.body as unknown }).toEqual({ status: 200, body: { verified: true } });
    expect((await account(token)).body.email_verified).toBe(true);
    // GET /me keeps exactly the contract's three fields.
    expect(Object.keys((await request(t.app).get(`${AUTH}/me`).set(bearer({ token }))).body as object).sort()).toEqual(['role', 'tenant_id', 'user_id']);

    expectError(await verify(link), 400, INVALID);
  });

  it('sends a member who joined by invitation a link too: accepting the invitation does not verify the address', async () => {
    const owner = await signup();
    const invite = await createInvite(t.app, owner);
    const joined = await request(t.app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
    expect(joined.status).toBe(201);
    expect((await account(joined.body.token as string)).body.email_verified).toBe(false);

    const link = await verificationLink(invite.email);
    expect((await verify(link)).status).toBe(200);
    expect((await account(joined.body.token as string)).body.email_verified).toBe(true);
  });

  it('refuses a link after its 48 hours on the service clock', async () => {
    const { email, token } = await signup();
    const link = await verificationLink(email);
    clock.advance({ hours: 48 });
    expectError(await verify(link), 400, INVALID);
    expect((await account(token)).body.email_verified).toBe(false);
  });

  it('resend sends a fresh link that voids the older one, by bearer token or API key', async () => {
    const owner = await signup();
    const { email, token } = owner;
    const older = await verificationLink(email);
    const answer = await resend(bearer({ token }));
    expect({ status: answer.status, body: answer.body as unknown }).toEqual({ status: 202, body: {} });
    const newer = await verificationLink(email);
    expect(newer).not.toBe(older);
    expectError(await verify(older), 400, INVALID);

    const key = await createApiKey(t.app, owner);
    expect((await resend({ 'x-api-key': key })).status).toBe(202);
    const byKey = await verificationLink(email);
    expect(byKey).not.toBe(newer);
    expect((await verify(byKey)).status).toBe(200);
  });

  it('resend for an address already verified answers the same 202 and sends nothing', async () => {
    const { email, token } = await signup();
    expect((await verify(await verificationLink(email))).status).toBe(200);
    const before = mailbox.messages().length;
    const answer = await resend(bearer({ token }));
    expect({ status: answer.status, body: answer.body as unknown }).toEqual({ status: 202, body: {} });
    await t.assembly.mailWorker!.deliverNow();
    expect(mailbox.messages().length).toBe(before);
  });

  it('resend needs authentication', async () => {
    expectError(await request(t.app).post(`${AUTH}/email/verify/resend`), 401, 'Missing authentication');
  });

  it('refuses a token of another purpose: a password reset link does not verify', async () => {
    const { email, token } = await signup();
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email })).status).toBe(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
    const reset = linkToken(mailbox.latestTo(email)!.text, 'reset-password');
    expectError(await verify(reset), 400, INVALID);
    expect((await account(token)).body.email_verified).toBe(false);
  });

  it.each([
    ['a made-up token', 'f'.repeat(64)],
    ['a token of the wrong shape', 'not-a-token'],
    ['upper-case hex', 'F'.repeat(64)],
  ])('refuses %s with the same 400', async (_label, token) => {
    expectError(await verify(token), 400, INVALID);
  });

  it('answers a bad body with a 400 naming the field, never a 5xx', async () => {
    for (const body of [{}, { token: 42 }, { token: 'a'.repeat(64), extra: 1 }]) {
      const res = await request(t.app).post(`${AUTH}/email/verify`).send(body);
      expect(res.status).toBe(400);
    }
    expect((await request(t.app).post(`${AUTH}/email/verify`).send({})).body.error).toEqual(expect.stringContaining('token'));
  });

  it('records email.verified in the audit trail, and never the token', async () => {
    const { email, token } = await signup();
    const link = await verificationLink(email);
    expect((await verify(link)).status).toBe(200);
    const events = await request(t.app).get(`${AUTH}/audit-events`).set(bearer({ token }));
    expect((events.body.events as Array<{ action: string }>).map((e) => e.action)).toContain('email.verified');
    expect(JSON.stringify(events.body)).not.toContain(link);
  });
});

describe('the public link routes\' rate limit', () => {
  it('counts /email/verify and /email/change/confirm together per client address (RATE_LIMIT_RECOVERY)', async () => {
    const t = await buildTestApp({ rateLimits: { ...GENEROUS_RATE_LIMITS, recovery: 3 } });
    try {
      const answers: Response[] = [];
      for (const path of ['email/verify', 'email/change/confirm', 'email/verify', 'email/change/confirm']) {
        answers.push(await request(t.app).post(`${AUTH}/${path}`).send({ token: 'f'.repeat(64) }));
      }
      expect(answers.slice(0, 3).map((res) => res.status)).toEqual([400, 400, 400]);
      expectTooManyRequests(answers[3]!);
    } finally {
      await t.assembly.close();
    }
  });
});

describe('e-mail verification with no way to send mail', () => {
  it('signup still answers 201 and records email.skipped; resend answers 503', async () => {
    // Production without SMTP_URL: the service runs, and has no mailer.
    const assembly = await assembleForTest({}, testConfig({}, { nodeEnv: 'production', rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } }));
    try {
      expect(assembly.mailer).toBeUndefined();
      const email = uniqueEmail('nomail');
      const signup = await request(assembly.listener).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'No mail' });
      expect(signup.status).toBe(201);
      const headers = bearer({ token: signup.body.token as string });
      const events = await request(assembly.listener).get(`${AUTH}/audit-events`).set(headers);
      const skipped = (events.body.events as Array<{ action: string; details: unknown }>).filter((e) => e.action === 'email.skipped');
      expect(skipped.map((e) => e.details)).toEqual([{ kind: 'verify-email', reason: 'mail_not_configured' }]);

      expectError(await request(assembly.listener).post(`${AUTH}/email/verify/resend`).set(headers), 503, 'E-mail delivery is not configured');
      expectError(await request(assembly.listener).post(`${AUTH}/email/verify`).send({ token: 'a'.repeat(64) }), 400, INVALID);
    } finally {
      await assembly.close();
    }
  });
});
