import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { AuditTrail } from '../../src/application/audit/audit-trail';
import { MailDelivery, type DeliveryPolicy } from '../../src/application/mail/mail-delivery';
import type { MailSendLimits } from '../../src/application/ports/mail-send-limits';
import { Postbox } from '../../src/application/mail/postbox';
import { MailDeliveryFailed, type Mailer, type MailMessage } from '../../src/application/ports/mailer';
import type { OutgoingMail } from '../../src/domain/outgoing-mail';
import { renderStoredMail } from '../../src/application/mail/render-mail';
import { TestClock } from '../../src/testing/test-clock';

const POLICY: DeliveryPolicy = { maxAttempts: 3, retryBaseMs: 60_000, retryMaxMs: 90_000, leaseMs: 300_000, batch: 10, concurrency: 1, keepFinishedMs: 86_400_000 };

/** A transport that answers each send with the next scripted outcome (then accepts everything). */
class ScriptedMailer implements Mailer {
  readonly accepted: MailMessage[] = [];
  attempts = 0;
  constructor(private readonly script: Array<'ok' | 'temporary' | 'permanent'> = []) {}
  async send(message: MailMessage): Promise<void> {
    this.attempts += 1;
    const next = this.script.shift() ?? 'ok';
    if (next === 'temporary') throw new MailDeliveryFailed(true, 'The SMTP server deferred the message (421): busy');
    if (next === 'permanent') throw new MailDeliveryFailed(false, 'The SMTP server refused the message (550): no such user');
    this.accepted.push(message);
  }
}

const render = (mail: OutgoingMail): MailMessage => renderStoredMail(mail.kind, mail.input, { publicUrl: 'https://auth.example.test' });
const CHANGED_AT = '2026-01-01T00:00:00.000Z';

async function world(script: Array<'ok' | 'temporary' | 'permanent'> = [], allowance?: MailSendLimits) {
  const storage = createMemoryStorage();
  const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
  const ids = new RandomUuidGenerator();
  const trail = new AuditTrail({ ids, clock });
  const mailer = new ScriptedMailer(script);
  const postbox = new Postbox({ enabled: true, ids, clock, trail });
  const delivery = new MailDelivery({ repos: storage.repos, unitOfWork: storage.unitOfWork, mailer, render, limits: allowance, clock, trail, policy: POLICY });
  const tenantId = ids.newId();
  const post = (changedAt = CHANGED_AT) => storage.unitOfWork.run((tx) => postbox.post(tx, {
    tenantId, mail: { kind: 'password-changed', input: { to: 'ada@example.test', tenantName: 'Acme', changedAt } },
  }, {}));
  const events = async () => (await storage.repos.auditEvents.list(tenantId, { limit: 50 })).map((e) => ({ action: e.action, details: e.details }));
  return { storage, clock, mailer, delivery, post, events, tenantId };
}

describe('mail delivery from the outbox', () => {
  it('sends a posted message once, and records email.sent', async () => {
    const { mailer, delivery, post, events } = await world();
    await post();
    expect(await delivery.deliverDue()).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    expect(await delivery.deliverDue()).toEqual({ claimed: 0, sent: 0, retried: 0, failed: 0 });
    expect(mailer.accepted).toEqual([render({ id: 'x', tenantId: 'x', kind: 'password-changed', recipient: 'ada@example.test', input: { to: 'ada@example.test', tenantName: 'Acme', changedAt: CHANGED_AT }, createdAt: new Date() })]);
    expect(mailer.accepted[0]).toMatchObject({ to: 'ada@example.test', subject: 'Your password for Acme was changed' });
    expect(await events()).toEqual([{ action: 'email.sent', details: { kind: 'password-changed', attempts: 1 } }]);
  });

  it('retries a deferred message after a doubling wait (capped), on the clock, then sends it', async () => {
    const { clock, mailer, delivery, post, events } = await world(['temporary', 'temporary']);
    await post();
    expect((await delivery.deliverDue()).retried).toBe(1);
    clock.advance({ seconds: 59 });
    expect((await delivery.deliverDue()).claimed).toBe(0);
    clock.advance({ seconds: 1 });
    expect((await delivery.deliverDue()).retried).toBe(1);
    // The second wait would be 120 s; the cap is 90 s.
    clock.advance({ seconds: 90 });
    expect(await delivery.deliverDue()).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    expect(mailer.attempts).toBe(3);
    expect(await events()).toEqual([{ action: 'email.sent', details: { kind: 'password-changed', attempts: 3 } }]);
  });

  it('fails for good after the last attempt, and at once on a permanent refusal; email.failed says why', async () => {
    const { clock, delivery, post, events, mailer } = await world(['temporary', 'temporary', 'temporary', 'permanent']);
    await post();
    for (let i = 0; i < 2; i += 1) {
      expect((await delivery.deliverDue()).retried).toBe(1);
      clock.advance({ hours: 1 });
    }
    expect((await delivery.deliverDue()).failed).toBe(1);
    await post();
    expect((await delivery.deliverDue()).failed).toBe(1);
    clock.advance({ days: 1 });
    expect((await delivery.deliverDue()).claimed).toBe(0);
    expect(mailer.accepted).toEqual([]);
    expect(await events()).toEqual([
      { action: 'email.failed', details: { kind: 'password-changed', attempts: 1, reason: 'The SMTP server refused the message (550): no such user' } },
      { action: 'email.failed', details: { kind: 'password-changed', attempts: 3, reason: 'The SMTP server deferred the message (421): busy' } },
    ]);
  });

  it('a message that cannot be rendered fails without reaching the transport', async () => {
    const { delivery, post, events, mailer } = await world();
    await post('last tuesday');
    expect((await delivery.deliverDue()).failed).toBe(1);
    expect(mailer.attempts).toBe(0);
    expect(await events()).toEqual([{
      action: 'email.failed',
      details: { kind: 'password-changed', attempts: 1, reason: 'not rendered: mail input changedAt: must be an ISO 8601 instant such as 2030-01-31T14:00:00.000Z' },
    }]);
  });

  it('a message over a send limit is not sent, ever; a limit store that fails is retried later', async () => {
    let answer: boolean | 'down' = false;
    const allowance: MailSendLimits = { take: async () => { if (answer === 'down') throw new Error('store down'); return answer; } };
    const { clock, delivery, post, events, mailer } = await world([], allowance);
    await post();
    expect((await delivery.deliverDue()).failed).toBe(1);
    answer = 'down';
    await post();
    expect((await delivery.deliverDue()).retried).toBe(1);
    answer = true;
    clock.advance({ minutes: 1 });
    expect((await delivery.deliverDue()).sent).toBe(1);
    expect(mailer.accepted).toHaveLength(1);
    expect((await events()).map((e) => e.action)).toEqual(['email.sent', 'email.failed']);
  });

  it('a worker that died holding a claim lets go when its lease ends; the late finish of its attempt is ignored', async () => {
    const { storage, clock, delivery, post, events } = await world();
    await post();
    const now = clock.now();
    const [stale] = await storage.repos.outbox.claimDue(now, new Date(now.getTime() + POLICY.leaseMs), 10);
    expect((await delivery.deliverDue()).claimed).toBe(0);
    clock.advance({ seconds: POLICY.leaseMs / 1000 });
    expect((await delivery.deliverDue()).sent).toBe(1);
    expect(await storage.repos.outbox.finish(stale!.id, stale!.attempt, { status: 'sent', at: clock.now() })).toBe(false);
    expect((await events()).map((e) => e.action)).toEqual(['email.sent']);
  });

  it('with mail off, nothing is queued and the trail says the message was skipped', async () => {
    const storage = createMemoryStorage();
    const clock = new TestClock();
    const ids = new RandomUuidGenerator();
    const trail = new AuditTrail({ ids, clock });
    const postbox = new Postbox({ enabled: false, ids, clock, trail });
    const tenantId = ids.newId();
    const userId = ids.newId();
    await storage.unitOfWork.run((tx) => postbox.post(tx, {
      tenantId, userId, mail: { kind: 'verify-email', input: { to: 'a@example.test', tenantName: 'Acme', token: 'a'.repeat(64), validHours: 48 } },
    }, {}));
    expect(await storage.repos.outbox.claimDue(new Date(Date.now() + 86_400_000), new Date(Date.now() + 90_000_000), 10)).toEqual([]);
    const [event] = await storage.repos.auditEvents.list(tenantId, { limit: 5 });
    expect(event).toMatchObject({ action: 'email.skipped', targetId: userId, details: { kind: 'verify-email', reason: 'mail_not_configured' } });
  });

  it('keeps finished messages a while, then prunes them; a message still pending is never pruned', async () => {
    const { storage, clock, delivery, post } = await world(['permanent', 'temporary']);
    await post();
    await post();
    expect(await delivery.deliverDue()).toMatchObject({ failed: 1, retried: 1 });
    clock.advance({ hours: 23 });
    expect(await delivery.prune()).toBe(0);
    clock.advance({ hours: 2 });
    expect(await delivery.prune()).toBe(1);
    // The pending one is still there, and is delivered.
    expect(await delivery.deliverDue()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await storage.repos.outbox.pruneFinished(new Date(clock.now().getTime() + 1))).toBe(1);
  });
});
