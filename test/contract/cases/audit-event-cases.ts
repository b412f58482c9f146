import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../../src/domain/audit-event';
import { seedTenant, type StorageGetter } from '../storage-fixtures';

/** One event with every field set, so a round trip shows nothing is dropped or retyped. */
export function anAuditEvent(tenantId: string | null, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: randomUUID(),
    tenantId,
    actorUserId: randomUUID(),
    actorMethod: 'jwt',
    action: 'api_key.created',
    targetId: randomUUID(),
    clientAddress: '203.0.113.7',
    userAgent: 'curl/8.5.0',
    requestId: randomUUID(),
    occurredAt: new Date(Date.UTC(2026, 10, 21, 12, 0, 0, 123)),
    details: { prefix: 'pcls_ab12', count: 3, revoked: false, name: null },
    ...overrides,
  };
}

/** Ids in ascending order, so tests can state the tie-break (id descending) explicitly. */
function sortedIds(count: number): string[] {
  return Array.from({ length: count }, () => randomUUID()).sort();
}

export function describeAuditEventCases(storage: StorageGetter): void {
  describe('audit events', () => {
    test('an appended event reads back with every field, details included', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const event = anAuditEvent(tenant.id);
      await repos.auditEvents.append(event);

      expect(await repos.auditEvents.list(tenant.id, { limit: 10 })).toEqual([event]);
    });

    test('newest first, ties broken by id descending, and a position resumes with no gap or repeat', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
      const [a, b, c] = sortedIds(3);
      const events = [
        anAuditEvent(tenant.id, { occurredAt: at(1) }),
        anAuditEvent(tenant.id, { id: a!, occurredAt: at(2) }),
        anAuditEvent(tenant.id, { id: c!, occurredAt: at(2) }),
        anAuditEvent(tenant.id, { id: b!, occurredAt: at(2) }),
        anAuditEvent(tenant.id, { occurredAt: at(3) }),
      ];
      for (const e of events) await repos.auditEvents.append(e);
      const expected = [events[4], events[2], events[3], events[1], events[0]].map((e) => e!.id);

      const all = await repos.auditEvents.list(tenant.id, { limit: 10 });
      expect(all.map((e) => e.id)).toEqual(expected);

      const seen: string[] = [];
      let page = await repos.auditEvents.list(tenant.id, { limit: 2 });
      while (page.length > 0) {
        seen.push(...page.map((e) => e.id));
        const last = page[page.length - 1]!;
        page = await repos.auditEvents.list(tenant.id, { limit: 2, after: { occurredAt: last.occurredAt, id: last.id } });
      }
      expect(seen).toEqual(expected);
    });

    test('filters by action and by actor, alone and together', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const alice = randomUUID();
      const bob = randomUUID();
      const events = [
        anAuditEvent(tenant.id, { actorUserId: alice, action: 'api_key.created' }),
        anAuditEvent(tenant.id, { actorUserId: alice, action: 'invite.created' }),
        anAuditEvent(tenant.id, { actorUserId: bob, action: 'api_key.created' }),
      ];
      for (const e of events) await repos.auditEvents.append(e);
      const ids = async (query: Parameters<typeof repos.auditEvents.list>[1]) =>
        (await repos.auditEvents.list(tenant.id, query)).map((e) => e.id).sort();

      expect(await ids({ limit: 10, action: 'api_key.created' })).toEqual([events[0]!.id, events[2]!.id].sort());
      expect(await ids({ limit: 10, actorUserId: alice })).toEqual([events[0]!.id, events[1]!.id].sort());
      expect(await ids({ limit: 10, actorUserId: alice.toUpperCase(), action: 'invite.created' })).toEqual([events[1]!.id]);
      expect(await ids({ limit: 10, actorUserId: 'not-a-uuid' })).toEqual([]);
    });

    test("a tenant sees only its own events, never another's nor tenant-less ones", async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const ofA = anAuditEvent(a.tenant.id);
      await repos.auditEvents.append(ofA);
      await repos.auditEvents.append(anAuditEvent(b.tenant.id));
      await repos.auditEvents.append(anAuditEvent(null, { action: 'login.failed', actorUserId: null, actorMethod: 'none', targetId: null }));

      expect((await repos.auditEvents.list(a.tenant.id, { limit: 100 })).map((e) => e.id)).toEqual([ofA.id]);
      expect(await repos.auditEvents.list('not-a-uuid', { limit: 100 })).toEqual([]);
    });

    test('an event appended in a unit of work that fails is not kept; one that commits is', async () => {
      const { repos, unitOfWork } = storage();
      const { tenant } = await seedTenant(repos);
      const lost = anAuditEvent(tenant.id);
      const kept = anAuditEvent(tenant.id);

      await expect(unitOfWork.run(async (tx) => {
        await tx.auditEvents.append(lost);
        throw new Error('the change failed');
      })).rejects.toThrow('the change failed');
      await unitOfWork.run((tx) => tx.auditEvents.append(kept));

      expect((await repos.auditEvents.list(tenant.id, { limit: 10 })).map((e) => e.id)).toEqual([kept.id]);
    });
  });
}
