/**
 * What a tenant-scoped read costs outside a unit of work (GET /members' read, 20 members), by the
 * two ways the adapter has to reach walled rows:
 *
 * - `transaction`: the same SELECT through the walls, as every other standalone statement runs:
 *   BEGIN, set_config, SELECT, COMMIT (four round trips; standaloneScope)
 * - `function`: listMembers as the service runs it, one statement to the security-definer function
 *   that checks the tenant's proof itself (migration 0012)
 *
 * Both run in this process over one pool opened as the service opens it, alternated in rounds so
 * that noise hits both alike. Per way: the median and p90 time of one read at a time, this process's
 * CPU time per read (what the service pays; Postgres's own work is not in it), and reads/s with
 * CONCURRENCY reads in flight.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/tenant-read.ts
 *   TENANT_READ_ROUNDS=5 TENANT_READ_N=2000 …         (defaults: 5 rounds of 1000 reads per way)
 *   TENANT_READ_EMBEDDED=1 npx tsx scripts/bench/tenant-read.ts   (PGlite in memory instead)
 *   TENANT_READ_WAYS=function …      (one way only, e.g. under node --cpu-prof)
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { kyselyRepositories } from '../../src/adapters/persistence/kysely/repositories/kysely-repositories';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPglite, openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { standaloneScope, type TenantScope } from '../../src/adapters/persistence/kysely/driver/tenant-scope';
import type { Repositories } from '../../src/application/ports/repositories';
import { median, percentile } from './stats';
import { INITIAL_AUTH_VERSION } from '../../src/domain/user';

const ROUNDS = Number(process.env['TENANT_READ_ROUNDS'] ?? 5);
const N = Number(process.env['TENANT_READ_N'] ?? 1000);
const CONCURRENCY = 10;
const MEMBERS = 20;

type Way = 'transaction' | 'function';
const WAYS = (process.env['TENANT_READ_WAYS'] ?? 'transaction,function').split(',').filter((w): w is Way => w === 'transaction' || w === 'function');
type ListMembers = (tenantId: string) => Promise<readonly unknown[]>;

/** The member list's SELECT, run through the walls in a transaction of its own. */
function throughTheWalls(scope: TenantScope): ListMembers {
  return (tenantId) => scope.forTenant(tenantId, (db) => db.selectFrom('users')
    .select(['id', 'tenant_id', 'email', 'password_hash', 'role', 'created_at', 'auth_version'])
    .where('tenant_id', '=', tenantId).where('removed_at', 'is', null)
    .orderBy('created_at', 'asc').orderBy('id', 'asc').execute());
}

async function seed(repos: Repositories): Promise<string> {
  const tenantId = randomUUID();
  const now = new Date();
  await repos.tenants.create({ id: tenantId, name: 'Bench', slug: `bench-${tenantId}`, createdAt: now });
  for (let i = 0; i < MEMBERS; i += 1) {
    const userId = randomUUID();
    await repos.users.create({
      id: userId, tenantId, email: `bench-${userId}@example.com`, passwordHash: 'x', role: i === 0 ? 'owner' : 'member', createdAt: now,
      authVersion: INITIAL_AUTH_VERSION,
    });
  }
  return tenantId;
}

interface Sample {
  readonly sequentialUs: number[];
  cpuUsPerRead: number[];
  readsPerSecond: number[];
}

async function sequential(list: ListMembers, tenantId: string, sample: Sample): Promise<void> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i += 1) {
    const started = process.hrtime.bigint();
    const members = await list(tenantId);
    sample.sequentialUs.push(Number(process.hrtime.bigint() - started) / 1000);
    if (members.length !== MEMBERS) throw new Error(`expected ${MEMBERS} members, read ${members.length}`);
  }
  const used = process.cpuUsage(cpu);
  sample.cpuUsPerRead.push((used.user + used.system) / N);
}

async function concurrent(list: ListMembers, tenantId: string, sample: Sample): Promise<void> {
  let left = N;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (left > 0) {
      left -= 1;
      await list(tenantId);
    }
  }));
  sample.readsPerSecond.push(N / (Number(process.hrtime.bigint() - started) / 1e9));
}

function describe(way: Way, sample: Sample): string {
  const seq = sample.sequentialUs;
  return `${way.padEnd(11)} one at a time: median ${median(seq).toFixed(0)} µs, p90 ${percentile(seq, 90).toFixed(0)} µs; `
    + `CPU of this process ${median(sample.cpuUsPerRead).toFixed(0)} µs/read; `
    + `${CONCURRENCY} in flight: ${median(sample.readsPerSecond).toFixed(0)} reads/s`;
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  const embedded = process.env['TENANT_READ_EMBEDDED'] === '1' || !url;
  const opened = embedded ? await openServingPglite('memory://') : await openServingPostgres(url!);
  const db: Kysely<DB> = opened.db;
  const scope = standaloneScope(db, opened.walls);
  const repos = kyselyRepositories(scope);
  const ways: Record<Way, ListMembers> = {
    transaction: throughTheWalls(scope),
    function: (tenantId) => repos.users.listMembers(tenantId),
  };
  try {
    const tenantId = await seed(repos);
    const samples: Record<Way, Sample> = {
      transaction: { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] },
      function: { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] },
    };
    console.log(`tenant-read: ${embedded ? 'PGlite (memory)' : 'Postgres'}; ${ROUNDS} rounds × ${N} reads per way; listMembers of ${MEMBERS} members`);
    for (const way of WAYS) await sequential(ways[way], tenantId, { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] }); // warm-up
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? WAYS : [...WAYS].reverse();
      for (const way of order) {
        await sequential(ways[way], tenantId, samples[way]);
        await concurrent(ways[way], tenantId, samples[way]);
      }
    }
    for (const way of WAYS) console.log(describe(way, samples[way]));
  } finally {
    await opened.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
