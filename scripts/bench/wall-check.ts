/**
 * What the tenant walls' proof check costs inside the database, per call, without a round trip:
 * `portcullis_wall_tenant()` (the proof of the transaction's setting checked against the key) beside
 * reading the setting alone (all the walls did before migration 0009), each called N times in one
 * statement, alternated in rounds. The walls call it once per statement; GET /invites' function
 * checks one proof too.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/wall-check.ts
 *   WALL_CHECK_EMBEDDED=1 npx tsx scripts/bench/wall-check.ts      (PGlite in memory instead)
 *   WALL_CHECK_ROUNDS=7 WALL_CHECK_N=20000 …                      (the defaults)
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openServingPglite, openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { WALL_SETTING, WALL_TENANT } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { median } from './stats';

const ROUNDS = Number(process.env['WALL_CHECK_ROUNDS'] ?? 7);
const N = Number(process.env['WALL_CHECK_N'] ?? 20_000);

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  const embedded = process.env['WALL_CHECK_EMBEDDED'] === '1' || !url;
  const opened = embedded ? await openServingPglite('memory://') : await openServingPostgres(url!, { max: 1 });
  const tenantId = randomUUID();
  const ways = {
    'the proof checked': sql`select count(${sql.id(WALL_TENANT)}()) as n from generate_series(1, ${sql.lit(N)})`,
    'the setting read': sql`select count(nullif(current_setting(${sql.lit(WALL_SETTING)}, true), '')) as n from generate_series(1, ${sql.lit(N)})`,
  };
  const samples: Record<keyof typeof ways, number[]> = { 'the proof checked': [], 'the setting read': [] };
  try {
    await opened.db.transaction().execute(async (trx) => {
      await sql`select set_config(${WALL_SETTING}, ${opened.walls.setting(tenantId)}, true)`.execute(trx);
      const { rows: [proven] } = await sql<{ tenant: string | null }>`select ${sql.id(WALL_TENANT)}() as tenant`.execute(trx);
      if (proven?.tenant !== tenantId) throw new Error('the proof did not check out: is the database migrated with this key?');
      for (let round = 0; round < ROUNDS; round += 1) {
        const names = Object.keys(ways) as (keyof typeof ways)[];
        for (const name of round % 2 === 0 ? names : [...names].reverse()) {
          const started = process.hrtime.bigint();
          await ways[name].execute(trx);
          samples[name].push(Number(process.hrtime.bigint() - started) / 1000 / N);
        }
      }
    });
    console.log(`wall-check: ${embedded ? 'PGlite (memory)' : 'Postgres'}; ${ROUNDS} rounds of ${N} calls, median µs a call`);
    for (const [name, values] of Object.entries(samples)) console.log(`  ${name.padEnd(20)} ${median(values).toFixed(2)} µs`);
  } finally {
    await opened.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
