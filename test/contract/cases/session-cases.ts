import { randomUUID } from 'node:crypto';
import type { LoggedChange } from '../../../src/application/ports/credential-change-log';
import type { CredentialChange } from '../../../src/application/ports/credential-states';
import type { Repositories } from '../../../src/application/ports/repositories';
import type { Session, SessionEnding } from '../../../src/domain/session';
import { addUser, minutesFrom, seedTenant, type StorageGetter } from '../storage-fixtures';

/** Whole milliseconds, as timestamptz keeps them (microseconds on SQL, but Dates carry milliseconds). */
function at(minutes: number, base = new Date('2030-01-01T00:00:00.000Z')): Date {
  return minutesFrom(base, minutes);
}

export function aSession(tenantId: string, userId: string, overrides: Partial<Session> = {}): Session {
  const start = overrides.createdAt ?? at(0);
  return {
    id: randomUUID(), tenantId, userId, createdAt: start, lastSeenAt: start, authenticatedAt: start,
    userAgent: 'contract-test/1.0', ip: '203.0.113.7', endedAt: null, endedBy: null, endReason: null, amr: ['pwd'], ...overrides,
  };
}

const byUser = (userId: string, reason: SessionEnding['reason'] = 'user'): SessionEnding => ({ at: at(30), by: userId, reason });

async function seedSessions(repos: Repositories) {
  const { tenant, user } = await seedTenant(repos, 'admin');
  const older = aSession(tenant.id, user.id, { createdAt: at(1) });
  const newer = aSession(tenant.id, user.id, { createdAt: at(2) });
  for (const session of [older, newer]) await repos.sessions.create(session);
  return { tenant, user, older, newer };
}

export function describeSessionCases(storage: StorageGetter): void {
  describe('sessions', () => {
    test('a created session is found live, as authentication needs it, and listed with what it recorded', async () => {
      const { repos } = storage();
      const { tenant, user, older, newer } = await seedSessions(repos);

      expect(await repos.sessions.findLive(tenant.id, older.id)).toEqual({
        sessionId: older.id, tenantId: tenant.id, userId: user.id, lastSeenAt: older.lastSeenAt, authenticatedAt: older.authenticatedAt,
      });
      expect(await repos.sessions.listLive(tenant.id, user.id)).toEqual([newer, older]);
    });

    test("a member's list holds their own sessions only, and another tenant sees none of them (tenant isolation)", async () => {
      const { repos } = storage();
      const { tenant, user, older } = await seedSessions(repos);
      const colleague = await addUser(repos, tenant.id, 'member');
      const theirs = aSession(tenant.id, colleague.id);
      await repos.sessions.create(theirs);
      const other = await seedTenant(repos);

      expect((await repos.sessions.listLive(tenant.id, user.id)).map((s) => s.id)).not.toContain(theirs.id);
      expect((await repos.sessions.listLive(tenant.id, colleague.id)).map((s) => s.id)).toEqual([theirs.id]);
      expect(await repos.sessions.findLive(other.tenant.id, older.id)).toBeNull();
      expect(await repos.sessions.listLive(other.tenant.id, user.id)).toEqual([]);
      expect(await repos.sessions.end(other.tenant.id, user.id, older.id, byUser(user.id))).toBe(false);
      expect(await repos.sessions.endAllOf(other.tenant.id, user.id, byUser(user.id))).toBe(0);
      expect(await repos.sessions.findLive(tenant.id, older.id)).not.toBeNull();
    });

    test('ending one: only its member ends it, once; an ended session is neither found nor listed', async () => {
      const { repos } = storage();
      const { tenant, user, older, newer } = await seedSessions(repos);
      const colleague = await addUser(repos, tenant.id, 'member');

      expect(await repos.sessions.end(tenant.id, colleague.id, older.id, byUser(colleague.id))).toBe(false);
      expect(await repos.sessions.end(tenant.id, user.id, older.id, byUser(user.id))).toBe(true);
      expect(await repos.sessions.end(tenant.id, user.id, older.id, byUser(user.id))).toBe(false);
      expect(await repos.sessions.findLive(tenant.id, older.id)).toBeNull();
      expect((await repos.sessions.listLive(tenant.id, user.id)).map((s) => s.id)).toEqual([newer.id]);
      expect(await repos.sessions.end(tenant.id, user.id, 'not-a-uuid', byUser(user.id))).toBe(false);
      expect(await repos.sessions.findLive(tenant.id, 'not-a-uuid')).toBeNull();
    });

    test('ending all but the current one, then all of a member', async () => {
      const { repos } = storage();
      const { tenant, user, older, newer } = await seedSessions(repos);
      const third = aSession(tenant.id, user.id, { createdAt: at(3) });
      await repos.sessions.create(third);
      const colleague = await addUser(repos, tenant.id, 'member');
      const theirs = aSession(tenant.id, colleague.id);
      await repos.sessions.create(theirs);

      expect(await repos.sessions.endAllOf(tenant.id, user.id, byUser(user.id), newer.id)).toBe(2);
      expect((await repos.sessions.listLive(tenant.id, user.id)).map((s) => s.id)).toEqual([newer.id]);
      expect(await repos.sessions.findLive(tenant.id, older.id)).toBeNull();
      expect(await repos.sessions.endAllOf(tenant.id, user.id, { at: at(40), by: colleague.id, reason: 'admin' })).toBe(1);
      expect(await repos.sessions.listLive(tenant.id, user.id)).toEqual([]);
      expect(await repos.sessions.findLive(tenant.id, theirs.id)).not.toBeNull();
    });

    test('authentication is renewed on a live session of the member only', async () => {
      const { repos } = storage();
      const { tenant, user, older, newer } = await seedSessions(repos);
      const colleague = await addUser(repos, tenant.id, 'member');

      expect(await repos.sessions.renewAuthentication(tenant.id, user.id, older.id, at(20))).toBe(true);
      expect(await repos.sessions.renewAuthentication(tenant.id, colleague.id, newer.id, at(20))).toBe(false);
      expect((await repos.sessions.findLive(tenant.id, older.id))?.authenticatedAt).toEqual(at(20));
      await repos.sessions.end(tenant.id, user.id, older.id, byUser(user.id));
      expect(await repos.sessions.renewAuthentication(tenant.id, user.id, older.id, at(25))).toBe(false);
    });

    test('last seen is written for a batch across tenants in one call, only forward, each with its own tenant', async () => {
      const { repos } = storage();
      const first = await seedSessions(repos);
      const second = await seedSessions(repos);

      await repos.sessions.markSeen([
        { tenantId: first.tenant.id, sessionId: first.older.id, at: at(10) },
        { tenantId: second.tenant.id, sessionId: second.newer.id, at: at(12) },
        { tenantId: second.tenant.id, sessionId: first.newer.id, at: at(14) }, // not that tenant's: skipped
      ]);
      await repos.sessions.markSeen([{ tenantId: first.tenant.id, sessionId: first.older.id, at: at(5) }]); // never back

      expect((await repos.sessions.findLive(first.tenant.id, first.older.id))?.lastSeenAt).toEqual(at(10));
      expect((await repos.sessions.findLive(second.tenant.id, second.newer.id))?.lastSeenAt).toEqual(at(12));
      expect((await repos.sessions.findLive(first.tenant.id, first.newer.id))?.lastSeenAt).toEqual(first.newer.lastSeenAt);
    });

    test('an end is a credential change: reported to the unit of work once committed, and logged with its tenant', async () => {
      const store = storage();
      const { tenant, user, older } = await seedSessions(store.repos);
      const reports: CredentialChange[] = [];
      const stop = store.afterCommit((changes) => reports.push(...changes.filter((c) => c.kind === 'session' && c.sessionId === older.id)));
      const { head } = await store.changeLog.read(Number.MAX_SAFE_INTEGER, 0);
      try {
        await store.unitOfWork.run((tx) => tx.sessions.renewAuthentication(tenant.id, user.id, older.id, at(9)));
        expect(reports).toEqual([]);
        await store.unitOfWork.run((tx) => tx.sessions.end(tenant.id, user.id, older.id, byUser(user.id)));
        expect(reports).toEqual([{ kind: 'session', sessionId: older.id }]);
      } finally {
        stop();
      }
      const { changes } = await store.changeLog.read(head, 10_000);
      const logged = changes.filter((c): c is Extract<LoggedChange, { kind: 'session' }> => c.kind === 'session' && c.sessionId === older.id);
      expect(logged.map(({ kind, sessionId, tenantId }) => ({ kind, sessionId, tenantId }))).toEqual([{ kind: 'session', sessionId: older.id, tenantId: tenant.id }]);
    });
  });
}
