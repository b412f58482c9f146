/**
 * What the change log (migration 0010) costs the writers of credential changes: every commit that
 * changes a credential takes its position under one counter row's lock, at commit, so such commits
 * run one after the other. Measured on Postgres (DATABASE_URL, as the schema's owner): writers
 * each flip their own key's `revoked` (a logged change, one statement, one transaction), against
 * the same writers renaming their own key (`name` is bookkeeping: nothing logged), alternated,
 * at 1, 4 and 16 writers at once. Medians of BENCH_ROUNDS rounds (5) of BENCH_SECONDS (3) each.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/change-log-cost.ts
 *
 * Prints a Markdown table (and the load average before and after) for docs/benchmarks.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const WRITERS = [1, 4, 16];

type Kind = 'logged' | 'not logged';

const STATEMENTS: Record<Kind, string> = {
  logged: 'update api_keys set revoked = not revoked where id = $1',
  'not logged': `update api_keys set name = md5(random()::text) where id = $1`,
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function seed(url: string, count: number): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const tenantId = randomUUID();
    const userId = randomUUID();
    await client.query('insert into tenants (id, name, slug, created_at) values ($1, $2, $3, now())', [tenantId, 'Change log bench', `change-log-bench-${tenantId}`]);
    await client.query(`insert into users (id, tenant_id, email, password_hash, role, created_at) values ($1, $2, $3, 'x', 'owner', now())`,
      [userId, tenantId, `bench-${userId}@example.com`]);
    const keys: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = randomUUID();
      const raw = `pcls_${randomBytes(16).toString('hex')}`;
      await client.query(`insert into api_keys (id, tenant_id, user_id, key_prefix, key_hash, revoked, created_at) values ($1, $2, $3, $4, $5, false, now())`,
        [id, tenantId, userId, raw.slice(0, 13), randomBytes(32).toString('hex')]);
      keys.push(id);
    }
    return keys;
  } finally {
    await client.end();
  }
}

/** Commits a second by `writers` connections, each on its own key, for SECONDS. */
async function run(clients: readonly Client[], keys: readonly string[], kind: Kind): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  const counts = await Promise.all(clients.map(async (client, i) => {
    let done = 0;
    while (performance.now() < deadline) {
      await client.query(STATEMENTS[kind], [keys[i]]);
      done += 1;
    }
    return done;
  }));
  return counts.reduce((a, b) => a + b, 0) / SECONDS;
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required (Postgres, as the schema owner)');
  await (await openServingPostgres(url, { max: 1 })).close(); // migrated
  const loadBefore = loadavg();
  const keys = await seed(url, Math.max(...WRITERS));
  const rows: string[] = [];
  for (const writers of WRITERS) {
    const clients = await Promise.all(Array.from({ length: writers }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      return client;
    }));
    const rates: Record<Kind, number[]> = { logged: [], 'not logged': [] };
    await run(clients, keys, 'not logged'); // warm-up
    await run(clients, keys, 'logged');
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of ['not logged', 'logged'] as const) rates[kind].push(await run(clients, keys, kind));
    }
    await Promise.all(clients.map((client) => client.end()));
    const plain = median(rates['not logged']);
    const logged = median(rates.logged);
    rows.push(`| ${writers} | ${plain.toFixed(0)} | ${logged.toFixed(0)} | ${((100 * logged) / plain).toFixed(1)}% | ${(1000 / logged * writers).toFixed(2)} ms |`);
    console.error(`writers ${writers}: not logged ${rates['not logged'].map((r) => r.toFixed(0)).join(', ')}; logged ${rates.logged.map((r) => r.toFixed(0)).join(', ')}`);
  }
  console.log(`Load average before ${loadBefore.map((n) => n.toFixed(2)).join(' / ')}, after ${loadavg().map((n) => n.toFixed(2)).join(' / ')}; ${ROUNDS} rounds of ${SECONDS} s, medians.\n`);
  console.log('| Writers at once | Commits/s, bookkeeping (not logged) | Commits/s, credential changes (logged) | Logged / not logged | Commit time, logged |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
