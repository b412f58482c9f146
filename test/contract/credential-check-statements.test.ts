import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { BatchedSessionActivity } from '../../src/adapters/cache/batched-session-activity';
import type { Storage } from '../../src/adapters/persistence/storage';
import { type OpenedStorage } from '../../src/bootstrap/database';
import { TestClock } from '../../src/testing/test-clock';
import { assertPgliteCanLoadInJest } from '../support/pglite';
import { openTestStorage } from '../support/test-storage';
import { describeIfPostgres } from '../support/postgres';
import { type SqlBackend, statementsDuring } from '../support/statement-counter';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';
import { aSession } from './cases/session-cases';
import { anApiKey, seedTenant } from './storage-fixtures';

assertPgliteCanLoadInJest();

const MINUTE_S = 60;

/**
 * What the credential check costs the database, counted in statements as the driver sends them
 * (test/support/statement-counter.ts), never timed: a miss is one statement, with no transaction
 * of its own; a hit is none; a request never writes; key usage is one write per interval.
 */
function describeCredentialCheck(backend: SqlBackend, open: () => Promise<OpenedStorage>): void {
  describe(`the credential check's statements on ${backend}`, () => {
    let opened: OpenedStorage;
    let storage: Storage;
    beforeAll(async () => {
      // Nothing listening: no follower reads the change log in the background of a count. The
      // freshness check's one statement per round (shared by every request of the round) is not the
      // credential check's: it is off here, and proved in test/unit/shared-freshness-check.test.ts.
      opened = { ...(await open()), listenForChanges: undefined, shared: false };
      storage = opened.storage;
    });
    /** Each service's credential feed: closed before the storage they share, so none reads a closed one. */
    const feeds: Array<{ close(): Promise<void> }> = [];
    afterAll(async () => {
      for (const feed of feeds.splice(0)) await feed.close();
      await storage.close();
    });

    async function service() {
      const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
      const keyUsage = new BatchedApiKeyUsage(storage.repos.apiKeys, clock, (error) => { throw error; });
      const { useCases, assembly } = await buildTestUseCases({ opened, clock, keyUsage });
      feeds.push(assembly.feed);
      const { credentials } = assembly.feed;
      const { token } = await useCases.signup.execute({ email: uniqueEmail(), password: 'correct horse battery', tenantName: 'Statements' });
      const principal = await useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${token}` });
      const check = (credential: { apiKey?: string; token?: string }) => useCases.authenticate.execute({
        apiKey: credential.apiKey, authorization: credential.token === undefined ? undefined : `Bearer ${credential.token}`,
      });
      return { useCases, clock, credentials, keyUsage, token, principal, check };
    }

    test('a key not in memory costs one statement, which brings its owner too; a key in memory costs none; no request writes', async () => {
      const { useCases, credentials, keyUsage, principal, check } = await service();
      const { apiKey } = await useCases.createApiKey.execute(principal);
      credentials.resume(); // forgets everything: the next check misses

      const miss = await statementsDuring(backend, async () => {
        await expect(check({ apiKey })).resolves.toMatchObject({ userId: principal.userId, method: 'api_key' });
        await keyUsage.settled();
      });
      expect(miss).toHaveLength(1);
      expect(miss[0]).toMatch(/lookup_active_api_key/);

      const hit = await statementsDuring(backend, async () => {
        await check({ apiKey });
        await keyUsage.settled();
      });
      expect(hit).toEqual([]);
    });

    test('a member and their session not in memory cost one statement each, with no transaction or tenant setting of their own', async () => {
      const { credentials, token, principal, check } = await service();
      credentials.resume();

      const miss = await statementsDuring(backend, () => check({ token }));
      expect(miss).toHaveLength(2);
      expect(miss[0]).toMatch(/lookup_member_auth_state/);
      expect(miss[1]).toMatch(/lookup_live_session/);
      expect(await statementsDuring(backend, () => check({ token }))).toEqual([]);

      // A member of another tenant (or none) is one statement too, and refused.
      credentials.resume();
      const other = await seedTenant(storage.repos, 'admin');
      expect(await statementsDuring(backend, async () => {
        expect(await credentials.user(other.tenant.id, principal.userId)).toBeNull();
      })).toHaveLength(1);
    });

    test("a thousand keys used twice each make one write statement once the interval is over; closing writes what is left", async () => {
      const { tenant, user } = await seedTenant(storage.repos, 'admin');
      const keys = Array.from({ length: 1000 }, () => anApiKey(tenant.id, user.id));
      for (const key of keys) await storage.repos.apiKeys.create(key);
      const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
      const usage = new BatchedApiKeyUsage(storage.repos.apiKeys, clock, (error) => { throw error; }, { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 200_000 });

      const gathering = await statementsDuring(backend, async () => {
        for (const key of keys) usage.recordUse(tenant.id, key.id, clock.now());
        clock.advance({ seconds: MINUTE_S / 2 });
        for (const key of keys) usage.recordUse(tenant.id, key.id, clock.now());
        await usage.settled();
      });
      expect(gathering).toEqual([]);
      const lastOfInterval = clock.now();

      clock.advance({ seconds: MINUTE_S / 2 });
      const due = await statementsDuring(backend, async () => {
        usage.recordUse(tenant.id, keys[0]!.id, clock.now()); // the interval is over: the batch goes
        await usage.settled();
      });
      expect(due).toHaveLength(1);
      expect(due[0]).toMatch(/record_api_key_uses/);
      const written = new Map((await storage.repos.apiKeys.listForTenant(tenant.id)).map((key) => [key.id, key.lastUsedAt]));
      expect(written.get(keys[0]!.id)).toEqual(clock.now());
      for (const key of keys.slice(1)) expect(written.get(key.id)).toEqual(lastOfInterval);

      clock.advance({ seconds: 5 });
      const closing = await statementsDuring(backend, async () => {
        for (const key of keys.slice(0, 10)) usage.recordUse(tenant.id, key.id, clock.now());
        await usage.close();
      });
      expect(closing).toHaveLength(1);
      const afterClose = (await storage.repos.apiKeys.listForTenant(tenant.id)).filter((key) => key.lastUsedAt?.getTime() === clock.now().getTime());
      expect(afterClose).toHaveLength(10);
    });

    test("sessions' last seen: many sessions used in an interval make one write statement, and the instance remembers its own uses", async () => {
      const { tenant, user } = await seedTenant(storage.repos, 'admin');
      const sessions = Array.from({ length: 200 }, () => aSession(tenant.id, user.id));
      for (const session of sessions) await storage.repos.sessions.create(session);
      const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
      const activity = new BatchedSessionActivity(storage.repos.sessions, clock, (error) => { throw error; }, { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 200_000 });

      clock.advance({ seconds: 10 });
      const gathering = await statementsDuring(backend, async () => {
        for (const session of sessions) activity.recordUse(tenant.id, session.id, clock.now());
        await activity.settled();
      });
      expect(gathering).toEqual([]);
      expect(activity.lastUse(sessions[0]!.id)).toEqual(clock.now());

      clock.advance({ seconds: MINUTE_S });
      const due = await statementsDuring(backend, async () => {
        activity.recordUse(tenant.id, sessions[0]!.id, clock.now());
        await activity.settled();
      });
      expect(due).toHaveLength(1);
      expect(due[0]).toMatch(/record_session_uses/);
      expect((await storage.repos.sessions.findLive(tenant.id, sessions[0]!.id))?.lastSeenAt).toEqual(clock.now());
      expect((await storage.repos.sessions.findLive(tenant.id, sessions[1]!.id))?.lastSeenAt.getTime()).toBe(clock.now().getTime() - MINUTE_S * 1000);
      await activity.close();
    });
  });
}

describeCredentialCheck('pglite', () => openTestStorage('pglite'));

describeIfPostgres('postgres', (url) => {
  describeCredentialCheck('postgres', () => openTestStorage({ postgres: url }, [], 2));
});
