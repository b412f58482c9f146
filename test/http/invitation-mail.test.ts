import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { DevelopmentMailbox, MailboxMessage } from '../../src/adapters/mail/development-mailbox';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import { AUTH, bearer, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { assembleForTest, testConfig, uniqueEmail } from '../support/test-use-cases';

const START = new Date('2030-01-01T00:00:00.000Z');
const TTL_SECONDS = 86_400;
const JOIN = 'http://localhost:3000/console/join?token=';

async function inviteId(app: RequestListener, admin: Account, email: string): Promise<string> {
  const res = await request(app).get(`${AUTH}/invites`).set(bearer(admin)).expect(200);
  const found = (res.body.invites as Array<{ id: string; email: string }>).find((i) => i.email === email);
  if (!found) throw new Error(`no pending invite for ${email}`);
  return found.id;
}

async function actionsOf(app: RequestListener, admin: Account, action: string) {
  const res = await request(app).get(`${AUTH}/audit-events?action=${action}`).set(bearer(admin)).expect(200);
  return res.body.events as Array<{ actor_user_id: string | null; target_id: string | null; details: Record<string, unknown> }>;
}

describe('invitation e-mails', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    clock = new TestClock(START);
    t = await buildTestApp({}, { clock, inviteTtlSeconds: TTL_SECONDS });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  async function invite(admin: Account, email: string, role = 'member') {
    const res = await request(t.app).post(`${AUTH}/invite`).set(bearer(admin)).send({ email, role });
    expect(res.status).toBe(201);
    return res.body as { invite_token: string; expires_at: string };
  }

  function messagesTo(address: string): MailboxMessage[] {
    return mailbox.messages().filter((m) => m.to === address);
  }

  async function resend(caller: Account, id: string) {
    return request(t.app).post(`${AUTH}/invites/${id}/resend`).set(bearer(caller));
  }

  it('POST /invite answers the contract\'s body and sends the invitee the inviter, role, tenant, expiry and the join link', async () => {
    const owner = await signupOwner(t.app, 'Invite <Co>');
    const email = uniqueEmail('invitee');
    const res = await request(t.app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email, role: 'viewer' });
    expect(res.status).toBe(201);
    const expiresAt = new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString();
    expect(res.body).toEqual({ invite_token: expect.stringMatching(/^[0-9a-f]{64}$/), expires_at: expiresAt });

    await t.assembly.mailWorker!.deliverNow();
    const [message, ...more] = messagesTo(email);
    expect(more).toEqual([]);
    expect(message!.subject).toBe('You are invited to join Invite <Co>');
    expect(message!.text).toContain(`${owner.email} invited you (${email}) to join Invite <Co> as a viewer.`);
    expect(message!.text).toContain(`${JOIN}${res.body.invite_token}`);
    expect(message!.text).toContain('before 2 January 2030, 00:00 UTC');
    // The tenant's name is the owner's typing: escaped in the HTML, never markup.
    expect(message!.html).toContain('Invite &lt;Co&gt;');
    expect(message!.html).not.toContain('Invite <Co>');
  });

  it('an address that already has an account, in any tenant, is told it cannot accept: no link, no token', async () => {
    const elsewhere = await signupOwner(t.app, 'Elsewhere');
    const owner = await signupOwner(t.app, 'Inviting');
    const created = await invite(owner, elsewhere.email);

    await t.assembly.mailWorker!.deliverNow();
    const message = mailbox.latestTo(elsewhere.email)!;
    expect(message.subject).toBe('You are invited to join Inviting');
    expect(message.text).toContain('already belongs to an account, and an address belongs to one organization only');
    expect(message.text).not.toContain('/console/join');
    expect(message.text).not.toContain(created.invite_token);
    expect(message.html).not.toContain(created.invite_token);
    expect(message.text).not.toContain('Elsewhere');
  });

  it('resend answers 202 {} and sends a new message with the same link, naming the inviter; the trail records invite.resent', async () => {
    const owner = await signupOwner(t.app, 'Resending');
    const admin = await joinWithRole(t.app, owner, 'admin');
    const email = uniqueEmail('resent');
    const created = await invite(owner, email, 'admin');
    const id = await inviteId(t.app, owner, email);
    await t.assembly.mailWorker!.deliverNow();

    const res = await resend(admin, id);
    expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: {} });
    await t.assembly.mailWorker!.deliverNow();
    const [first, second, ...more] = messagesTo(email);
    expect(more).toEqual([]);
    expect(second!.text).toBe(first!.text);
    expect(second!.text).toContain(`${JOIN}${created.invite_token}`);
    expect(second!.text).toContain(`${owner.email} invited you`);

    expect(await actionsOf(t.app, owner, 'invite.resent')).toEqual([
      expect.objectContaining({ actor_user_id: admin.userId, target_id: id, details: { email, role: 'admin' } }),
    ]);
    // The link still works: the invite was not replaced.
    const joined = await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: created.invite_token });
    expect(joined.status).toBe(201);
  });

  it('an accepted invite answers 400 "Invite already accepted", an expired one 400 "Invite expired", and neither sends anything', async () => {
    const owner = await signupOwner(t.app, 'States');
    const acceptedEmail = uniqueEmail('accepted');
    const accepted = await invite(owner, acceptedEmail);
    const acceptedId = await inviteId(t.app, owner, acceptedEmail);
    await request(t.app).post(`${AUTH}/signup`).send({ email: acceptedEmail, password: PASSWORD, invite_token: accepted.invite_token }).expect(201);
    const expiringEmail = uniqueEmail('expiring');
    await invite(owner, expiringEmail);
    const expiringId = await inviteId(t.app, owner, expiringEmail);
    await t.assembly.mailWorker!.deliverNow();
    const before = mailbox.messages().length;

    expectError(await resend(owner, acceptedId), 400, 'Invite already accepted');
    clock.advance({ seconds: TTL_SECONDS });
    expectError(await resend(owner, expiringId), 400, 'Invite expired');
    await t.assembly.mailWorker!.deliverNow();
    expect(mailbox.messages().length).toBe(before);
    expect(await actionsOf(t.app, owner, 'invite.resent')).toEqual([]);
  });

  it('an unknown id, a malformed one and another tenant\'s invite get the same 404, recorded as access.denied (ASVS V8.2.2)', async () => {
    const owner = await signupOwner(t.app, 'Ours');
    const stranger = await signupOwner(t.app, 'Theirs');
    const theirsEmail = uniqueEmail('theirs');
    await invite(stranger, theirsEmail);
    const theirs = await inviteId(t.app, stranger, theirsEmail);
    await t.assembly.mailWorker!.deliverNow();
    const before = messagesTo(theirsEmail).length;

    for (const id of [randomUUID(), 'not-an-id', theirs]) expectError(await resend(owner, id), 404, 'Invite not found');
    await t.assembly.mailWorker!.deliverNow();
    expect(messagesTo(theirsEmail).length).toBe(before);
    const denied = await actionsOf(t.app, owner, 'access.denied');
    expect(denied).toEqual(expect.arrayContaining([
      expect.objectContaining({ actor_user_id: owner.userId, target_id: theirs, details: { reason: 'tenant', resource: 'invite' } }),
    ]));
    expect(await actionsOf(t.app, stranger, 'access.denied')).toEqual([]);
  });

  it.each(['member', 'viewer'] as const)('a %s is refused with 403 and nothing is sent (ASVS V8.2.1)', async (role) => {
    const owner = await signupOwner(t.app, 'Roles');
    const user = await joinWithRole(t.app, owner, role);
    const email = uniqueEmail('roles');
    await invite(owner, email);
    const id = await inviteId(t.app, owner, email);
    await t.assembly.mailWorker!.deliverNow();

    expectError(await resend(user, id), 403, 'Requires admin role or higher');
    await t.assembly.mailWorker!.deliverNow();
    expect(messagesTo(email)).toHaveLength(1);
  });
});

describe('invitations with no way to send mail', () => {
  it('POST /invite still answers 201 and the trail records email.skipped; resend answers 503', async () => {
    // Production without SMTP_URL: the service runs, and has no mailer.
    const config = testConfig({}, { nodeEnv: 'production', rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } });
    // A 503 from a rule (mail not configured) is an answer, not a failure: nothing is logged.
    const logged: unknown[] = [];
    const assembly = await assembleForTest({}, config, { onError: (err) => logged.push(err) });
    try {
      expect(assembly.mailer).toBeUndefined();
      const app = assembly.listener;
      const owner = await signupOwner(app, 'No mail');
      const email = uniqueEmail('nomail');
      const res = await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ invite_token: expect.stringMatching(/^[0-9a-f]{64}$/), expires_at: expect.any(String) });

      const skipped = await actionsOf(app, owner, 'email.skipped');
      // Newest first: the invitation's, then the owner's own verification at signup.
      expect(skipped).toEqual([
        expect.objectContaining({ details: { kind: 'invitation', reason: 'mail_not_configured' } }),
        expect.objectContaining({ details: { kind: 'verify-email', reason: 'mail_not_configured' }, target_id: owner.userId }),
      ]);
      expect(JSON.stringify(skipped)).not.toContain(res.body.invite_token);

      const id = await inviteId(app, owner, email);
      for (const target of [id, randomUUID()]) {
        expectError(await request(app).post(`${AUTH}/invites/${target}/resend`).set(bearer(owner)), 503, 'E-mail delivery is not configured');
      }
      expect(logged).toEqual([]);
    } finally {
      await assembly.close();
    }
  });
});
