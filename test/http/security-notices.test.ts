import type { DevelopmentMailbox, MailboxMessage } from '../../src/adapters/mail/development-mailbox';
import { request } from '../support/contract-request';
import { buildTestApp, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import { AUTH, bearer, expectError, joinWithRole, signupOwner, type Account } from '../support/http-fixtures';
import { assembleForTest, testConfig } from '../support/test-use-cases';

/**
 * The notices a member gets when something changes about their access (ASVS V6.3.7: users are told
 * of changes to their authentication details), each once, to that member, naming the tenant, and
 * never carrying a secret.
 */
describe('security notices', () => {
  let t: TestApp;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    t = await buildTestApp();
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  /** Every message delivered since `before` (a count of the mailbox's messages). */
  async function deliveredSince(before: number): Promise<MailboxMessage[]> {
    await t.assembly.mailWorker!.deliverNow();
    return mailbox.messages().slice(before);
  }

  async function settledMailbox(): Promise<number> {
    await t.assembly.mailWorker!.deliverNow();
    return mailbox.messages().length;
  }

  function expectNoSecret(message: MailboxMessage, secrets: readonly string[]): void {
    for (const secret of secrets) {
      expect(message.text).not.toContain(secret);
      expect(message.html).not.toContain(secret);
    }
  }

  it("api-key-created goes once to the key's owner, with its name and prefix, never the key", async () => {
    const owner = await signupOwner(t.app, 'Keys & Co');
    const admin = await joinWithRole(t.app, owner, 'admin');
    const before = await settledMailbox();

    const res = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(admin)).send({ name: 'deploy bot' });
    expect(res.status).toBe(201);
    const sent = await deliveredSince(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([[admin.email, 'A new API key was created in Keys & Co']]);
    expect(sent[0]!.text).toContain(`An API key named "deploy bot" (starting ${res.body.prefix}) was created with your account in Keys & Co`);
    expectNoSecret(sent[0]!, [res.body.api_key as string, (res.body.api_key as string).slice(res.body.prefix.length), admin.token]);
  });

  it('an unnamed key is described by its prefix alone', async () => {
    const owner = await signupOwner(t.app, 'Unnamed');
    const before = await settledMailbox();
    const res = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(owner));
    expect(res.status).toBe(201);
    const [notice, ...more] = await deliveredSince(before);
    expect(more).toEqual([]);
    expect(notice!.to).toBe(owner.email);
    expect(notice!.text).toContain(`An API key starting ${res.body.prefix} was created with your account in Unnamed`);
    expectNoSecret(notice!, [res.body.api_key as string]);
  });

  it('role-changed goes once to the member, with the old and the new role; setting the same role again sends nothing', async () => {
    const owner = await signupOwner(t.app, 'Roles Inc');
    const member = await joinWithRole(t.app, owner, 'member');
    const before = await settledMailbox();

    const res = await request(t.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'admin' });
    expect(res.status).toBe(200);
    const sent = await deliveredSince(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([[member.email, 'Your role in Roles Inc was changed']]);
    expect(sent[0]!.text).toContain('was changed from member to admin');
    expectNoSecret(sent[0]!, [member.token, owner.token]);

    const again = await settledMailbox();
    await request(t.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'admin' }).expect(200);
    expect(await deliveredSince(again)).toEqual([]);
  });

  it('a refused role change sends nothing', async () => {
    const owner = await signupOwner(t.app, 'Refusals');
    const admin = await joinWithRole(t.app, owner, 'admin');
    const before = await settledMailbox();
    // Only an owner changes an owner.
    expectError(await request(t.app).patch(`${AUTH}/members/${owner.userId}`).set(bearer(admin)).send({ role: 'member' }), 403, 'Only an owner can change, remove or grant the owner role');
    expect(await deliveredSince(before)).toEqual([]);
  });

  it('member-removed goes once to the removed member, at the address they had; a second removal sends nothing', async () => {
    const owner = await signupOwner(t.app, 'Removals');
    const member = await joinWithRole(t.app, owner, 'viewer');
    const before = await settledMailbox();

    await request(t.app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)).expect(200);
    const sent = await deliveredSince(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([[member.email, 'You were removed from Removals']]);
    expect(sent[0]!.text).toContain(`your account (${member.email}) was removed from Removals`);
    expectNoSecret(sent[0]!, [member.token, owner.token]);

    const again = await settledMailbox();
    expectError(await request(t.app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)), 404, 'Member not found');
    expect(await deliveredSince(again)).toEqual([]);
  });

  it('revoking a key sends nothing, the first time or again', async () => {
    const owner = await signupOwner(t.app, 'Revokes');
    const created = await request(t.app).post(`${AUTH}/api-keys`).set(bearer(owner)).expect(201);
    const before = await settledMailbox();
    for (let i = 0; i < 2; i += 1) await request(t.app).delete(`${AUTH}/api-keys/${created.body.id}`).set(bearer(owner)).expect(200);
    expect(await deliveredSince(before)).toEqual([]);
  });
});

describe('security notices with no way to send mail', () => {
  it('the change is made and the trail records each notice as email.skipped, naming the member', async () => {
    const config = testConfig({}, { nodeEnv: 'production', rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } });
    const assembly = await assembleForTest({}, config);
    try {
      const app = assembly.listener;
      const owner = await signupOwner(app, 'No mail');
      const member: Account = await joinWithRole(app, owner, 'member');
      await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).expect(201);
      await request(app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
      await request(app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)).expect(200);

      const trail = await request(app).get(`${AUTH}/audit-events?action=email.skipped`).set(bearer(owner)).expect(200);
      const skipped = (trail.body.events as Array<{ target_id: string | null; details: { kind: string } }>)
        .map((e) => [e.details.kind, e.target_id])
        .filter(([kind]) => kind !== 'invitation');
      expect(skipped.sort()).toEqual([
        ['api-key-created', owner.userId],
        ['member-removed', member.userId],
        ['role-changed', member.userId],
        ...[['verify-email', member.userId], ['verify-email', owner.userId]].sort(),
      ]);
    } finally {
      await assembly.close();
    }
  });
});
