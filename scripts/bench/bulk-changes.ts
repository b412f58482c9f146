/**
 * How one SQL statement that changes many credentials at once grows with their count: members
 * removed (DELETE) and API keys revoked (UPDATE), each in one statement, as an operator does from
 * psql. Every changed row is logged by the change log's triggers, so the statement's time includes
 * the log's work. The baseline, measured in the same run on a database of its own, is the change
 * log as it was before migration 0026 (that migration's `down`): the counter row updated once per
 * change, the unit of work's note grown without bound. Also timed: transactions of one change each
 * (one key revoked), which migration 0026 must not make dearer.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/bulk-changes.ts
 *
 * DATABASE_URL names a server whose login may create databases: the bench makes two and drops them
 * afterwards. BULK_SIZES (rows, comma-separated; default 1000,4000,16000), BULK_REPS (default 3)
 * and BULK_SINGLES (one-change transactions per rep, default 500) say how much.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { down as beforeBulkChangeLogging } from '../../src/adapters/persistence/kysely/migrations/0026-bulk-change-logging';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { createFreshDatabase, type FreshDatabase } from '../../test/support/fresh-postgres-database';
import { median } from './stats';

const intSetting = (name: string, fallback: number) => Number.parseInt(process.env[name] ?? String(fallback), 10);

function sizes(): number[] {
  const raw = process.env['BULK_SIZES'] ?? '1000,4000,16000';
  return raw.split(',').map((part) => Number.parseInt(part.trim(), 10)).filter((n) => Number.isInteger(n) && n > 0);
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A migrated database of the bench's own; `before` undoes migration 0026. */
async function database(serverUrl: string, before: boolean): Promise<FreshDatabase> {
  const fresh = await createFreshDatabase(serverUrl);
  try {
    const opened = openPostgres(fresh.url);
    try {
      await migrateAll(opened.db);
      if (before) await beforeBulkChangeLogging(opened.db as Kysely<unknown>);
    } finally {
      await opened.close();
    }
  } catch (error) {
    await fresh.drop();
    throw error;
  }
  return fresh;
}

/** A tenant whose owner holds `count` keys and which has `count` members besides. */
async function tenantWith(client: Client, count: number): Promise<{ tenantId: string; keyIds: string[] }> {
  const tenantId = randomUUID();
  const ownerId = randomUUID();
  await client.query(`insert into tenants (id, name, slug, created_at) values ($1::uuid, 'bulk', 'bulk-' || $1::text, now())`, [tenantId]);
  await client.query(
    `insert into users (id, tenant_id, email, password_hash, role, created_at, auth_version)
     values ($1, $2, $3, 'scrypt$bench$not-a-hash', 'owner', now(), 0)`,
    [ownerId, tenantId, `owner-${tenantId}@example.com`],
  );
  await client.query(
    `insert into users (id, tenant_id, email, password_hash, role, created_at, auth_version)
     select gen_random_uuid(), $1::uuid, 'member-' || n || '-' || $1::text || '@example.com', 'scrypt$bench$not-a-hash', 'member', now(), 0
     from generate_series(1, $2::int) as n`,
    [tenantId, count],
  );
  const { rows } = await client.query<{ id: string }>(
    `insert into api_keys (id, tenant_id, user_id, key_prefix, key_hash, revoked, created_at)
     select gen_random_uuid(), $1::uuid, $2::uuid, 'pcls_' || substr(md5(n::text || $1::text), 1, 8), md5(n::text || $1::text || 'k'), false, now()
     from generate_series(1, $3::int) as n
     returning id`,
    [tenantId, ownerId, count],
  );
  return { tenantId, keyIds: rows.map((row) => row.id) };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

interface Figures {
  /** Median ms per size: members removed, keys revoked, each in one statement. */
  readonly remove: number[];
  readonly revoke: number[];
  /** Median ms per transaction of one change. */
  readonly single: number;
}

async function measure(url: string, ns: readonly number[], reps: number, singles: number): Promise<Figures> {
  return withClient(url, async (client) => {
    const remove: number[] = [];
    const revoke: number[] = [];
    // Not counted: the first statements of a connection plan the triggers' queries.
    const warm = await tenantWith(client, ns[0]!);
    await client.query(`update api_keys set revoked = true where tenant_id = $1`, [warm.tenantId]);
    await client.query(`delete from users where tenant_id = $1 and role = 'member'`, [warm.tenantId]);
    for (const n of ns) {
      const removed: number[] = [];
      const revoked: number[] = [];
      for (let rep = 0; rep < reps; rep += 1) {
        const { tenantId } = await tenantWith(client, n);
        revoked.push(await timed(async () => {
          const { rowCount } = await client.query(`update api_keys set revoked = true where tenant_id = $1`, [tenantId]);
          if (rowCount !== n) throw new Error(`revoked ${rowCount} keys of ${n}`);
        }));
        removed.push(await timed(async () => {
          const { rowCount } = await client.query(`delete from users where tenant_id = $1 and role = 'member'`, [tenantId]);
          if (rowCount !== n) throw new Error(`removed ${rowCount} members of ${n}`);
        }));
      }
      remove.push(median(removed));
      revoke.push(median(revoked));
    }
    const perCommit: number[] = [];
    for (let rep = 0; rep < reps; rep += 1) {
      const { keyIds } = await tenantWith(client, singles);
      const ms = await timed(async () => {
        for (const id of keyIds) await client.query(`update api_keys set revoked = true where id = $1`, [id]);
      });
      perCommit.push(ms / singles);
    }
    return { remove, revoke, single: median(perCommit) };
  });
}

async function main(): Promise<void> {
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) throw new Error('DATABASE_URL must name a Postgres server whose login may create databases');
  const reps = intSetting('BULK_REPS', 3);
  const singles = intSetting('BULK_SINGLES', 500);
  const ns = sizes();
  const current = await database(serverUrl, false);
  try {
    const before = await database(serverUrl, true);
    try {
      const now = await measure(current.url, ns, reps, singles);
      console.log('bulk-changes: measured with migration 0026');
      const then = await measure(before.url, ns, reps, singles);
      console.log('bulk-changes: measured before migration 0026');

      const row = (cells: Array<string | number>) => console.log(cells.map(String).join(' | '));
      const fixed = (ms: number) => ms.toFixed(1);
      for (const [what, pick] of [['members removed in one DELETE', (f: Figures) => f.remove], ['keys revoked in one UPDATE', (f: Figures) => f.revoke]] as const) {
        console.log(`\n${what}`);
        row(['rows', 'before 0026 (ms)', 'now (ms)', 'before / now', 'now, µs a row', 'now, ×linear']);
        ns.forEach((n, i) => {
          const [b, c] = [pick(then)[i]!, pick(now)[i]!];
          const linear = c / (pick(now)[0]! * (n / ns[0]!));
          row([n, fixed(b), fixed(c), (b / c).toFixed(2), (c * 1000 / n).toFixed(1), linear.toFixed(2)]);
        });
      }
      console.log(`\none key revoked per transaction (${singles} in a row): before 0026 ${then.single.toFixed(3)} ms a commit, now ${now.single.toFixed(3)} ms (now / before ${(now.single / then.single).toFixed(2)})`);
      console.log(`\nmedians of ${reps}; ×linear: the time against the smallest size's, scaled to the same rows (1.00: linear growth)`);
    } finally {
      await before.drop();
    }
  } finally {
    await current.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
