import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Repositories } from '../../../src/application/ports/repositories';
import type { EmailToken } from '../../../src/domain/email-token';
import type { OutgoingMail } from '../../../src/domain/outgoing-mail';
import { minutesFrom, seedTenant, type StorageGetter } from '../storage-fixtures';

// The outbox is shared by every tenant, and on Postgres by every test file using the database. The
// cases below work at a time long past, which no other file's messages are due at, and start by
// finishing whatever an earlier run left due then.
const PAST = new Date('2000-01-01T00:00:00.000Z');

function aToken(tenantId: string, userId: string, email: string, overrides: Partial<EmailToken> = {}): EmailToken {
  return {
    id: randomUUID(), tenantId, userId, purpose: 'password_reset',
    tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'), email,
    createdAt: PAST, expiresAt: minutesFrom(PAST, 30), usedAt: null, ...overrides,
  };
}

function aMail(tenantId: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    id: randomUUID(), tenantId, kind: 'password-reset', recipient: `to-${randomUUID()}@example.test`,
    input: { token: randomBytes(32).toString('hex'), minutes: 30, tenant_name: 'Acme' }, createdAt: PAST, ...overrides,
  };
}

async function drainPast(repos: Repositories): Promise<void> {
  for (;;) {
    const left = await repos.outbox.claimDue(minutesFrom(PAST, 24 * 60), minutesFrom(PAST, 24 * 60 + 1), 500);
    if (left.length === 0) return;
    for (const mail of left) await repos.outbox.finish(mail.id, mail.attempt, { status: 'failed', at: PAST, error: 'left by an earlier run' });
  }
}

export function describeMailCases(storage: StorageGetter): void {
  describe('e-mail tokens', () => {
    test('findByHash answers the token with every field; consume uses it once', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const token = aToken(tenant.id, user.id, user.email);
      await repos.emailTokens.create(token);

      expect(await repos.emailTokens.findByHash(token.tokenHash)).toEqual(token);
      expect(await repos.emailTokens.findByHash(createHash('sha256').update('unknown').digest('hex'))).toBeNull();
      const at = minutesFrom(PAST, 5);
      expect(await repos.emailTokens.consume(tenant.id, token.id, at)).toBe(true);
      expect(await repos.emailTokens.consume(tenant.id, token.id, at)).toBe(false);
      expect(await repos.emailTokens.findByHash(token.tokenHash)).toEqual({ ...token, usedAt: at });
    });

    test('consume refuses an expired token, another tenant\'s token and an unknown id', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const token = aToken(a.tenant.id, a.user.id, a.user.email);
      await repos.emailTokens.create(token);

      expect(await repos.emailTokens.consume(b.tenant.id, token.id, PAST)).toBe(false);
      expect(await repos.emailTokens.consume(a.tenant.id, randomUUID(), PAST)).toBe(false);
      expect(await repos.emailTokens.consume(a.tenant.id, token.id, token.expiresAt)).toBe(false);
      expect((await repos.emailTokens.findByHash(token.tokenHash))?.usedAt).toBeNull();
    });

    test('voidUnused voids the member\'s unused tokens of one purpose only', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const older = aToken(tenant.id, user.id, user.email);
      const newer = aToken(tenant.id, user.id, user.email);
      const verify = aToken(tenant.id, user.id, user.email, { purpose: 'email_verify' });
      for (const token of [older, newer, verify]) await repos.emailTokens.create(token);

      const at = minutesFrom(PAST, 1);
      expect(await repos.emailTokens.voidUnused(tenant.id, user.id, 'password_reset', at)).toBe(2);
      expect(await repos.emailTokens.voidUnused(tenant.id, user.id, 'password_reset', at)).toBe(0);
      expect((await repos.emailTokens.findByHash(older.tokenHash))?.usedAt).toEqual(at);
      expect((await repos.emailTokens.findByHash(verify.tokenHash))?.usedAt).toBeNull();
    });
  });

  describe('verified addresses', () => {
    test('markEmailVerified holds only for the member\'s current address and keeps the first time', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      expect(await repos.users.emailVerifiedAt(tenant.id, user.id)).toBeNull();
      expect(await repos.users.markEmailVerified(tenant.id, user.id, 'someone-else@example.test', PAST)).toBe(false);
      expect(await repos.users.emailVerifiedAt(tenant.id, user.id)).toBeNull();

      expect(await repos.users.markEmailVerified(tenant.id, user.id, user.email, PAST)).toBe(true);
      expect(await repos.users.markEmailVerified(tenant.id, user.id, user.email, minutesFrom(PAST, 9))).toBe(true);
      expect(await repos.users.emailVerifiedAt(tenant.id, user.id)).toEqual(PAST);
    });

    test('changeEmail moves the member to a free address, proven, and ends their sessions', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const other = await seedTenant(repos);
      const to = `moved-${randomUUID()}@example.test`;

      await expect(repos.users.changeEmail(tenant.id, user.id, { from: user.email, to: other.user.email }, PAST))
        .rejects.toMatchObject({ code: 'EMAIL_ALREADY_REGISTERED' });
      expect(await repos.users.changeEmail(tenant.id, user.id, { from: 'not-theirs@example.test', to }, PAST)).toBeNull();
      const moved = await repos.users.changeEmail(tenant.id, user.id, { from: user.email, to }, PAST);
      expect(moved).toEqual({ ...user, email: to, authVersion: user.authVersion + 1 });
      expect(await repos.users.emailVerifiedAt(tenant.id, user.id)).toEqual(PAST);
      expect(await repos.users.findByEmail(user.email)).toBeNull();
      expect((await repos.users.findByEmail(to))?.id).toBe(user.id);
    });
  });

  describe('the outbox', () => {
    test('an enqueued message is claimed once, with its input, and not again while its lease lives', async () => {
      const { repos } = storage();
      await drainPast(repos);
      const { tenant } = await seedTenant(repos);
      const mail = aMail(tenant.id);
      await repos.outbox.enqueue(mail);

      expect(await repos.outbox.claimDue(minutesFrom(PAST, -1), minutesFrom(PAST, 5), 10)).toEqual([]);
      const claimed = await repos.outbox.claimDue(PAST, minutesFrom(PAST, 5), 10);
      expect(claimed).toEqual([{ ...mail, attempt: 1 }]);
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 4), minutesFrom(PAST, 9), 10)).toEqual([]);
      // The worker that held it died: its lease ends and another claim takes the next attempt.
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 5), minutesFrom(PAST, 10), 10)).toEqual([{ ...mail, attempt: 2 }]);
      // The first attempt can no longer be finished; the second can, once.
      const sent = { status: 'sent', at: minutesFrom(PAST, 6) } as const;
      expect(await repos.outbox.finish(mail.id, 1, sent)).toBe(false);
      expect(await repos.outbox.finish(mail.id, 2, sent)).toBe(true);
      expect(await repos.outbox.finish(mail.id, 2, sent)).toBe(false);
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 60), minutesFrom(PAST, 61), 10)).toEqual([]);
    });

    test('a retry is due again from its next attempt; a failure is final', async () => {
      const { repos } = storage();
      await drainPast(repos);
      const { tenant } = await seedTenant(repos);
      const mail = aMail(tenant.id);
      await repos.outbox.enqueue(mail);

      const [first] = await repos.outbox.claimDue(PAST, minutesFrom(PAST, 5), 10);
      expect(await repos.outbox.finish(mail.id, first!.attempt, {
        status: 'retry', at: PAST, nextAttemptAt: minutesFrom(PAST, 2), error: '421 try later',
      })).toBe(true);
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 1), minutesFrom(PAST, 6), 10)).toEqual([]);
      const [second] = await repos.outbox.claimDue(minutesFrom(PAST, 2), minutesFrom(PAST, 7), 10);
      expect(second).toEqual({ ...mail, attempt: 2 });
      expect(await repos.outbox.finish(mail.id, 2, { status: 'failed', at: minutesFrom(PAST, 2), error: '550 no such user' })).toBe(true);
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 60), minutesFrom(PAST, 61), 10)).toEqual([]);
    });

    test('claims take the oldest due first, at most the limit', async () => {
      const { repos } = storage();
      await drainPast(repos);
      const { tenant } = await seedTenant(repos);
      const mails = [3, 1, 2].map((minutes) => aMail(tenant.id, { createdAt: minutesFrom(PAST, minutes) }));
      for (const mail of mails) await repos.outbox.enqueue(mail);

      const now = minutesFrom(PAST, 10);
      const firstTwo = await repos.outbox.claimDue(now, minutesFrom(now, 5), 2);
      expect(firstTwo.map((m) => m.id)).toEqual([mails[1]!.id, mails[2]!.id]);
      const rest = await repos.outbox.claimDue(now, minutesFrom(now, 5), 2);
      expect(rest.map((m) => m.id)).toEqual([mails[0]!.id]);
      for (const mail of [...firstTwo, ...rest]) await repos.outbox.finish(mail.id, mail.attempt, { status: 'sent', at: now });
    });

    test('pruneFinished drops sent and failed messages finished before the time given, never a pending one', async () => {
      const { repos } = storage();
      await drainPast(repos);
      const { tenant } = await seedTenant(repos);
      const [sent, failed, pending] = [aMail(tenant.id), aMail(tenant.id), aMail(tenant.id, { createdAt: minutesFrom(PAST, 60) })];
      for (const mail of [sent, failed, pending]) await repos.outbox.enqueue(mail);
      const claimed = await repos.outbox.claimDue(minutesFrom(PAST, 1), minutesFrom(PAST, 5), 10);
      expect(claimed.map((m) => m.id).sort()).toEqual([sent.id, failed.id].sort());
      // Finished at times no other case uses (they all finish at PAST or later).
      const finishedAt = new Date('1990-01-01T00:00:00.000Z');
      await repos.outbox.finish(sent.id, 1, { status: 'sent', at: minutesFrom(finishedAt, 2) });
      await repos.outbox.finish(failed.id, 1, { status: 'failed', at: minutesFrom(finishedAt, 3), error: '550' });

      expect(await repos.outbox.pruneFinished(minutesFrom(finishedAt, 2))).toBe(0);
      expect(await repos.outbox.pruneFinished(minutesFrom(finishedAt, 3))).toBe(1);
      expect(await repos.outbox.pruneFinished(minutesFrom(finishedAt, 600))).toBe(1);
      const [left] = await repos.outbox.claimDue(minutesFrom(PAST, 60), minutesFrom(PAST, 65), 10);
      expect(left?.id).toBe(pending.id);
      await repos.outbox.finish(pending.id, left!.attempt, { status: 'sent', at: minutesFrom(PAST, 60) });
    });

    test('a message enqueued in a unit of work that fails is never claimed', async () => {
      const { repos, unitOfWork } = storage();
      await drainPast(repos);
      const { tenant } = await seedTenant(repos);
      await expect(unitOfWork.run(async (tx) => {
        await tx.outbox.enqueue(aMail(tenant.id));
        throw new Error('the change failed');
      })).rejects.toThrow('the change failed');
      expect(await repos.outbox.claimDue(minutesFrom(PAST, 60), minutesFrom(PAST, 61), 10)).toEqual([]);
    });
  });
}

/** Postgres only: workers on several connections at once. */
export function describeConcurrentMailCases(storage: StorageGetter): void {
  test('concurrent claims never hand the same message to two workers', async () => {
    const { repos } = storage();
    await drainPast(repos);
    const { tenant } = await seedTenant(repos);
    const mails = Array.from({ length: 40 }, () => aMail(tenant.id));
    for (const mail of mails) await repos.outbox.enqueue(mail);

    const now = minutesFrom(PAST, 1);
    const claims = await Promise.all(Array.from({ length: 8 }, () => repos.outbox.claimDue(now, minutesFrom(now, 5), 7)));
    const ids = claims.flat().map((mail) => mail.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rest = await repos.outbox.claimDue(now, minutesFrom(now, 5), 100);
    expect([...ids, ...rest.map((m) => m.id)].sort()).toEqual(mails.map((m) => m.id).sort());
    for (const mail of [...claims.flat(), ...rest]) await repos.outbox.finish(mail.id, mail.attempt, { status: 'sent', at: now });
  });
}
