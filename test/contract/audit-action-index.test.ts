import { sql } from 'kysely';
import { openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { AUDIT_ACTION_INDEX } from '../../src/adapters/persistence/kysely/migrations/0011-module-readiness-and-audit-action-index';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { anAuditEvent } from './cases/audit-event-cases';
import { seedTenant } from './storage-fixtures';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';

// The audit list filtered by action (the console's filter) is served by an index on
// (tenant, action, time): the database reads only that tenant's events of that action, in the
// order the list gives them, however long the rest of the trail is (docs/security.md, "A filtered
// page on a million events", has what it buys); this checks the plan, on both databases.

/** The plan of the list's filtered statement, as the app role with the tenant set, as the repository runs it. */
async function planOfFilteredPage(serving: ServingDatabase, tenantId: string, after?: { occurredAt: Date; id: string }): Promise<string> {
  return serving.db.transaction().execute(async (trx) => {
    await sql`select set_config(${WALL_SETTING}, ${serving.walls.setting(tenantId)}, true)`.execute(trx);
    // The trail here is a few rows; without this the planner would rightly read the table whole.
    await sql`set local enable_seqscan = off`.execute(trx);
    const cursor = after ? sql`and (occurred_at, id) < (${after.occurredAt}, ${after.id}::uuid)` : sql``;
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain (costs off)
      select * from audit_events where tenant_id = ${tenantId} and action = ${'member.removed'} ${cursor}
      order by occurred_at desc, id desc limit 25`.execute(trx);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

function describeTheIndex(name: string, open: () => Promise<ServingDatabase>): void {
  describe(`the audit trail's index for a filter by action: ${name}`, () => {
    let serving: ServingDatabase;
    beforeAll(async () => {
      serving = await open();
    }, 120_000);
    afterAll(async () => {
      await serving?.close();
    });

    it('serves a filtered page, and the next one, from the index, with the action in the index condition and no sort', async () => {
      const { repos } = createKyselyStorage(serving, async () => undefined);
      const { tenant } = await seedTenant(repos);
      for (const action of ['login.succeeded', 'member.removed', 'login.succeeded'] as const) await repos.auditEvents.append(anAuditEvent(tenant.id, { action }));
      const [last] = await repos.auditEvents.list(tenant.id, { limit: 1, action: 'member.removed' });
      expect(last?.action).toBe('member.removed');

      for (const plan of [await planOfFilteredPage(serving, tenant.id), await planOfFilteredPage(serving, tenant.id, last)]) {
        expect(plan).toContain(`Index Scan using ${AUDIT_ACTION_INDEX} on audit_events`);
        expect(plan).toMatch(/Index Cond: \(\(tenant_id = .*\) AND \(action = 'member\.removed'::text\)/);
        expect(plan).not.toMatch(/Sort/);
      }
    });
  });
}

describe('PGlite', () => {
  beforeAll(() => assertPgliteCanLoadInJest());
  describeTheIndex('pglite', () => servingTestPglite());
});

describeIfPostgres('Postgres', (url) => {
  describeTheIndex('postgres', () => openServingPostgres(url, { max: 2 }));
});
