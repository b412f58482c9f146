/**
 * What the audit trail's index on (tenant, action, time) buys: a page of one tenant's events
 * filtered by action (the console's filter), timed on a trail of a million events before and after
 * migration 0011, with the unfiltered page, which the index does not serve, as the baseline of each
 * half. Each page is read as the service reads it: KyselyAuditEventRepository.list, as the walled
 * app role. The plans (EXPLAIN ANALYZE) are printed for both halves.
 *
 * It works in a scratch database of its own on the server DATABASE_URL names (created, then
 * dropped), so it never touches another database's trail:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx scripts/audit-filter-timing.ts
 *   ... npx tsx scripts/audit-filter-timing.ts 1000000 15      events (default 1,000,000), runs per page (15)
 *
 * The trail: ten tenants; the one measured holds 60% of the events, over a year, from 50 actors,
 * with the actions' shares of a busy tenant (logins the most, member removals among the rarest, and
 * one action it never had, whose filter, before the index, read the tenant's whole trail).
 * Medians of the runs, after two unmeasured ones. A benchmark, not a test:
 * test/contract/audit-action-index.test.ts checks that the filtered query uses the index.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { type Kysely, Migrator, sql } from 'kysely';
import { openPostgres } from '../src/adapters/persistence/kysely/driver/dialects';
import { migrationProvider, migrations } from '../src/adapters/persistence/kysely/migrations';
import { APP_ROLE } from '../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { WALL_SETTING } from '../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { DEVELOPMENT_TENANT_WALL_KEY, TenantWalls } from '../src/adapters/persistence/kysely/driver/tenant-walls';
import { installTenantWallKey } from '../src/adapters/persistence/kysely/driver/tenant-wall-setup';
import { AUDIT_ACTION_INDEX } from '../src/adapters/persistence/kysely/migrations/0011-module-readiness-and-audit-action-index';
import { createKyselyStorage } from '../src/adapters/persistence/kysely/repositories/kysely-storage';
import type { DB } from '../src/adapters/persistence/kysely/schema';
import type { AuditQuery } from '../src/application/ports/audit-events';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.argv[3] ?? 15);
const PAGE = 25;
const INDEX_MIGRATION = '0011-module-readiness-and-audit-action-index';

/** Per mille of the events, in order; cumulative thresholds are built from it. */
const ACTION_SHARES: ReadonlyArray<readonly [string, number]> = [
  ['login.succeeded', 700], ['login.failed', 100], ['access.denied', 80], ['invite.created', 40],
  ['invite.accepted', 20], ['api_key.created', 20], ['signup.invite_accepted', 20], ['password.changed', 10],
  ['api_key.revoked', 5], ['member.role_changed', 3], ['invite.revoked', 1], ['member.removed', 1],
];

interface Page {
  readonly name: string;
  readonly query: () => AuditQuery;
  /** The page may be empty: an action the tenant never had, which the filter must still answer. */
  readonly mayBeEmpty?: boolean;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function seed(db: Kysely<DB>, events: number): Promise<string> {
  const tenants = Array.from({ length: 10 }, () => crypto.randomUUID());
  const measured = tenants[0]!;
  let from = 0;
  const cases = ACTION_SHARES.map(([action, share]) => {
    from += share;
    return sql`when (n::bigint * 7919) % 1000 < ${from} then ${action}`;
  });
  // The measured tenant owns events 0..60%, the nine others share the rest.
  await sql`
    insert into audit_events (id, tenant_id, actor_user_id, actor_method, action, target_id, client_address, user_agent, request_id, occurred_at, details)
    select gen_random_uuid(),
           case when n < ${Math.floor(events * 0.6)} then ${measured}::uuid else (${sql.val(tenants.slice(1))}::uuid[])[1 + n % 9] end,
           md5('actor' || (n % 50))::uuid,
           'jwt',
           case ${sql.join(cases, sql` `)} else 'login.succeeded' end,
           md5('target' || n)::uuid,
           '203.0.113.' || (n % 250), 'bench/1.0', md5('request' || n),
           now() - make_interval(secs => (${events} - n) * (31536000.0 / ${events})),
           '{}'::jsonb
    from generate_series(0, ${events - 1}) as n`.execute(db);
  await sql`analyze audit_events`.execute(db);
  return measured;
}

async function timePages(db: Kysely<DB>, tenantId: string, pages: readonly Page[]): Promise<Map<string, number>> {
  const { repos } = createKyselyStorage({ db, walls: WALLS }, async () => undefined);
  const times = new Map<string, number[]>(pages.map((page) => [page.name, []]));
  for (let run = -2; run < RUNS; run += 1) {
    for (const page of pages) {
      const start = process.hrtime.bigint();
      const events = await repos.auditEvents.list(tenantId, page.query());
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (events.length === 0 && !page.mayBeEmpty) throw new Error(`${page.name}: no events`);
      if (run >= 0) times.get(page.name)!.push(ms);
    }
  }
  return new Map([...times].map(([name, values]) => [name, median(values)]));
}

/** The list's statement for a filtered page, as the app role with the tenant set, as the repository runs it. */
async function explain(db: Kysely<DB>, tenantId: string, action: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config(${WALL_SETTING}, ${WALLS.setting(tenantId)}, true)`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain (analyze, buffers, costs off, timing off)
      select * from audit_events where tenant_id = ${tenantId} and action = ${action}
      order by occurred_at desc, id desc limit ${PAGE}`.execute(trx);
    return rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n');
  });
}

/** The scratch database is the script's own: the development key serves. */
const WALLS = new TenantWalls(DEVELOPMENT_TENANT_WALL_KEY);

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL must name a Postgres server (a scratch database is made on it)');
  if (!Number.isSafeInteger(EVENTS) || EVENTS < 1000) throw new Error(`events must be an integer of at least 1000, got ${EVENTS}`);
  const keys = Object.keys(migrations).sort();
  const before = keys[keys.indexOf(INDEX_MIGRATION) - 1]!;

  const admin = openPostgres(url, { max: 1 });
  const scratch = `portcullis_audit_bench_${randomBytes(4).toString('hex')}`;
  await sql`create database ${sql.id(scratch)}`.execute(admin.db);
  const scratchUrl = new URL(url);
  scratchUrl.pathname = `/${scratch}`;
  const owner = openPostgres(scratchUrl.toString(), { max: 1 });
  const serving = openPostgres(scratchUrl.toString(), { max: 2, role: APP_ROLE });
  try {
    const migrator = new Migrator({ db: owner.db, provider: migrationProvider });
    const upTo = async (name: string) => {
      const { error } = await migrator.migrateTo(name);
      if (error) throw error;
    };
    await upTo(before);
    await installTenantWallKey(owner.db, WALLS);
    let started = Date.now();
    const tenantId = await seed(owner.db, EVENTS);
    const seededIn = Date.now() - started;
    const { rows: [counts] } = await sql<{ all: string; measured: string; removed: string; failed: string }>`
      select count(*) as all, count(*) filter (where tenant_id = ${tenantId}) as measured,
             count(*) filter (where tenant_id = ${tenantId} and action = 'member.removed') as removed,
             count(*) filter (where tenant_id = ${tenantId} and action = 'login.failed') as failed
      from audit_events`.execute(owner.db);

    // The second page of the rarest filter starts after the first page's last event.
    const { repos } = createKyselyStorage({ db: serving.db, walls: WALLS }, async () => undefined);
    const firstRare = await repos.auditEvents.list(tenantId, { limit: PAGE, action: 'member.removed' });
    const last = firstRare.at(-1)!;
    const pages: Page[] = [
      { name: 'no filter (baseline)', query: () => ({ limit: PAGE }) },
      { name: 'action=member.removed (0.1%), page 1', query: () => ({ limit: PAGE, action: 'member.removed' }) },
      { name: 'action=member.removed (0.1%), page 2', query: () => ({ limit: PAGE, action: 'member.removed', after: { occurredAt: last.occurredAt, id: last.id } }) },
      { name: 'action=login.failed (10%), page 1', query: () => ({ limit: PAGE, action: 'login.failed' }) },
      { name: 'action=signup.tenant_created (none here), page 1', query: () => ({ limit: PAGE, action: 'signup.tenant_created' }), mayBeEmpty: true },
    ];

    const planBefore = await explain(serving.db, tenantId, 'member.removed');
    const emptyPlanBefore = await explain(serving.db, tenantId, 'signup.tenant_created');
    const timesBefore = await timePages(serving.db, tenantId, pages);
    started = Date.now();
    await upTo(INDEX_MIGRATION);
    const migratedIn = Date.now() - started;
    await sql`analyze audit_events`.execute(owner.db);
    const planAfter = await explain(serving.db, tenantId, 'member.removed');
    const emptyPlanAfter = await explain(serving.db, tenantId, 'signup.tenant_created');
    const timesAfter = await timePages(serving.db, tenantId, pages);
    const { rows: [size] } = await sql<{ size: string }>`select pg_size_pretty(pg_relation_size(${AUDIT_ACTION_INDEX}::regclass)) as size`.execute(owner.db);
    const { rows: [version] } = await sql<{ server_version: string }>`show server_version`.execute(owner.db);

    const baselineBefore = timesBefore.get(pages[0]!.name)!;
    const baselineAfter = timesAfter.get(pages[0]!.name)!;
    console.log(`Postgres ${version!.server_version}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`${counts!.all} events (${counts!.measured} of the measured tenant: ${counts!.removed} member.removed, ${counts!.failed} login.failed), seeded in ${(seededIn / 1000).toFixed(1)} s; ${RUNS} runs per page, medians`);
    console.log(`migration ${INDEX_MIGRATION} took ${(migratedIn / 1000).toFixed(1)} s on this trail; the index is ${size!.size}`);
    console.log('');
    console.log('| page of 25 (KyselyAuditEventRepository.list, as the app role) | before: ms | × baseline | after: ms | × baseline | before / after |');
    console.log('|---|---|---|---|---|---|');
    for (const page of pages) {
      const b = timesBefore.get(page.name)!;
      const a = timesAfter.get(page.name)!;
      console.log(`| ${page.name} | ${b.toFixed(2)} | ${(b / baselineBefore).toFixed(1)} | ${a.toFixed(2)} | ${(a / baselineAfter).toFixed(1)} | ${(b / a).toFixed(1)} |`);
    }
    console.log('\nEXPLAIN, action=member.removed, page 1, before:\n' + planBefore);
    console.log('\nafter:\n' + planAfter);
    console.log('\nEXPLAIN, action=signup.tenant_created (none here), page 1, before:\n' + emptyPlanBefore);
    console.log('\nafter:\n' + emptyPlanAfter);
  } finally {
    await serving.close();
    await owner.close();
    await sql`drop database if exists ${sql.id(scratch)} with (force)`.execute(admin.db);
    await admin.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
